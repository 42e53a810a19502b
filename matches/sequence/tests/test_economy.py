"""The pure arithmetic of the league's economy (matches/record/economy.py)."""

from matches.record import economy
from matches.record.economy import DRAW, LOSS, WIN, Mercenary, Order
from rules import gamedata


def test_fame_is_zero_one_or_two_by_the_fans() -> None:
    assert economy.fame(8, 8) == 0
    assert economy.fame(7, 8) == 0
    assert economy.fame(9, 8) == 1
    assert economy.fame(16, 8) == 2


def test_handicap_money_is_the_value_difference_for_the_lower_team_only() -> None:
    assert economy.handicap(1_000_000, 1_250_000) == 250_000
    assert economy.handicap(1_250_000, 1_000_000) == 0
    assert economy.favourite(1_000_000, 1_250_000) == "away"
    assert economy.favourite(1_000_000, 1_000_000) == "home"


def test_winnings_are_d6_plus_fame_plus_one_for_a_win_or_draw_times_ten_thousand() -> None:
    assert economy.winnings(d6=4, fame=1, result=WIN, team_value=1_000_000) == 60_000
    assert economy.winnings(d6=4, fame=1, result=DRAW, team_value=1_000_000) == 60_000
    assert economy.winnings(d6=4, fame=1, result=LOSS, team_value=1_000_000) == 50_000


def test_spiralling_expenses_follow_the_bands_of_the_tables() -> None:
    assert economy.spiralling_expenses(1_740_000) == 0
    assert economy.spiralling_expenses(1_750_000) == 10_000
    assert economy.spiralling_expenses(1_890_000) == 10_000
    assert economy.spiralling_expenses(1_900_000) == 20_000
    assert economy.spiralling_expenses(2_490_000) == 50_000
    assert economy.spiralling_expenses(2_500_000) == 60_000
    # never below nothing
    assert economy.winnings(d6=1, fame=0, result=LOSS, team_value=2_500_000) == 0


def test_the_gate_is_split_by_side_value_with_the_remainder_by_the_largest_fraction() -> None:
    assert economy.split_winnings(70_000, 420_000, 350_000) == (38_000, 32_000)
    assert economy.split_winnings(50_000, 0, 0) == (50_000, 0)


def test_fan_factor_goes_up_after_a_good_win_and_down_after_a_bad_loss() -> None:
    assert economy.fan_factor_dice(WIN) == 3 and economy.fan_factor_dice(LOSS) == 2
    assert economy.fan_factor_change(5, WIN, 7) == 1
    assert economy.fan_factor_change(5, WIN, 4) == 0
    assert economy.fan_factor_change(5, LOSS, 4) == -1
    assert economy.fan_factor_change(5, DRAW, 4) == -1
    assert economy.fan_factor_change(5, DRAW, 6) == 1
    assert economy.fan_factor_change(0, LOSS, 2) == 0


def _problems(race: str, order: Order, budget: int = 1_000_000, players: int = 11) -> list[str]:
    return economy.order_problems(
        race, order, budget=budget, available_players=players, position_counts={}
    )


def test_a_wizard_cannot_be_bought() -> None:
    problems = _problems("human", Order(counts={"wizard": 1}))
    assert problems == ["There is no Wizard in this league (house rule 6)."]


def test_prices_follow_seed_003_goblin_bribes_and_the_halfling_chef() -> None:
    assert economy.order_cost("goblin", Order(counts={"bribes": 2})) == 100_000
    assert economy.order_cost("human", Order(counts={"bribes": 2})) == 200_000
    assert economy.order_cost("halfling", Order(counts={"halfling_master_chef": 1})) == 100_000
    assert economy.order_cost("human", Order(counts={"halfling_master_chef": 1})) == 300_000


def test_limits_and_budget_are_checked() -> None:
    assert _problems("human", Order(counts={"bloodweiser_babes": 3}))
    assert _problems("human", Order(counts={"extra_training": 5}))
    assert _problems("human", Order(counts={"bribes": 4}))
    assert _problems("human", Order(counts={"igor": 1}))  # humans may have an apothecary
    assert _problems("undead", Order(counts={"wandering_apothecary": 1}))
    assert not _problems("undead", Order(counts={"igor": 1}))
    assert _problems("human", Order(counts={"extra_training": 2}), budget=150_000)
    assert not _problems("human", Order(counts={"extra_training": 2}), budget=200_000)


def test_two_star_players_at_most_of_the_team_s_race() -> None:
    human_stars = [s.id for s in gamedata.star_players_for("human")]
    assert not _problems("human", Order(stars=tuple(human_stars[:2])), budget=10**7)
    assert _problems("human", Order(stars=tuple(human_stars[:3])), budget=10**7)
    orc_only = next(
        s.id for s in gamedata.star_players() if "human" not in s.race_ids and s.hireable
    )
    assert _problems("human", Order(stars=(orc_only,)), budget=10**7)


def test_both_teams_inducing_the_same_star_field_neither() -> None:
    assert economy.star_clashes(Order(stars=("a", "b")), Order(stars=("b",))) == {"b"}


def test_mercenaries_cost_30_000_more_and_50_000_for_a_normal_skill() -> None:
    lineman = Order(mercenaries=(Mercenary("human.lineman"),))
    tackler = Order(mercenaries=(Mercenary("human.lineman", "Tackle"),))
    assert economy.order_cost("human", lineman) == 80_000
    assert economy.order_cost("human", tackler) == 130_000
    assert _problems("human", Order(mercenaries=(Mercenary("human.lineman", "Dodge"),)))
    assert _problems("human", lineman, players=16)


def test_the_handicap_is_spent_first_and_petty_cash_returns_by_contribution() -> None:
    assert economy.spend(
        50_000, handicap_money=100_000, captain_cash=60_000, rival_cash=40_000
    ) == (
        60_000,
        40_000,
    )
    assert economy.spend(
        150_000, handicap_money=100_000, captain_cash=60_000, rival_cash=40_000
    ) == (
        30_000,
        20_000,
    )
