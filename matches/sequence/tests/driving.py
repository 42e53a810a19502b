"""Driving a match through the services in tests: set-ups, kicks, every team turn ended at
once, every decision answered with its default by the coach it is addressed to."""

import random

from django.contrib.auth.models import User

from matches import services
from matches.models import Match
from matches.services import postmatch
from rules.engine.board import NAMES, square
from rules.engine.randomplay import random_setup


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
            actor, decl = random_setup(state, rng)
            services.declare(
                match_id,
                coach(match, f"{actor.team}:{actor.side}"),
                decl.to_json(),
                side=actor.side,
            )
            continue
        if state.phase == "kickoff":
            column = 6 if state.kicking == "away" else 19
            kick = {"player": None, "action": "kick", "target": NAMES[square(column, 7)]}
            services.declare(match_id, coach(match, f"{state.kicking}:captain"), kick)
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


def finish_now(
    match: Match, *, winner: str | None = "home", casualties: dict[str, str] | None = None
) -> Match:
    """A shortcut to the final whistle for the post-match tests: the match's state is made
    finished (with the given casualties) and the post-match sequence begins as it does when
    the engine's last declaration ends the match."""
    from django.db import transaction

    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("home_team", "away_team", "league")
            .get(pk=match.pk)
        )
        state = services.load_state(match)
        for pid, casualty in (casualties or {}).items():
            state.players[pid].casualty = casualty
            state.players[pid].at = None
            state.players[pid].state = "casualty"
        state.phase = "finished"
        state.pending = None
        for team in state.teams.values():
            team.fame = 0  # before start_match the engine keeps the fan factor here
        if winner is not None:
            state.score = {winner: 1, "away" if winner == "home" else "home": 0}
        state.result = {"winner": winner, "score": dict(state.score), "by": "full_time"}
        match.decisions.filter(answered_at__isnull=True).delete()
        match.status = Match.Status.POST_MATCH
        postmatch.begin_post_match(match, state)
        match.state = state.to_json(compact=True)
        match.save()
    return match
