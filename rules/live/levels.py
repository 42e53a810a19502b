"""A 3-LIVE-BB player's level in each kind of challenge, from his LRB5 profile (README.md of
this folder writes the rules down). The referee's adjustments are added on top; injuries and
the group bonus are added at the challenge, never here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum


class Kind(StrEnum):
    BASH = "bash"  # the bash phase, the attacker and a defender who bashes back
    DODGE = "dodge"  # a defender who only dodges (harms nobody even when he wins)
    TACKLE = "tackle"  # tackling a player who strides
    STRIDE = "stride"  # striding past the tacklers
    HOLD_BALL = "hold_ball"  # against the referee, when knocked down or stunned with the ball
    HOLD_WEAPON = "hold_weapon"  # against the referee, when injured with a weapon
    LAND = "land"  # a thrown small player landing, against the referee
    BLAST = "blast"  # caught in a bomb's blast: strength only, no skill defends (seed 002)


KINDS = tuple(Kind)

# Strength and agility are counted from a human lineman's 3: ST 4 is "voima +1".
BASELINE = 3

SKILL_BONUS: dict[Kind, dict[str, int]] = {
    Kind.BASH: {"Block": 1, "Horns": 1},
    Kind.DODGE: {"Dodge": 1, "Side Step": 1, "Stunty": 1},
    Kind.TACKLE: {"Tackle": 1, "Diving Tackle": 1},
    Kind.STRIDE: {"Dodge": 1, "Break Tackle": 1, "Sure Feet": 1},
    Kind.HOLD_BALL: {"Sure Hands": 2},
    Kind.HOLD_WEAPON: {"Sure Hands": 2},
    Kind.LAND: {"Right Stuff": 1},
    Kind.BLAST: {},
}

# The seed: "Tähän haasteeseen saa automaattisesti +1" (holding a weapon when injured).
FLAT_BONUS: dict[Kind, int] = {Kind.HOLD_WEAPON: 1}


def base_levels(st: int, ag: int, skills: Iterable[str]) -> dict[Kind, int]:
    """Strength counts in bashes; agility in dodges, tackles, strides and landings; each skill
    adds what SKILL_BONUS says. The seed's example: an Orc blocker with ST 4 (+1) and Block gets
    +2 in a bash."""
    have = set(skills)
    stat = {
        Kind.BASH: st - BASELINE,
        Kind.DODGE: ag - BASELINE,
        Kind.TACKLE: ag - BASELINE,
        Kind.STRIDE: ag - BASELINE,
        Kind.HOLD_BALL: 0,
        Kind.HOLD_WEAPON: 0,
        Kind.LAND: ag - BASELINE,
        Kind.BLAST: st - BASELINE,
    }
    return {
        kind: stat[kind]
        + FLAT_BONUS.get(kind, 0)
        + sum(bonus for skill, bonus in SKILL_BONUS[kind].items() if skill in have)
        for kind in KINDS
    }


def adjusted(base: Mapping[Kind, int], adjustments: Mapping[str, int]) -> dict[Kind, int]:
    """The referee's changes before the match (by kind name) added to the base levels."""
    unknown = set(adjustments) - {str(kind) for kind in KINDS}
    if unknown:
        raise ValueError(f"unknown kinds of challenge: {sorted(unknown)}")
    return {kind: base[kind] + adjustments.get(str(kind), 0) for kind in KINDS}
