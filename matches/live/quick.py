"""A quick roster typed at the field, for a team that is not on bbweb: one player a line,
``NUMBER NAME[, ST n][, AG n][, skill]...`` (``7 Grom, ST 4, AG 2, Block``). Strength and
agility default to 3 (a human lineman); skills are LRB5 names, any case."""

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from rules import gamedata
from rules.live.levels import base_levels

MAX_PLAYERS = 16
_LINE = re.compile(r"^\s*#?(\d{1,2})\s+([^,]+?)\s*(?:,(.*))?$")
_STAT = re.compile(r"^(ST|AG)\s*(\d)$", re.IGNORECASE)


class QuickRosterError(ValueError):
    pass


@dataclass(frozen=True)
class QuickPlayer:
    number: int
    name: str
    st: int = 3
    ag: int = 3
    skills: tuple[str, ...] = ()


@dataclass(frozen=True)
class QuickRoster:
    name: str
    players: tuple[QuickPlayer, ...] = field(default_factory=tuple)


def parse(name: str, text: str) -> QuickRoster:
    """The roster, or QuickRosterError naming the line that is wrong."""
    name = name.strip()
    if not name:
        raise QuickRosterError(_("A quick roster needs a team name."))
    known = {s.name.lower(): s.name for s in gamedata.skills()}
    players: list[QuickPlayer] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        found = _LINE.match(line)
        if not found:
            raise QuickRosterError(_("Line %(n)s: a number, then the name.") % {"n": n})
        number, player_name, rest = int(found[1]), found[2], found[3] or ""
        stats = {"ST": 3, "AG": 3}
        skills = []
        for item in (part.strip() for part in rest.split(",") if part.strip()):
            stat = _STAT.match(item)
            if stat:
                stats[stat[1].upper()] = int(stat[2])
            elif item.lower() in known:
                skills.append(known[item.lower()])
            else:
                raise QuickRosterError(
                    _("Line %(n)s: unknown skill %(skill)s.") % {"n": n, "skill": item}
                )
        if number < 1 or any(p.number == number for p in players):
            raise QuickRosterError(_("Line %(n)s: each player needs his own number.") % {"n": n})
        players.append(QuickPlayer(number, player_name, stats["ST"], stats["AG"], tuple(skills)))
    if not players or len(players) > MAX_PLAYERS:
        raise QuickRosterError(_("A quick roster has 1 to %(max)s players.") % {"max": MAX_PLAYERS})
    return QuickRoster(name, tuple(players))


def players(roster: QuickRoster, side: str, token: Any) -> list[dict[str, Any]]:
    """The live match's players of a quick roster (``token`` makes each phone link)."""
    return [
        {
            "id": f"{side[0]}{p.number}",
            "team": side,
            "number": p.number,
            "name": p.name,
            "position": "",
            "pk": None,
            "skills": list(p.skills),
            "levels": {str(k): v for k, v in base_levels(p.st, p.ag, p.skills).items()},
            "token": token(),
        }
        for p in roster.players
    ]
