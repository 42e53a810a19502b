"""Known positions for the page's tests: the demo teams' players put on chosen squares in
the middle of the home team's first turn, and dice known in advance."""

from typing import Any

import pytest

from matches import services
from matches.models import Decision, Match
from matches.tests.dice import use_dice
from rules.engine import MatchState, ScriptedDice

# h7 (Max, the rival's blitzer) stands in the tackle zone of a10: moving to J8 is a dodge.
# h1 (Karl, captain's side) blocks a5 with h2's assist: two dice, Karl chooses.
# h10 (Ulrich, rival's lineman) stands next to a10 too: a failed dodge there is a turnover.
SQUARES = {
    "h7": "K8",
    "h10": "M9",
    "h1": "F5",
    "h2": "G4",
    "a5": "G5",
    "a10": "L8",
    "a1": "T8",
}
# the dodge of h7 fails (1) and, rerolled with the team reroll, succeeds (5); Karl's block
# shows Pushed (2) and Defender down (6); the armour holds (1+1); h10's dodge fails (1) and its
# armour holds (1+1).
DICE = [1, 5, 2, 6, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3]


def mid_turn(match: Match, squares: dict[str, str] | None = None) -> MatchState:
    """Put the match in the home team's first turn with the players on ``squares``."""
    data: dict[str, Any] = services.load_state(match).to_json()
    for pid, player in data["players"].items():
        sq = (squares or SQUARES).get(pid)
        player["at"], player["state"] = (sq, "standing") if sq else (None, "reserves")
    data.update(
        phase="play",
        active="home",
        kicking="away",
        turn={"home": 1, "away": 0},
        pending=None,
        dice_used=0,
        ball={"at": "T9", "carrier": None},
    )
    state = MatchState.from_json(data)
    match.state = state.to_json(compact=True)
    match.version += 1
    match.save()
    Decision.objects.filter(match=match).delete()
    return state


def script_dice(monkeypatch: pytest.MonkeyPatch, faces: list[int] | None = None) -> None:
    use_dice(monkeypatch, lambda match: ScriptedDice(faces or DICE))
