"""A team's value itemised: what the post-match sequence records beside each team value (the
players on the roster with their positions and gains, the re-rolls and the staff), so that the
value can be recomputed from the rules by anyone holding the export (matches.verification.figures).

The itemisation is plain JSON; ``value`` and ``side_value`` are the rules' arithmetic over it,
the same as ``Team.value`` and ``Team.side_value`` over the roster.
"""

from collections.abc import Mapping
from typing import Any

from rules import gamedata
from teams import rosters
from teams.models import Team

Doc = Mapping[str, Any]


def itemised(team: Team) -> dict[str, Any]:
    """The team as its value counts it (``team`` with its players prefetched)."""
    return {
        "race": team.race,
        "players": [
            {
                "player": p.pk,
                "number": p.number,
                "side": p.side,
                "position": p.position,
                "gained": p.gained,
                "missing": p.miss_next_game,
            }
            for p in team.roster()
        ],
        "rerolls": team.rerolls,
        "fan_factor": team.fan_factor,
        "assistant_coaches": team.assistant_coaches,
        "cheerleaders": team.cheerleaders,
        "apothecary": team.apothecary,
    }


def player_value(player: Doc) -> int:
    return rosters.player_value(gamedata.position(player["position"]), player["gained"])


def side_value(items: Doc, side: str) -> int:
    """The value of the side's players available for the next match (house rule 3)."""
    return sum(player_value(p) for p in items["players"] if p["side"] == side and not p["missing"])


def value(items: Doc) -> int:
    """LRB5 team value: available players, re-rolls at their roster price, staff, FF."""
    available = sum(player_value(p) for p in items["players"] if not p["missing"])
    rerolls = items["rerolls"] * gamedata.race(items["race"]).reroll_cost
    staff = rosters.staff_cost(
        fan_factor=items["fan_factor"],
        assistant_coaches=items["assistant_coaches"],
        cheerleaders=items["cheerleaders"],
        apothecary=items["apothecary"],
    )
    return int(available + rerolls + staff)
