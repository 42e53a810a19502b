"""Driving a match through the services in tests: set-ups, kicks, every team turn ended at
once, every decision answered with its default by the coach it is addressed to."""

import random

from django.contrib.auth.models import User

from matches import services
from matches.models import Match, TeamMatchRecord
from matches.services import postmatch
from rules.engine.board import NAMES, square
from rules.engine.randomplay import random_setup
from teams.models import Team


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
            if state.carrier == pid:  # the ball stays where the carrier fell
                state.carrier, state.ball_at = None, state.players[pid].at
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


def _team(match: Match, key: str) -> Team:
    return match.home_team if key == "home" else match.away_team


def through_the_pre_match(match: Match) -> None:
    """Nothing into the petty cash, nothing bought, each team when its turn comes."""
    for petty in (True, True, False, False):
        seq = Match.objects.get(pk=match.pk).sequence
        team = _team(match, services.pre_match_team(seq, petty=petty))
        if not petty:
            services.buy_inducements(match.pk, team.captain, {})
            continue
        services.transfer_petty_cash(match.pk, team.captain, side="captain", amount=0)
        services.transfer_petty_cash(match.pk, team.rival or team.captain, side="rival", amount=0)


def name_the_awards(match: Match) -> None:
    """The winners take no reroll; each team's MVP is named by the opposing captain."""
    records = {r.key: r for r in TeamMatchRecord.objects.filter(match=match)}
    for key, record in records.items():
        team = match.home_team if key == "home" else match.away_team
        if record.result == "win":
            services.reroll_winnings(match.pk, team.captain, reroll=False)
    for key in ("home", "away"):
        opposing = match.away_team if key == "home" else match.home_team
        mje, pje = services.mvp_eligible(match, key)[:2]
        services.choose_mvp(match.pk, opposing.captain, team=key, mje=mje, pje=pje)
