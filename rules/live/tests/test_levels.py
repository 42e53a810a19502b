"""Levels from the LRB5 profile (rules/live/README.md) and the referee's adjustments."""

from __future__ import annotations

import pytest

from rules.live.levels import Kind, adjusted, base_levels


def test_the_seeds_orc_blocker_with_strength_plus_one_and_block_gets_plus_two() -> None:
    assert base_levels(4, 2, ["Block"])[Kind.BASH] == 2


def test_a_human_lineman_is_zero_everywhere_but_holding_a_weapon() -> None:
    levels = base_levels(3, 3, [])
    assert {k: v for k, v in levels.items() if v} == {Kind.HOLD_WEAPON: 1}


def test_the_seeds_dodging_player_gets_plus_one() -> None:
    assert base_levels(3, 3, ["Dodge"])[Kind.DODGE] == 1


def test_sure_hands_gives_plus_two_to_hold_the_ball() -> None:
    assert base_levels(3, 3, ["Sure Hands"])[Kind.HOLD_BALL] == 2


def test_a_goblin_is_weak_in_a_bash_and_slippery_in_a_dodge() -> None:
    levels = base_levels(2, 3, ["Right Stuff", "Dodge", "Stunty"])
    assert (levels[Kind.BASH], levels[Kind.DODGE], levels[Kind.LAND]) == (-1, 2, 1)


def test_the_referee_adjusts_by_kind() -> None:
    levels = adjusted(base_levels(4, 2, ["Block"]), {"bash": -1, "dodge": 2})
    assert (levels[Kind.BASH], levels[Kind.DODGE]) == (1, 1)
    with pytest.raises(ValueError, match="unknown"):
        adjusted(levels, {"flying": 1})
