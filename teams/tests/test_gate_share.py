"""The gate and any gold shared by side value (house rule 3): exact shares rounded to the unit
by largest remainder, as docs/house-rules.md says."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from teams.rosters import SHARE_UNIT, share_by_value

amounts = st.integers(min_value=0, max_value=5_000_000)
values = st.integers(min_value=0, max_value=3_000_000)


def test_70000_between_410k_and_340k_is_38000_and_32000() -> None:
    # exact 38,266.67 and 31,733.33: the rival's share lost the larger fraction
    assert share_by_value(70_000, 410_000, 340_000) == (38_000, 32_000)


def test_a_unit_between_equal_sides_goes_to_the_rival() -> None:
    assert share_by_value(1_000, 500_000, 500_000) == (0, 1_000)


def test_equal_fractions_go_to_the_lower_valued_side() -> None:
    # exact 500 and 2,500: both lose half a unit
    assert share_by_value(3_000, 100_000, 500_000) == (1_000, 2_000)
    assert share_by_value(3_000, 500_000, 100_000) == (2_000, 1_000)


def test_a_side_with_no_value_gets_nothing() -> None:
    assert share_by_value(70_000, 0, 340_000) == (0, 70_000)
    assert share_by_value(70_000, 410_000, 0) == (70_000, 0)


@given(amounts, values, values)
def test_the_shares_always_add_up_to_the_whole(amount: int, captain: int, rival: int) -> None:
    assert sum(share_by_value(amount, captain, rival)) == amount


@given(amounts, values, values)
def test_each_share_is_within_one_unit_of_its_exact_share(
    amount: int, captain: int, rival: int
) -> None:
    if captain + rival == 0:
        return
    shares = share_by_value(amount, captain, rival)
    for share, value in zip(shares, (captain, rival), strict=True):
        exact = Fraction(amount * value, captain + rival)
        assert abs(share - exact) < SHARE_UNIT
        assert share >= 0


@given(st.integers(min_value=0, max_value=5_000), values, values)
def test_whole_units_are_shared_in_whole_units(units: int, captain: int, rival: int) -> None:
    captain_share, rival_share = share_by_value(units * SHARE_UNIT, captain, rival)
    assert captain_share % SHARE_UNIT == 0 and rival_share % SHARE_UNIT == 0


@given(st.integers(min_value=0, max_value=5_000), values, values)
def test_no_side_could_take_a_unit_from_the_other_and_be_closer(
    units: int, captain: int, rival: int
) -> None:
    """Largest remainder: moving one unit either way never brings both shares nearer."""
    if captain + rival == 0:
        return
    amount = units * SHARE_UNIT
    captain_share, _rival_share = share_by_value(amount, captain, rival)
    exact = Fraction(amount * captain, captain + rival)
    error = abs(captain_share - exact)
    for moved in (captain_share - SHARE_UNIT, captain_share + SHARE_UNIT):
        if 0 <= moved <= amount:
            assert error <= abs(moved - exact)
