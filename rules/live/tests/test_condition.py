"""The condition ladder of seed 002: stunned, the injuries, death, cards and the crowd."""

from __future__ import annotations

import pytest

from rules.live.condition import (
    Card,
    Condition,
    Damage,
    IllegalChange,
    beaten_by_the_crowd,
    bribe,
    end_drive,
    end_round,
    fall,
    hurt,
    knock_down,
    show_card,
    stand_up,
    treat,
)


def test_a_fresh_player_is_standing_and_plays() -> None:
    c = Condition()
    assert (c.state, c.out, c.modifier, c.can_stride, c.can_attack) == (
        "standing",
        "",
        0,
        True,
        True,
    )


def test_a_knocked_down_player_is_stunned_for_the_next_round_then_may_stand() -> None:
    c = knock_down(Condition())
    assert (c.state, c.must_dodge, c.can_attack) == ("stunned", True, False)
    c = end_round(c)
    assert c.state == "stunned"
    with pytest.raises(IllegalChange):
        stand_up(c)
    c = end_round(c)
    assert c.state == "down"
    assert stand_up(c).state == "standing"


def test_a_player_who_falls_on_his_own_is_down_not_stunned() -> None:
    assert fall(Condition()).state == "down"


def test_the_injury_ladder_one_level_at_a_time() -> None:
    c = Condition()
    states = []
    for _ in range(4):
        c = hurt(c, 1)
        states.append((c.state, c.out))
    assert states == [
        ("injured", ""),
        ("seriously_injured", ""),
        ("critically_injured", "carried_off"),
        ("critically_injured", "carried_off"),
    ]


def test_an_injured_player_is_minus_one_and_may_not_stride() -> None:
    c = hurt(Condition(), 1)
    assert (c.modifier, c.can_stride, c.can_attack) == (-1, False, True)


def test_a_seriously_injured_player_crawls_and_is_kicked_as_one_lying_down() -> None:
    c = stand_up(hurt(Condition(), 1))
    c = hurt(c, 1)
    assert (c.lying, c.can_attack, c.modifier) == (True, False, -1)
    with pytest.raises(IllegalChange):
        stand_up(c)


def test_three_levels_in_one_attack_kill() -> None:
    assert hurt(Condition(), 3).state == "dead"


def test_two_levels_on_a_critically_injured_player_kill() -> None:
    critical = hurt(Condition(), 1)
    critical = hurt(critical, 2)
    assert critical.state == "critically_injured"
    assert hurt(critical, 2).state == "dead"


def test_two_levels_on_an_injured_player_make_him_critical_not_dead() -> None:
    assert hurt(hurt(Condition(), 1), 2).damage == Damage.CRITICALLY_INJURED


def test_a_yellow_card_lasts_until_the_stoppage_a_red_one_for_the_match() -> None:
    yellow = show_card(Condition(), Card.YELLOW)
    red = show_card(Condition(), Card.RED)
    assert (yellow.out, red.out) == ("yellow", "red")
    assert (end_drive(yellow).out, end_drive(red).out) == ("", "red")


def test_a_bribe_lifts_a_red_card_and_a_yellow_card_does_not_replace_it() -> None:
    red = show_card(Condition(), Card.RED)
    assert show_card(red, Card.YELLOW).card == Card.RED
    assert bribe(red).out == ""


def test_the_crowd_hurts_once_per_referee_win_and_sends_off_for_the_drive() -> None:
    c = beaten_by_the_crowd(Condition(), 2)
    assert (c.state, c.out) == ("seriously_injured", "crowd")
    c = end_drive(c)
    assert (c.state, c.out) == ("seriously_injured", "")


def test_injuries_outlast_the_drive_unless_treated() -> None:
    c = end_drive(knock_down(hurt(Condition(), 1)))
    assert (c.state, c.down) == ("injured", False)
    assert treat(c).state == "standing"
    with pytest.raises(IllegalChange):
        treat(hurt(Condition(), 3))
