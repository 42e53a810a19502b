"""A match whose record starts from a chosen position: the replay tests step through plays
made from it (the positions of ``positions.py`` change only the stored state, not the record
a replay is rebuilt from)."""

from typing import Any

from django.contrib.auth.models import User

from matches import services
from matches.models import Decision, Match, MatchEvent
from matches.services.core import GENESIS_HASH
from rules.engine import MatchState

# h7 (Max, the rival's) walks K8-J8 with nobody near; h1 (Karl, the captain's) carries the
# ball from X8 into the Raiders' end zone, two squares away: no dice are rolled.
SQUARES = {"h7": "K8", "h1": "X8", "h2": "F5", "a1": "P3", "a5": "G12"}


def recorded_position(match: Match, squares: dict[str, str] | None = None) -> MatchState:
    """The home team's first turn with the players on ``squares`` and h1 holding the ball,
    as the first event of the match's record (the events before it are dropped)."""
    squares = squares or SQUARES
    data: dict[str, Any] = services.load_state(match).to_json()
    for pid, player in data["players"].items():
        sq = squares.get(pid)
        player["at"], player["state"] = (sq, "standing") if sq else (None, "reserves")
    data.update(
        phase="play",
        active="home",
        kicking="away",
        turn={"home": 1, "away": 0},
        pending=None,
        dice_used=0,
        ball={"at": squares["h1"], "carrier": "h1"},
    )
    state = MatchState.from_json(data)
    compact = state.to_json(compact=True)
    match.events.all().delete()
    Decision.objects.filter(match=match).delete()
    created = {"state": compact}
    MatchEvent.objects.create(
        match=match,
        number=1,
        type="match_created",
        data=created,
        post=match.posts.order_by("number").first(),
        prev_hash=GENESIS_HASH,
        hash=MatchEvent.chain_hash(GENESIS_HASH, 1, "match_created", created),
    )
    match.state = compact
    match.version += 1
    match.save()
    return state


def walk_and_score(match: Match, cast: dict[str, User]) -> None:
    """bob walks h7 to J8, then alice carries the ball into the end zone with h1."""
    services.declare(match.pk, cast["bob"], {"action": "move", "player": "h7", "path": ["J8"]})
    services.declare(
        match.pk, cast["alice"], {"action": "move", "player": "h1", "path": ["Y8", "Z8"]}
    )
