"""Throwing a small player (seed 002, "Pikkuruisten heittäminen"): who throws whom, when the
small one's will counts, and where he lands. README.md of this folder writes down the choices
where the seed is silent (who is big and small: LRB5's Throw Team-Mate and Right Stuff)."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from rules.live.condition import Condition

BIG_SKILL = "Throw Team-Mate"
SMALL_SKILL = "Right Stuff"


class Landing(StrEnum):
    FIELD = "field"  # an empty spot: the landing challenge against the referee (agility)
    PLAYER = "player"  # on a player: both fall and both take the injury tests, no modifiers
    OUT = "out"  # out of the field: the crowd beats him (as one who ran off the field)


class ThrowRefused(ValueError):
    """This throw is not allowed; ``code`` names why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def is_big(skills: Iterable[str]) -> bool:
    return BIG_SKILL in set(skills)


def is_small(skills: Iterable[str]) -> bool:
    return SMALL_SKILL in set(skills)


def needs_challenge(
    thrower: Condition,
    small: Condition,
    *,
    willing: bool,
    thrower_skills: Iterable[str],
    small_skills: Iterable[str],
) -> bool:
    """Whether the throw needs the big player to win a challenge first (False: he throws at
    once). Raises ThrowRefused when the throw is not allowed at all.

    The big player, instead of bashing, throws a small team-mate he reaches; he may not be
    stunned, on the ground or off the field (a No Hands player may throw). A willing small
    player is thrown at once; an unwilling one only when stunned or on the ground, and only
    if the big player wins a challenge; an unwilling small player on his feet is not thrown."""
    if not is_big(thrower_skills):
        raise ThrowRefused("not_big")
    if not is_small(small_skills):
        raise ThrowRefused("not_small")
    if thrower.out or thrower.stunned or thrower.lying:
        raise ThrowRefused("thrower_cannot")
    if small.out:
        raise ThrowRefused("out")
    if willing:
        return False
    if small.stunned or small.lying:
        return True
    raise ThrowRefused("unwilling")
