"""The bomb and the throwing of small players (seed 002; rules/live/README.md's choices)."""

from __future__ import annotations

import pytest

from rules.live import bomb, throwing
from rules.live.challenge import Decided, Pending, resolve_levels
from rules.live.condition import Card, Condition, Damage, knock_down
from rules.live.levels import Kind, base_levels

STANDING = Condition()
STUNNED = knock_down(Condition())
DOWN = Condition(down=True)


def test_the_blast_counts_strength_only_no_skill_defends() -> None:
    levels = base_levels(4, 4, ["Block", "Dodge", "Stand Firm"])
    assert levels[Kind.BLAST] == 1


def test_the_bomber_lights_standing_in_the_move_phase() -> None:
    bomb.check_light(STANDING, phase="move", carries_ball=False)
    bomb.check_light(Condition(damage=Damage.INJURED), phase="move", carries_ball=False)


@pytest.mark.parametrize(
    ("c", "phase", "ball", "code"),
    [
        (STANDING, "bash", False, "not_move_phase"),
        (STUNNED, "move", False, "cannot_light"),
        (DOWN, "move", False, "cannot_light"),
        (Condition(damage=Damage.SERIOUSLY_INJURED), "move", False, "cannot_light"),
        (Condition(card=Card.YELLOW), "move", False, "out"),
        (STANDING, "move", True, "carries_ball"),
    ],
)
def test_the_bomber_may_not_light(c: Condition, phase: str, ball: bool, code: str) -> None:
    with pytest.raises(bomb.BombRefused) as refused:
        bomb.check_light(c, phase=phase, carries_ball=ball)
    assert refused.value.code == code


def test_the_blast_bashes_a_standing_player_at_plus_one_and_injures_at_plus_two() -> None:
    assert bomb.blast_on(STANDING) == bomb.BlastChallenge("bash", 1, 2)


def test_the_blast_injures_one_on_the_ground_straight_away_at_plus_one() -> None:
    assert bomb.blast_on(DOWN) == bomb.BlastChallenge("injury", 0, 1)
    assert bomb.blast_on(Condition(damage=Damage.SERIOUSLY_INJURED)) == bomb.BlastChallenge(
        "injury", 0, 1
    )
    assert bomb.blast_on(Condition(damage=Damage.CRITICALLY_INJURED)) is None


def test_a_plus_two_injury_test_wins_a_tie_and_redoes_a_loss() -> None:
    # The injury test with a bonus is a challenge with levels: the bomb +2 against 0.
    assert resolve_levels("bomb", 2, "v", 0, [("rock", "rock")]) == Decided("bomb", 1)
    assert resolve_levels("bomb", 2, "v", 0, [("rock", "paper")]) == Pending(1, True)


BIG = ["Throw Team-Mate", "Mighty Blow"]
SMALL = ["Right Stuff", "Dodge", "Stunty"]


def test_a_willing_small_player_is_thrown_at_once() -> None:
    assert not throwing.needs_challenge(
        STANDING, STANDING, willing=True, thrower_skills=BIG, small_skills=SMALL
    )


@pytest.mark.parametrize("small", [STUNNED, DOWN])
def test_an_unwilling_small_player_on_the_ground_or_stunned_needs_a_challenge(
    small: Condition,
) -> None:
    assert throwing.needs_challenge(
        STANDING, small, willing=False, thrower_skills=BIG, small_skills=SMALL
    )


@pytest.mark.parametrize(
    ("thrower", "small", "willing", "big", "tiny", "code"),
    [
        (STANDING, STANDING, False, BIG, SMALL, "unwilling"),
        (STUNNED, STANDING, True, BIG, SMALL, "thrower_cannot"),
        (DOWN, STANDING, True, BIG, SMALL, "thrower_cannot"),
        (STANDING, STANDING, True, ["Block"], SMALL, "not_big"),
        (STANDING, STANDING, True, BIG, ["Dodge"], "not_small"),
        (STANDING, Condition(card=Card.RED), True, BIG, SMALL, "out"),
    ],
)
def test_throws_that_are_refused(
    thrower: Condition,
    small: Condition,
    willing: bool,
    big: list[str],
    tiny: list[str],
    code: str,
) -> None:
    with pytest.raises(throwing.ThrowRefused) as refused:
        throwing.needs_challenge(
            thrower, small, willing=willing, thrower_skills=big, small_skills=tiny
        )
    assert refused.value.code == code


def test_a_no_hands_big_player_still_throws() -> None:
    assert not throwing.needs_challenge(
        STANDING,
        STANDING,
        willing=True,
        thrower_skills=[*BIG, "No Hands"],
        small_skills=SMALL,
    )
