"""Driving a match through the services in tests: set-ups, kicks, every team turn ended at
once, every decision answered with its default by the coach it is addressed to."""

import random

from django.contrib.auth.models import User

from matches import services
from matches.models import Match
from rules.engine.board import NAMES, square
from rules.engine.randomplay import _random_setup


class ConstantDice:
    """Every die shows the same face (a smaller die shows its largest face below it)."""

    def __init__(self, face: int) -> None:
        self.value = face

    def face(self, index: int, sides: int) -> int:
        return min(self.value, sides)


def coach(match: Match, actor: str) -> User:
    key, side = actor.split(":")
    team = match.home_team if key == "home" else match.away_team
    user = team.captain if side == "captain" or team.rival is None else team.rival
    assert isinstance(user, User)
    return user


def play_to_the_end(match_id: int, *, limit: int = 3000) -> Match:
    """Each team turn ends at once: a 0-0 draw after full time, overtime, then the shoot-out."""
    rng = random.Random(0)
    for _ in range(limit):
        match = Match.objects.select_related("home_team", "away_team").get(pk=match_id)
        if match.status != Match.Status.IN_PLAY:
            return match
        state = services.load_state(match)
        if state.pending is not None:
            services.answer(match_id, coach(match, state.pending.to), state.pending.default)
            continue
        if state.phase in ("setup", "perfect_defence", "quick_snap"):
            actor, decl = _random_setup(state, rng)
            services.declare(
                match_id,
                coach(match, f"{actor.team}:{actor.side}"),
                decl.to_json(),
                side=actor.side,
            )
            continue
        if state.phase == "kickoff":
            column = 6 if state.kicking == "away" else 19
            decl = {"player": None, "action": "kick", "target": NAMES[square(column, 7)]}
            services.declare(match_id, coach(match, f"{state.kicking}:captain"), decl)
            continue
        team = state.active
        ended = state.teams[team].ended
        side = "captain" if "captain" not in ended else "rival"
        services.declare(
            match_id,
            coach(match, f"{team}:{side}"),
            {"player": None, "action": "end_turn"},
            side=side,
        )
    raise AssertionError("the match did not end")
