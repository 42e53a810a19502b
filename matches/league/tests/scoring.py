"""A touchdown played through the services: a player of the side whose turn it is
picks the ball up, then its carrier runs for the end zone along free squares, every other
side ending its turn. With every die a 3 (``ConstantDice(3)``) each pick-up, dodge and
going-for-it succeeds, so the same player scores every run."""

import random
from collections import deque

from matches import services
from matches.models import Match
from rules.engine import MatchState
from rules.engine.actions import Declaration
from rules.engine.board import NAMES, NEIGHBOURS, xy
from rules.engine.legal import legal
from tools.demo_matches import coach, play

END_ZONE = {"home": 25, "away": 0}  # the column a team scores in


def run_in_a_touchdown(match: Match, *, limit: int = 400) -> str:
    """Play on until the first touchdown; the scorer's engine id."""
    play(match, random.Random(0), turns=0)  # the set-ups and the kick-off
    for _ in range(limit):
        match.refresh_from_db()
        state = services.load_state(match)
        scored = match.events.filter(type="touchdown").first()
        if scored is not None:
            return str(scored.data["player"])
        if state.pending is not None:
            services.answer(match.pk, coach(match, state.pending.to), state.pending.default)
            continue
        if state.phase != "play":
            play(match, random.Random(0), turns=0)
            continue
        team = state.active
        side = next(s for s in ("rival", "captain") if s not in state.teams[team].ended)
        actor = f"{team}:{side}"
        declaration = _towards_the_ball_or_the_end_zone(state, actor)
        services.declare(match.pk, coach(match, actor), declaration, side=side)
    raise AssertionError("no touchdown")


def _towards_the_ball_or_the_end_zone(state: MatchState, actor: str) -> dict[str, object]:
    team, _sep, side = actor.partition(":")
    mine = [
        p
        for p in state.players.values()
        if p.team == team
        and p.at is not None
        and p.state == "standing"
        and not p.acted
        and (not state.house_rules or p.side == side)
    ]
    ball = state.ball_square()
    for p in mine:
        if state.carrier == p.id:
            goal = {s for s in range(len(NAMES)) if xy(s)[0] == END_ZONE[team]}
        elif state.carrier is None and ball is not None:
            goal = {ball}
        else:
            continue
        assert p.at is not None  # only players on the pitch were taken
        path = _shortest(state, p.at, goal)
        if path:
            d = Declaration(p.id, "move", tuple(NAMES[s] for s in path[: p.ma + 2]))
            if legal(state, actor, d) is None:
                return d.to_json()
    return {"action": "end_turn"}


def _shortest(state: MatchState, start: int, goal: set[int]) -> list[int]:
    """The fewest free squares from ``start`` to the goal (empty when there is no way)."""
    came: dict[int, int] = {start: start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here in goal:
            path = []
            while here != start:
                path.append(here)
                here = came[here]
            return path[::-1]
        for nxt in NEIGHBOURS[here]:
            if nxt not in came and nxt not in state.board:
                came[nxt] = here
                queue.append(nxt)
    return []
