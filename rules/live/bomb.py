"""The bomb of 3-LIVE-BB (seed 002, "Aseiden vaikutukset"): who may light and throw it, and the
challenges its blast causes. README.md of this folder writes down the choices where the seed is
silent. The referee stands where the bomb lies at the end of the bash phase; every player he
reaches is in the blast."""

from __future__ import annotations

from dataclasses import dataclass

from rules.live.condition import Condition, Damage

# "heitä mätetään +1 bonuksella": the blast bashes at +1 against the victim's strength only.
BLAST_LEVEL = 1
# "loukkaantumistestiin +2": the injury tests of a player the blast knocked over.
BLAST_INJURY_BONUS = 2
# "Valmiiksi kumossa olevia vastaan suoraan vauriotesti +1:llä": a player already on the ground.
LYING_INJURY_BONUS = 1


class BombRefused(ValueError):
    """The bomber may not light or throw the bomb now; ``code`` names why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def check_light(c: Condition, *, phase: str, carries_ball: bool) -> None:
    """The bomber lights the bomb standing still for the whole movement phase: he is not
    stunned, not on the ground, not off the field, can still use a weapon (not seriously
    injured) and does not carry the ball (no secret weapon with the ball). Not standing next
    to anyone already is the referee's eye, not the companion's."""
    if phase != "move":
        raise BombRefused("not_move_phase")
    if c.out:
        raise BombRefused("out")
    if c.stunned or c.lying:
        raise BombRefused("cannot_light")
    if c.damage >= Damage.SERIOUSLY_INJURED:
        raise BombRefused("cannot_use_weapon")
    if carries_ball:
        raise BombRefused("carries_ball")


@dataclass(frozen=True)
class BlastChallenge:
    """What the blast does to one player: ``bash`` (the blast at ``blast_level`` against the
    player's strength; a loser falls, stunned, and his injury tests get ``injury_bonus``) or
    ``injury`` (already on the ground: the injury tests straight away, with ``injury_bonus``)."""

    kind: str
    blast_level: int
    injury_bonus: int


def blast_on(c: Condition) -> BlastChallenge | None:
    """The challenge the blast makes against a player in its reach (None: off the field)."""
    if c.out:
        return None
    if c.lying:
        return BlastChallenge("injury", 0, LYING_INJURY_BONUS)
    return BlastChallenge("bash", BLAST_LEVEL, BLAST_INJURY_BONUS)
