"""Star player points from a match's record: the one count that the post-match (each player's
record) and the season's leaders both read. Pure: the events in, plain counts out.

LRB5, "How to earn Star Player points", as this league applies it:

- Completion, 1 SPP: "a player who makes an accurate pass that is caught by the intended
  receiver from his own team when the ball comes to rest". An inaccurate pass, a ball that
  bounces first, a Diving Catch beside the target, a hand-off or a bomb complete nothing.
- Touchdown, 3 SPP: the scorer (a touchdown the GM awards to a team earns nobody anything).
- Interception, 2 SPP: the interceptor.
- Casualty, 2 SPP: an opposing player taken off as a casualty (a Casualty on the injury roll,
  or a Stunty's Badly Hurt) by the injury roll of the player's block: a Block, a Blitz, Frenzy's
  second block, either block of a Multiple Block, a Ball & Chain running into a standing
  player. Not: a foul, the crowd (a push off the pitch), a bomb, a Stab or a Chainsaw (both
  made "instead of a block", and the rulebook denies them SPP in their own entries), a player
  hurt by its own block or its own fall (on Attacker Down or Both Down the defender blocked
  nobody), a Ball & Chain pushing a prone player (no block is made).
- MVP: house rule 4, the opposing captain's MJE (5 SPP) and PJE (4 SPP).

Stars and mercenaries earn nothing but the awards; that is the post-match's business, which
knows who is who.
"""

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from rules import gamedata

AWARDS = ("completions", "touchdowns", "casualties", "interceptions")
MJE, PJE = "mje", "pje"
CASUALTY_RESULTS = frozenset(("casualty", "badly_hurt"))

# What follows a block's result until its target's injury roll: the push, the follow-up, the
# knock-down, the armour and injury rolls (a Piling On re-roll among them) and the decisions
# taken on the way. Any other event ends the block (the player's next step, another action).
_BLOCK_AFTERMATH = frozenset(
    (
        "decision",
        "reroll",
        "push",
        "stand_firm",
        "follow_up",
        "strip_ball",
        "wrestle",
        "knocked_down",
        "placed_prone",
        "armour",
        "piling_on",
        "injury",
        "casualty",
        "decay",
        "apothecary",
        "regeneration",
    )
)
# What ends a pass before the intended receiver catches it.
_PASS_LOST = frozenset(("bounce", "diving_catch", "interception", "scatter", "throw_in"))


@cache
def awards() -> dict[str, int]:
    """SPP per achievement (completion 1, touchdown 3, casualty 2, interception 2) and the
    house rule's two awards (MJE 5, PJE 4), from ``tables.json``."""
    with (gamedata.DATA_DIR / "tables.json").open(encoding="utf-8") as handle:
        table = json.load(handle)["spp"]["awards"]
    return {
        "completions": int(table["completion"]),
        "touchdowns": int(table["touchdown"]),
        "casualties": int(table["casualty"]),
        "interceptions": int(table["interception"]),
        MJE: int(table["mvp"]),
        PJE: int(table["mvp"]) - 1,
    }


def team_of(player_id: str) -> str:
    """Engine ids are h<number> and a<number> (matches.rosters.engine_id)."""
    return "home" if player_id.startswith("h") else "away"


def _names_a_player(target: str) -> bool:
    return target[:1] in ("h", "a") and target[1:].isdigit()


def achievements(events: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, Counter[str]]:
    """Completions, touchdowns, casualties and interceptions per player (engine id), from a
    match's events in order as (type, data), undone events already left out."""
    found: dict[str, Counter[str]] = {}

    def add(player: str, what: str) -> None:
        found.setdefault(player, Counter())[what] += 1

    blocked: tuple[str, str] | None = None  # (blocker, target) until the block is over
    passed: tuple[str, str] | None = None  # (thrower, intended receiver) of a pass in flight
    accurate = False
    for kind, data in events:
        if kind == "block_result":
            blocked = (str(data["player"]), str(data["target"]))
        elif kind not in _BLOCK_AFTERMATH:
            blocked = None
        if kind == "throw":
            passed, accurate = (str(data["player"]), str(data["target"])), False
        elif passed is not None and (kind in _PASS_LOST or kind in ("action", "declaration")):
            passed = None
        elif passed is not None and kind == "pass" and data.get("player") == passed[0]:
            accurate = data.get("result") == "accurate"
        elif passed is not None and kind == "catch" and data.get("result") == "success":
            thrower, target = passed
            catcher = str(data["player"])
            intended = catcher == target or not _names_a_player(target)
            if accurate and intended and team_of(catcher) == team_of(thrower):
                add(thrower, "completions")
            passed = None
        if kind == "touchdown" and data.get("player"):
            add(str(data["player"]), "touchdowns")
        elif kind == "interception":
            add(str(data["player"]), "interceptions")
        elif (
            kind == "injury"
            and blocked is not None
            and data.get("player") == blocked[1]
            and data.get("result") in CASUALTY_RESULTS
            and not data.get("crowd")
            and team_of(blocked[0]) != team_of(blocked[1])
        ):
            add(blocked[0], "casualties")
    return found


def points(counts: Mapping[str, int], award: str = "") -> int:
    """A player's SPP for a match: its achievements and its award (MJE, PJE or none)."""
    table = awards()
    total = sum(table[what] * counts.get(what, 0) for what in AWARDS)
    return total + (table[award] if award else 0)
