"""How players grow and get hurt between matches, without the database (LRB5).

A player rolls 2D6 each time its SPP pass a threshold (6, 16, 31, 51, 76, 176): any roll
offers a skill from its normal categories, doubles open the double categories, 10 adds +MA or
+AV, 11 +AG and 12 +ST. A serious injury from the casualty table changes the record.

>>> rolls_due(4, 9)
1
>>> ImprovementRoll(5, 5).stats
('+MA', '+AV')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from rules import gamedata

# tables.json improvement_roll.stat_cap: no more than 2 above the start, never above 10.
STAT_RISE_MAX = 2
STAT_CAP = 10
# casualty_table.stat_loss_limit: no more than 2 below the start, never below 1.
STAT_LOSS_MAX = 2


@cache
def thresholds() -> tuple[int, ...]:
    with (gamedata.DATA_DIR / "tables.json").open(encoding="utf-8") as handle:
        data = json.load(handle)
    return tuple(int(t) for t in data["spp"]["thresholds"])


def level(spp: int) -> int:
    """How many thresholds the SPP have passed (0 for a rookie)."""
    return sum(1 for t in thresholds() if spp >= t)


def rolls_due(spp_before: int, spp_after: int) -> int:
    return max(0, level(spp_after) - level(spp_before))


@dataclass(frozen=True)
class ImprovementRoll:
    first: int
    second: int

    @property
    def total(self) -> int:
        return self.first + self.second

    @property
    def double(self) -> bool:
        return self.first == self.second

    @property
    def stats(self) -> tuple[str, ...]:
        """The characteristic increases the total offers (10: MA or AV, 11: AG, 12: ST)."""
        return {10: ("+MA", "+AV"), 11: ("+AG",), 12: ("+ST",)}.get(self.total, ())


def _has(pos: gamedata.Position, gained: Sequence[str], name: str) -> bool:
    return name in pos.skills or name in gained


def options(pos: gamedata.Position, gained: Sequence[str], roll: ImprovementRoll) -> list[str]:
    """What the player may take: the stat increases the roll allows (within the caps), then
    the skills it does not have from its normal categories and, on a double, the double ones."""
    found = [stat for stat in roll.stats if can_raise(pos, gained, stat[1:])]
    wanted = ("normal", "double") if roll.double else ("normal",)
    found.extend(
        s.name
        for s in gamedata.skills()
        if pos.access(s.name) in wanted and not _has(pos, gained, s.name)
    )
    return found


def can_raise(pos: gamedata.Position, gained: Sequence[str], stat: str) -> bool:
    rises = sum(1 for g in gained if g == f"+{stat}")
    return rises < STAT_RISE_MAX and pos.stat(stat) + rises + 1 <= STAT_CAP


def normal_skills(pos: gamedata.Position, gained: Sequence[str]) -> list[str]:
    """The default choice's candidates: skills of the normal categories the player lacks."""
    return [
        s.name
        for s in gamedata.skills()
        if pos.access(s.name) == "normal" and not _has(pos, gained, s.name)
    ]


@dataclass(frozen=True)
class InjuryChange:
    """What a casualty result does to the record: the player misses the next match, gains a
    niggling injury, loses a characteristic (within the limit) or dies."""

    miss_next_game: bool = False
    niggling: int = 0
    stat: str = ""
    dead: bool = False


_CASUALTY_EFFECTS: dict[str, InjuryChange] = {
    "badly_hurt": InjuryChange(),
    "miss_next_game": InjuryChange(miss_next_game=True),
    "niggling_injury": InjuryChange(miss_next_game=True, niggling=1),
    "minus_ma": InjuryChange(miss_next_game=True, stat="MA"),
    "minus_av": InjuryChange(miss_next_game=True, stat="AV"),
    "minus_ag": InjuryChange(miss_next_game=True, stat="AG"),
    "minus_st": InjuryChange(miss_next_game=True, stat="ST"),
    "dead": InjuryChange(dead=True),
}


# The casualties' names a reader sees (the match's thread and post-match pages use them too).
CASUALTY_NAMES: dict[str, Promise] = {
    "badly_hurt": _("badly hurt"),
    "miss_next_game": _("misses the next game"),
    "niggling_injury": _("niggling injury"),
    "minus_ma": _("-1 MA"),
    "minus_av": _("-1 AV"),
    "minus_ag": _("-1 AG"),
    "minus_st": _("-1 ST"),
    "dead": _("dead"),
}


def casualty_name(casualty: str) -> str:
    """A casualty code (``badly_hurt``...) in the reader's language; "" for none."""
    return str(CASUALTY_NAMES.get(casualty, casualty.replace("_", " "))) if casualty else ""


def injury_change(casualty: str) -> InjuryChange:
    """The engine's casualty code (badly_hurt, miss_next_game, niggling_injury, minus_ma ...)."""
    return _CASUALTY_EFFECTS.get(casualty, InjuryChange())


def stat_loss_allowed(pos: gamedata.Position, stat: str, gained: Sequence[str], loss: int) -> bool:
    """Whether one more point may be taken off (not more than 2 below the start, nor below 1)."""
    if loss + 1 > STAT_LOSS_MAX:
        return False
    rises = sum(1 for g in gained if g == f"+{stat}")
    return pos.stat(stat) + rises - loss - 1 >= gamedata.STAT_MIN
