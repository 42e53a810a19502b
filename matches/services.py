"""The only write path of matches: every change of a match goes through a function here.

Each function takes the match row FOR UPDATE, asks the rules engine, appends the events and
the thread's posts, saves the new state with a bumped version, and schedules side effects with
``transaction.on_commit``. A request carrying an idempotency key the same user already used
is answered with what it did the first time and changes nothing.
"""

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from celery import Task
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.db.models import Max, Q, Sum
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from matches import tasks
from matches.markup import render_markdown
from matches.models import (
    CoachPreferences,
    Decision,
    Match,
    MatchEvent,
    Post,
    StandingOrders,
    Vacation,
)
from matches.rosters import lineup, team_sheet
from rules.engine import (
    Answer,
    Declaration,
    FairDice,
    IllegalAction,
    InvalidAnswer,
    MatchState,
    Pending,
    Resolution,
    check_answer,
    commitment,
    legal,
    new_match,
    resolve,
    ruleset_for,
)
from teams.models import League, Team

log = logging.getLogger(__name__)

GENESIS_HASH = "0" * 64
SYSTEM_ACTOR = "home:captain"  # start_match may be posted by any coach; the server does it
DEFAULT_DECISION_HOURS = 12
DEFAULT_TURN_HOURS = 48
DEFAULT_CLAIM_WINDOW_HOURS = 6
# A contested Blitz claim is rolled by a task at once; if that task is lost, the sweep rolls
# it after this grace.
CONTEST_GRACE = timedelta(minutes=1)
WARNINGS = ((2, timedelta(hours=2)), (1, timedelta(hours=24)))  # (stage, how long before)
AnyUser = AbstractBaseUser | AnonymousUser


class MatchError(Exception):
    """A refused request: nothing was changed. ``code`` is stable, ``message`` readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Outcome:
    post: Post
    decision: Decision | None
    replayed: bool = False


def _now() -> datetime:
    """The services' clock (tests move it forward to travel in time)."""
    return timezone.now()


# -- reading -----------------------------------------------------------------------------------


def actors_for(match: Match, user: AnyUser) -> list[str]:
    """The TEAM:SIDE strings this user coaches in the match (none for a spectator)."""
    actors: list[str] = []
    for key, team in (("home", match.home_team), ("away", match.away_team)):
        for side in ("captain", "rival"):
            if team.controls(user, side):
                actors.append(f"{key}:{side}")
    return actors


def is_match_gm(match: Match, user: AnyUser) -> bool:
    return user.is_authenticated and user.pk == match.gm_id


def load_state(match: Match) -> MatchState:
    return MatchState.from_json(match.state)


def dice_for(match: Match) -> FairDice:
    return FairDice(bytes.fromhex(match.dice_seed), str(match.pk))


# -- creating a match ----------------------------------------------------------------------------


@transaction.atomic
def create_match(
    *, home: Team, away: Team, gm: User, league: League | None = None, house_rules: bool = True
) -> Match:
    if home.pk == away.pk:
        raise MatchError("same_team", "A team cannot play itself.")
    seed = secrets.token_bytes(32)
    state = new_match(team_sheet(home, "home"), team_sheet(away, "away"), house_rules=house_rules)
    match = Match.objects.create(
        home_team=home,
        away_team=away,
        gm=gm,
        league=league,
        status=Match.Status.IN_PLAY,
        state=state.to_json(compact=True),
        lineup={**lineup(home, "home"), **lineup(away, "away")},
        dice_seed=seed.hex(),
        dice_commitment=commitment(seed),
    )
    post = _new_post(
        match,
        state,
        kind=Post.Kind.SYSTEM,
        summary={"message": "created", "commitment": match.dice_commitment},
    )
    _append_event(match, state, "match_created", {"state": state.to_json(compact=True)}, post)
    opening = resolve(state, SYSTEM_ACTOR, Declaration(None, "start_match"), (), dice_for(match))
    _settle(match, state, SYSTEM_ACTOR, Declaration(None, "start_match"), (), opening, post)
    return match


# -- declaring and deciding ----------------------------------------------------------------------


def declare(
    match_id: int,
    user: AnyUser,
    declaration: dict[str, Any],
    *,
    side: str | None = None,
    text: str = "",
    idempotency_key: str = "",
) -> Outcome:
    """A coach declares one action (the whole of it, as forum players write it)."""
    with transaction.atomic():
        match = _locked(match_id)
        replay = _already_done(match, user, idempotency_key)
        if replay is not None:
            return replay
        _require_in_play(match)
        try:
            decl = Declaration.from_json(declaration)
        except ValueError as error:
            raise MatchError("malformed", str(error)) from None
        state = load_state(match)
        actor = _actor_for(match, state, user, decl, side)
        _refuse_if_illegal(legal(state, actor, decl))
        resolution = resolve(state, actor, decl, (), dice_for(match))
        post = _new_post(
            match,
            state,
            kind=Post.Kind.DECLARATION,
            author=user,
            actor=actor,
            declaration=decl.to_json(),
            text=text,
            idempotency_key=idempotency_key,
        )
        decision = _settle(match, state, actor, decl, (), resolution, post)
        return Outcome(post, decision)


def answer(
    match_id: int, user: AnyUser, choice: str | int | bool, *, idempotency_key: str = ""
) -> Outcome:
    """The coach the pending decision is addressed to answers it."""
    with transaction.atomic():
        match = _locked(match_id)
        replay = _already_done(match, user, idempotency_key)
        if replay is not None:
            return replay
        _require_in_play(match)
        state = load_state(match)
        pending = state.pending
        if pending is None:
            raise MatchError("no_decision_pending", "No decision is awaited.")
        if pending.to not in actors_for(match, user):
            code = "not_captain" if pending.to.endswith(":captain") else "not_your_player"
            raise MatchError(code, "This decision is not yours to take.")
        if pending.kind == "blitz_claim" and choice == "contest":
            return _contest_blitz(match, state, user, idempotency_key)
        return _apply_answer(match, state, pending, choice, user, idempotency_key)


def apply_default(match_id: int, decision_id: int) -> Outcome | None:
    """The decision's deadline passed: the server answers with its default (once)."""
    with transaction.atomic():
        match = _locked(match_id)
        decision = Decision.objects.filter(
            pk=decision_id, match=match, answered_at__isnull=True
        ).first()
        if decision is None:
            return None
        return _default_decision(match, decision)


def write_post(
    match_id: int, user: AnyUser, *, kind: str, text: str, idempotency_key: str = ""
) -> Post:
    """In-character or out-of-character text in the thread, by a coach or the match's GM."""
    if kind not in (Post.Kind.IN_CHARACTER, Post.Kind.OUT_OF_CHARACTER):
        raise MatchError("malformed", "A post is in character or out of character.")
    if not text.strip():
        raise MatchError("empty", "The post is empty.")
    with transaction.atomic():
        match = _locked(match_id)
        replay = _already_done(match, user, idempotency_key)
        if replay is not None:
            return replay.post
        if not actors_for(match, user) and not is_match_gm(match, user):
            raise MatchError("not_in_match", "Only the match's coaches and GM write here.")
        actors = actors_for(match, user)
        post = _new_post(
            match,
            load_state(match),
            kind=kind,
            author=user,
            actor=actors[0] if actors else "",
            text=text,
            idempotency_key=idempotency_key,
        )
        _touch(match)
        return post


# -- folding the record ----------------------------------------------------------------------------


def fold(match: Match) -> MatchState:
    """The state rebuilt from the events alone: the first state, then every declaration
    resolved again with its answers from the same dice stream."""
    dice = dice_for(match)
    state: MatchState | None = None
    for event in match.events.order_by("number"):
        if event.type == "match_created":
            state = MatchState.from_json(event.data["state"])
        elif event.type == "declaration" and state is not None:
            resolution = resolve(
                state,
                event.data["actor"],
                Declaration.from_json(event.data["declaration"]),
                tuple(Answer.from_json(a) for a in event.data["answers"]),
                dice,
            )
            state = resolution.state
    if state is None:
        raise MatchError("no_record", "The match has no record to fold.")
    return state


def chain_is_intact(match: Match) -> bool:
    prev = GENESIS_HASH
    for event in match.events.order_by("number"):
        expected = MatchEvent.chain_hash(prev, event.number, event.type, event.data)
        if event.prev_hash != prev or event.hash != expected:
            return False
        prev = event.hash
    return True


# -- internals -------------------------------------------------------------------------------------


def _locked(match_id: int) -> Match:
    # of=("self",): lock the match only, not its teams and league (shared by other matches).
    try:
        return (
            Match.objects.select_for_update(of=("self",))
            .select_related("home_team", "away_team", "league")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise MatchError("no_match", "There is no such match.") from None


def _locked_unless_busy(match_id: int) -> Match | None:
    """The match row FOR UPDATE SKIP LOCKED: None when another transaction holds it (a coach
    posting, another sweep); the next sweep tries again."""
    return (
        Match.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("home_team", "away_team", "league")
        .filter(pk=match_id)
        .first()
    )


def _already_done(match: Match, user: AnyUser, key: str) -> Outcome | None:
    if not key or not user.is_authenticated:
        return None
    post = Post.objects.filter(match=match, author_id=user.pk, idempotency_key=key).first()
    if post is None:
        return None
    return Outcome(post, match.decisions.filter(answered_at__isnull=True).first(), True)


def _require_in_play(match: Match) -> None:
    if match.status != Match.Status.IN_PLAY:
        raise MatchError("not_in_play", "The match is not in play.")


def _refuse_if_illegal(problem: IllegalAction | None) -> None:
    if problem is not None:
        raise MatchError(problem.code, problem.message)


def _actor_for(
    match: Match, state: MatchState, user: AnyUser, decl: Declaration, side: str | None
) -> str:
    """Which of the user's coaching roles posts this declaration."""
    mine = actors_for(match, user)
    if not mine:
        raise MatchError("not_your_player", "You coach neither team of this match.")
    if decl.player is not None:
        player = state.players.get(decl.player)
        if player is None:
            raise MatchError("not_your_player", f"There is no player {decl.player}.")
        wanted = f"{player.team}:{player.side if state.house_rules else 'captain'}"
        if wanted in mine:
            return wanted
        same_team = [a for a in mine if a.startswith(player.team + ":")]
        if not state.house_rules and same_team:
            return same_team[0]
        return same_team[0] if same_team else mine[0]
    if side is not None:
        chosen = [a for a in mine if a.endswith(":" + side)]
        active = [a for a in chosen if a.startswith(state.active + ":")]
        if active or chosen:
            return (active or chosen)[0]
    active = [a for a in mine if a.startswith(state.active + ":")]
    return (active or mine)[0]


def _apply_answer(
    match: Match,
    state: MatchState,
    pending: Pending,
    choice: Any,
    user: AnyUser | None,
    idempotency_key: str,
    *,
    how: str = Decision.AnsweredBy.COACH,
    post: Post | None = None,
) -> Outcome:
    given = Answer(pending.kind, choice)
    problem = check_answer(state, pending, pending.to, given)
    _refuse_if_illegal(problem)
    decl = Declaration.from_json(pending.declaration or {})
    answers = (*(Answer.from_json(a) for a in pending.answers), given)
    try:
        resolution = resolve(state, pending.actor, decl, answers, dice_for(match))
    except InvalidAnswer as error:
        raise MatchError(error.args[0].code, error.args[0].message) from None
    Decision.objects.filter(match=match, answered_at__isnull=True).update(
        answered_at=_now(),
        answer=choice,
        answered_by=user if user is not None and user.is_authenticated else None,
        answered_how=how,
    )
    if post is None:
        post = _new_post(
            match,
            state,
            kind=Post.Kind.DECISION,
            author=user if user is not None and user.is_authenticated else None,
            actor=pending.to,
            declaration={"kind": pending.kind, "choice": choice, "default": user is None},
            idempotency_key=idempotency_key,
        )
    decision = _settle(match, state, pending.actor, decl, answers, resolution, post)
    return Outcome(post, decision)


def _settle(
    match: Match,
    before: MatchState,
    actor: str,
    decl: Declaration,
    answers: tuple[Answer, ...],
    resolution: Resolution,
    post: Post,
) -> Decision | None:
    """Store what a resolution did: the whole declaration once it needs no more answers,
    or the question it stopped at (the state stays as it was, with the question pending).
    A question a standing order answers is answered at once, and the resolution goes on."""
    decision = None
    while resolution.pending is not None:
        ordered = _standing_answer(match, resolution)
        if ordered is None:
            break
        _record_standing_answer(match, before, resolution.pending, ordered)
        answers = (*answers, Answer(resolution.pending.kind, ordered))
        resolution = resolve(before, actor, decl, answers, dice_for(match))
    if resolution.pending is not None:
        decision = _open_decision(match, resolution)
    else:
        _append_event(
            match,
            before,
            "declaration",
            {
                "actor": actor,
                "declaration": decl.to_json(),
                "answers": [a.to_json() for a in answers],
                "dice_from": before.dice_used,
                "dice_to": resolution.state.dice_used,
            },
            post,
        )
        for event in resolution.events:
            _append_event(match, before, event.type, event.data, post)
        _after_resolution(match, before, resolution.state)
    _run_turn_clock(match, paused=decision is not None)
    match.state = resolution.state.to_json(compact=True)
    _touch(match)
    return decision


def _open_decision(match: Match, resolution: Resolution) -> Decision:
    pending = resolution.pending
    assert pending is not None
    league = match.league
    if pending.kind == "blitz_claim":
        hours = league.blitz_claim_window_hours if league else DEFAULT_CLAIM_WINDOW_HOURS
    else:
        hours = league.decision_deadline_hours if league else DEFAULT_DECISION_HOURS
    now = _now()
    deadline = _deadline(match, [pending.to], now, timedelta(hours=hours))
    decision = Decision.objects.create(
        match=match,
        kind=pending.kind,
        to=pending.to,
        options=list(pending.options),
        default=pending.default,
        preview=[event.to_json() for event in resolution.events],
        deadline_at=deadline,
        warnings_sent=_warnings_already_due(deadline - now),
    )
    _enqueue_on_commit(tasks.notify_decision, decision.pk)
    return decision


def _after_resolution(match: Match, before: MatchState, after: MatchState) -> None:
    if after.phase == "finished":
        match.status = Match.Status.POST_MATCH
        match.turn_deadline_at = None
        match.turn_time_left = None
        return
    new_turn = (after.active, after.turn[after.active]) != (
        before.active,
        before.turn[before.active],
    )
    if new_turn or after.phase != before.phase:
        _start_turn_clock(match, after)
    if new_turn:
        _enqueue_on_commit(tasks.notify_turn, match.pk)


def _touch(match: Match) -> None:
    match.version += 1
    match.save()


def _new_post(
    match: Match,
    state: MatchState,
    *,
    kind: str,
    author: AnyUser | None = None,
    actor: str = "",
    declaration: dict[str, Any] | None = None,
    text: str = "",
    summary: dict[str, Any] | None = None,
    idempotency_key: str = "",
) -> Post:
    number = (match.posts.aggregate(n=Max("number"))["n"] or 0) + 1
    return Post.objects.create(
        match=match,
        number=number,
        kind=kind,
        author_id=author.pk if author is not None and author.is_authenticated else None,
        actor=actor,
        half=state.half,
        turn=state.turn.get(state.active, 0),
        team=state.active,
        declaration=declaration,
        text=text,
        html=render_markdown(text) if text else "",
        summary=summary or {},
        idempotency_key=idempotency_key if author is not None else "",
    )


def _append_event(
    match: Match, state: MatchState, type: str, data: dict[str, Any], post: Post | None
) -> MatchEvent:
    # The match row is locked for the whole transaction: its last event, once read, is kept.
    last = getattr(match, "_last_event", None) or (
        match.events.order_by("-number").values_list("number", "hash").first()
    )
    number, prev_hash = (last[0] + 1, last[1]) if last else (1, GENESIS_HASH)
    event = MatchEvent.objects.create(
        match=match,
        number=number,
        type=type,
        data=data,
        half=state.half,
        turn=state.turn.get(state.active, 0),
        post=post,
        prev_hash=prev_hash,
        hash=MatchEvent.chain_hash(prev_hash, number, type, data),
    )
    match._last_event = (number, event.hash)  # type: ignore[attr-defined]
    return event


# -- deadlines ------------------------------------------------------------------------------------
#
# Every deadline is a column: ``Match.turn_deadline_at`` (the active team's clock) and
# ``Decision.deadline_at`` (an open question). The beat sweep finds the expired ones through
# their indexes and applies each in its own transaction, holding the match row FOR UPDATE SKIP
# LOCKED: a match another transaction holds is left to the next sweep, and the deadline is
# checked again under the lock, so two sweeps at once never apply one deadline twice.


@dataclass(frozen=True)
class SweepReport:
    decisions: int = 0
    turns: int = 0
    warnings: int = 0

    @property
    def applied(self) -> int:
        return self.decisions + self.turns


def sweep(now: datetime | None = None, limit: int = 1000) -> SweepReport:
    """What the beat runs every 30 seconds: expired deadlines, then the 24 h and 2 h warnings."""
    now = now or _now()
    decisions = expire_decisions(now, limit)
    turns = expire_turns(now, limit)
    return SweepReport(decisions, turns, send_deadline_warnings(now, limit))


def expire_deadlines(now: datetime | None = None, limit: int = 1000) -> int:
    """Apply every deadline that has passed, each exactly once; returns how many were applied."""
    now = now or _now()
    return expire_decisions(now, limit) + expire_turns(now, limit)


def expire_decisions(now: datetime, limit: int = 1000) -> int:
    due = (
        Decision.objects.filter(answered_at__isnull=True, deadline_at__lte=now)
        .order_by("deadline_at")
        .values_list("pk", "match_id")[:limit]
    )
    return sum(_expire_decision(match_id, decision_id, now) for decision_id, match_id in due)


def expire_turns(now: datetime, limit: int = 1000) -> int:
    due = (
        Match.objects.filter(turn_deadline_at__lte=now, status=Match.Status.IN_PLAY)
        .order_by("turn_deadline_at")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(_expire_turn(match_id, now) for match_id in due)


def _expire_decision(match_id: int, decision_id: int, now: datetime) -> int:
    with transaction.atomic():
        match = _locked_unless_busy(match_id)
        if match is None or match.status != Match.Status.IN_PLAY:
            return 0
        decision = (
            Decision.objects.select_for_update()
            .filter(pk=decision_id, match=match, answered_at__isnull=True, deadline_at__lte=now)
            .first()
        )
        if decision is None:
            return 0
        _default_decision(match, decision)
        return 1


def _default_decision(match: Match, decision: Decision) -> Outcome | None:
    """Answer an open decision as its deadline says (the match is locked)."""
    state = load_state(match)
    pending = state.pending
    if pending is None or pending.kind != decision.kind:
        # A row the state no longer waits for: close it so the sweep stops finding it.
        Decision.objects.filter(pk=decision.pk).update(
            answered_at=_now(), answered_how=Decision.AnsweredBy.DEFAULT
        )
        return None
    if pending.kind == "blitz_claim":
        if decision.contested_at is None:
            return _contest_blitz(match, state, None, "")
        return _adjudicate(match, state, decision)
    choice = _default_choice(match, pending)
    post = _new_post(
        match,
        state,
        kind=Post.Kind.SYSTEM,
        actor=pending.to,
        declaration={"kind": pending.kind, "choice": choice, "default": True},
        summary={
            "message": "deadline_passed",
            "deadline": "decision",
            "kind": pending.kind,
            "to": pending.to,
            "choice": choice,
        },
    )
    outcome = _apply_answer(
        match, state, pending, choice, None, "", how=Decision.AnsweredBy.DEFAULT, post=post
    )
    _notify_on_commit("applied", match, [pending.to], f"decision:{decision.pk}", what=pending.kind)
    return outcome


def _default_choice(match: Match, pending: Pending) -> Any:
    """The engine's default (no reroll, the chooser's best block die, the first push square,
    no follow-up, no interception, no apothecary), but a rival's reroll request follows the
    league's setting: approved unless the league says otherwise (house rule 5)."""
    if pending.kind == "reroll_approval" and match.league is not None:
        refuse = match.league.reroll_approval_default == League.RerollApproval.REFUSE
        return "deny" if refuse else "approve"
    return pending.default


def _expire_turn(match_id: int, now: datetime) -> int:
    with transaction.atomic():
        match = _locked_unless_busy(match_id)
        if (
            match is None
            or match.status != Match.Status.IN_PLAY
            or match.turn_deadline_at is None
            or match.turn_deadline_at > now
        ):
            return 0
        state = load_state(match)
        if state.pending is not None:  # the clock should have been paused: pause it now
            _run_turn_clock(match, paused=True)
            _touch(match)
            return 0
        team = state.active
        ends = _missed_turn_ends(state)
        post = _new_post(
            match,
            state,
            kind=Post.Kind.SYSTEM,
            summary={
                "message": "deadline_passed",
                "deadline": "turn",
                "team": team,
                "phase": state.phase,
                "sides": [actor.split(":")[1] for actor, _decl in ends],
                "gm_needed": not ends,
            },
        )
        match.turn_deadline_at = None
        match.turn_time_left = None
        for actor, decl in ends:
            if legal(state, actor, decl) is not None:
                continue
            resolution = resolve(state, actor, decl, (), dice_for(match))
            if _settle(match, state, actor, decl, (), resolution, post) is not None:
                break
            state = load_state(match)
        _touch(match)
        absent = [actor for actor, _decl in ends] or [f"{team}:captain"]
        _notify_on_commit(
            "applied",
            match,
            absent,
            f"turn:{post.half}:{team}:{post.turn}:{post.number}",
            what="turn",
        )
        return 1


def _missed_turn_ends(state: MatchState) -> list[tuple[str, Declaration]]:
    """A missed team turn ends: each side that has not ended it declares end_turn, so its
    players who have not acted do nothing. Outside the team turns (set-up, kick-off) there is
    no default the engine offers: the system post asks the GM to step in."""
    rs = ruleset_for(state)
    team = state.active
    end = Declaration(None, "end_turn")
    return [
        (f"{team}:{side}", end)
        for side in rs.sides()
        if side not in state.teams[team].ended and legal(state, f"{team}:{side}", end) is None
    ]


def send_deadline_warnings(now: datetime | None = None, limit: int = 1000) -> int:
    """The 24-hour and 2-hour notices, each sent once per deadline (compare-and-set on the
    row's warning stage; the notice's unique key guards the e-mail itself)."""
    now = now or _now()
    sent = 0
    for stage, ahead in WARNINGS:
        decisions = Decision.objects.filter(
            answered_at__isnull=True,
            contested_at__isnull=True,
            deadline_at__gt=now,
            deadline_at__lte=now + ahead,
            warnings_sent__lt=stage,
        ).values_list("pk", "match_id", "to")[:limit]
        for pk, match_id, to in decisions:
            with transaction.atomic():
                if Decision.objects.filter(pk=pk, warnings_sent__lt=stage).update(
                    warnings_sent=stage
                ):
                    _enqueue_on_commit(
                        tasks.notify, "warning", match_id, [to], f"decision:{pk}:{stage}", {}
                    )
                    sent += 1
        turns = Match.objects.filter(
            status=Match.Status.IN_PLAY,
            turn_deadline_at__gt=now,
            turn_deadline_at__lte=now + ahead,
            turn_warnings_sent__lt=stage,
        ).values_list("pk", "state")[:limit]
        for match_id, state_json in turns:
            active = state_json.get("active", "home")
            turn = state_json.get("turn", {}).get(active, 0)
            with transaction.atomic():
                if Match.objects.filter(pk=match_id, turn_warnings_sent__lt=stage).update(
                    turn_warnings_sent=stage
                ):
                    key = f"turn:{state_json.get('half', 1)}:{active}:{turn}:{stage}"
                    actors = [f"{active}:captain", f"{active}:rival"]
                    _enqueue_on_commit(tasks.notify, "warning", match_id, actors, key, {})
                    sent += 1
    return sent


def _warnings_already_due(length: timedelta) -> int:
    """A deadline set less than 24 h (2 h) away: the notice that announces it is the warning."""
    return next((stage for stage, ahead in WARNINGS if length <= ahead), 0)


def _deadline(match: Match, actors: list[str], now: datetime, length: timedelta) -> datetime:
    """``length`` from now, or from the end of the vacation of a coach it is addressed to."""
    start = now
    if match.league_id is not None:
        users = [coach_of(match, actor) for actor in actors]
        away_until = Vacation.objects.filter(
            user_id__in=users, league_id=match.league_id, ends_at__gt=now
        ).aggregate(until=Max("ends_at"))["until"]
        if away_until is not None:
            start = max(now, away_until)
    return start + length


def _start_turn_clock(match: Match, state: MatchState) -> None:
    hours = match.league.turn_deadline_hours if match.league else DEFAULT_TURN_HOURS
    now = _now()
    actors = [f"{state.active}:captain", f"{state.active}:rival"]
    match.turn_deadline_at = _deadline(match, actors, now, timedelta(hours=hours))
    match.turn_time_left = None
    match.turn_warnings_sent = _warnings_already_due(match.turn_deadline_at - now)


def _run_turn_clock(match: Match, *, paused: bool) -> None:
    """The active team's clock stops while a decision is pending and goes on from where it
    stopped once none is."""
    now = _now()
    if paused and match.turn_deadline_at is not None:
        match.turn_time_left = max(match.turn_deadline_at - now, timedelta(0))
        match.turn_deadline_at = None
    elif not paused and match.turn_time_left is not None:
        match.turn_deadline_at = now + match.turn_time_left
        match.turn_time_left = None


# -- the Blitz claim (house rule 1) ---------------------------------------------------------------


def _open_decision_row(match: Match) -> Decision:
    decision = match.decisions.filter(answered_at__isnull=True).order_by("-pk").first()
    if decision is None:
        raise MatchError("no_decision_pending", "No decision is awaited.")
    return decision


def _contest_blitz(
    match: Match, state: MatchState, user: AnyUser | None, idempotency_key: str
) -> Outcome:
    """The captain contests the claim, or its window closed: the opposed roll is made by a task
    right after the commit. The claim stays open with a short deadline, so that if the task is
    lost the sweep makes the roll."""
    pending = state.pending
    assert pending is not None
    decision = _open_decision_row(match)
    now = _now()
    decision.contested_at = now
    decision.deadline_at = now + CONTEST_GRACE
    decision.save(update_fields=["contested_at", "deadline_at"])
    by_coach = user is not None and user.is_authenticated
    post = _new_post(
        match,
        state,
        kind=Post.Kind.DECISION if by_coach else Post.Kind.SYSTEM,
        author=user if by_coach else None,
        actor=pending.to,
        declaration={"kind": "blitz_claim", "choice": "contest", "default": not by_coach},
        summary={}
        if by_coach
        else {
            "message": "deadline_passed",
            "deadline": "decision",
            "kind": "blitz_claim",
            "to": pending.to,
            "choice": "contest",
        },
        idempotency_key=idempotency_key,
    )
    _touch(match)
    _enqueue_on_commit(tasks.adjudicate_blitz, decision.pk)
    return Outcome(post, decision)


def adjudicate_blitz(decision_id: int) -> Outcome | None:
    """The opposed roll of a contested Blitz claim, once: None when it was already made."""
    match_id = Decision.objects.filter(pk=decision_id).values_list("match_id", flat=True).first()
    if match_id is None:
        return None
    with transaction.atomic():
        match = _locked(match_id)
        decision = Decision.objects.filter(
            pk=decision_id,
            kind="blitz_claim",
            answered_at__isnull=True,
            contested_at__isnull=False,
        ).first()
        if decision is None or match.status != Match.Status.IN_PLAY:
            return None
        return _adjudicate(match, load_state(match), decision)


def _adjudicate(match: Match, state: MatchState, decision: Decision) -> Outcome | None:
    pending = state.pending
    if pending is None or pending.kind != "blitz_claim":
        return None
    post = _new_post(match, state, kind=Post.Kind.SYSTEM, summary={"message": "blitz_contest"})
    outcome = _apply_answer(
        match, state, pending, "contest", None, "", how=Decision.AnsweredBy.CONTEST, post=post
    )
    roll = MatchEvent.objects.filter(post=post, type="blitz_contest").first()
    if roll is not None:
        data = roll.data
        post.summary = {
            "message": "blitz_contest",
            "team": data["team"],
            "rival": data["rival"],
            "captain": data["captain"],
            "rival_total": data["rival_total"],
            "captain_total": data["captain_total"],
            "winner": data["result"],
        }
        post.save(update_fields=["summary"])
        team = data["team"]
        _notify_on_commit(
            "contest",
            match,
            [f"{team}:captain", f"{team}:rival"],
            f"contest:{decision.pk}",
            **{k: post.summary[k] for k in ("rival", "captain", "rival_total", "captain_total")},
            winner=data["result"],
        )
    return outcome


# -- standing orders ------------------------------------------------------------------------------

REROLL_ORDERS = {"dodge": "reroll_dodge", "pickup": "reroll_pickup", "gfi": "reroll_gfi"}
BLOCK_DIE_ORDERS = {"pushed": (2, 3), "both_down": (4,)}


def _standing_answer(match: Match, resolution: Resolution) -> Any | None:
    """The answer the addressee's standing orders give to the pending decision, if any."""
    pending = resolution.pending
    assert pending is not None
    orders = StandingOrders.objects.filter(match=match, user_id=coach_of(match, pending.to)).first()
    if orders is None:
        return None
    events = [event.data | {"type": event.type} for event in resolution.events]
    if pending.kind == "reroll" and "team" in pending.options:
        failed = next((e for e in reversed(events) if "purpose" in e), None)
        field = REROLL_ORDERS.get(str(failed.get("purpose"))) if failed else None
        if field is not None and getattr(orders, field):
            return "team"
    elif pending.kind == "reroll_approval" and orders.approve_rival_rerolls:
        return "approve"
    elif pending.kind == "block_die" and orders.block_die:
        block = next((e for e in reversed(events) if e["type"] == "block"), None)
        if block is None or block.get("chooser") != block.get("target"):
            return None  # the order is the defender's: the attacker's own choice is asked
        wanted = BLOCK_DIE_ORDERS.get(orders.block_die, ())
        return next((face for face in pending.options if face in wanted), pending.default)
    elif pending.kind == "intercept":
        if orders.intercept == StandingOrders.Intercept.NEVER:
            return "none"
        if (
            orders.intercept == StandingOrders.Intercept.ALWAYS
            and orders.intercept_player in pending.options
        ):
            return orders.intercept_player
    return None


def _record_standing_answer(match: Match, state: MatchState, pending: Pending, choice: Any) -> None:
    """The decision arose and was answered at once: a row that says so, and the thread's post."""
    owner = coach_of(match, pending.to)
    now = _now()
    Decision.objects.create(
        match=match,
        kind=pending.kind,
        to=pending.to,
        options=list(pending.options),
        default=pending.default,
        deadline_at=None,
        answered_at=now,
        answer=choice,
        answered_by_id=owner,
        answered_how=Decision.AnsweredBy.STANDING_ORDER,
    )
    _new_post(
        match,
        state,
        kind=Post.Kind.DECISION,
        author=User.objects.get(pk=owner),
        actor=pending.to,
        declaration={"kind": pending.kind, "choice": choice, "default": False},
    )


def set_standing_orders(match_id: int, user: User, **orders: Any) -> StandingOrders:
    """A coach sets its own standing orders for a match (any field left out stays as it was)."""
    fields = {
        "reroll_dodge",
        "reroll_pickup",
        "reroll_gfi",
        "approve_rival_rerolls",
        "block_die",
        "intercept",
        "intercept_player",
    }
    unknown = set(orders) - fields
    if unknown:
        raise MatchError("malformed", f"Unknown standing orders: {sorted(unknown)}.")
    with transaction.atomic():
        match = _locked(match_id)
        mine = actors_for(match, user)
        if not mine:
            raise MatchError("not_in_match", "Only the match's coaches give standing orders.")
        if orders.get("approve_rival_rerolls") and not any(a.endswith(":captain") for a in mine):
            raise MatchError("not_captain", "Only a captain approves the rival's rerolls.")
        if orders.get("block_die", "") not in StandingOrders.BlockDie.values:
            raise MatchError("malformed", "Unknown block-die preference.")
        if orders.get("intercept", "") not in StandingOrders.Intercept.values:
            raise MatchError("malformed", "Unknown interception order.")
        player = orders.get("intercept_player", "")
        if orders.get("intercept") == StandingOrders.Intercept.ALWAYS and not player:
            raise MatchError("malformed", "Name the player who always intercepts.")
        if player and not _coaches_player(match, mine, player):
            raise MatchError("not_your_player", f"{player} is not one of your players.")
        current, _created = StandingOrders.objects.get_or_create(match=match, user_id=user.pk)
        for name, value in orders.items():
            setattr(current, name, value)
        current.save()
        return current


def _coaches_player(match: Match, actors: list[str], player: str) -> bool:
    facts = match.lineup.get(player)
    if facts is None:
        return False
    team = "home" if player.startswith("h") else "away"
    house = load_state(match).house_rules
    return any(
        actor.startswith(team + ":") and (not house or actor.endswith(":" + facts["side"]))
        for actor in actors
    )


# -- vacations ------------------------------------------------------------------------------------


def vacation_days_left(user: User, league: League, season: int) -> int:
    used = Vacation.objects.filter(user_id=user.pk, league=league, season=season).aggregate(
        days=Sum("days")
    )["days"]
    return max(league.vacation_days - (used or 0), 0)


def take_vacation(
    user: User, league: League, days: int, *, now: datetime | None = None
) -> Vacation:
    """A coach pauses its own deadlines in every match of the league for ``days`` days (at
    most the league's allowance per season, a season being a calendar year). Each deadline
    addressed to the coach moves back by the vacation's length; every such match is told."""
    now = now or _now()
    if days <= 0:
        raise MatchError("malformed", "A vacation lasts at least one day.")
    with transaction.atomic():
        matches = list(
            Match.objects.select_for_update(of=("self",))
            .select_related("home_team", "away_team", "league")
            .filter(league=league, status=Match.Status.IN_PLAY)
            .filter(
                Q(home_team__captain_id=user.pk)
                | Q(home_team__rival_id=user.pk)
                | Q(away_team__captain_id=user.pk)
                | Q(away_team__rival_id=user.pk)
            )
            .order_by("pk")
        )
        season = now.year
        if days > vacation_days_left(user, league, season):
            raise MatchError("no_vacation_left", "Not that many vacation days are left.")
        running = Vacation.objects.filter(
            user_id=user.pk, league=league, ends_at__gt=now
        ).aggregate(until=Max("ends_at"))["until"]
        starts = max(now, running) if running else now
        length = timedelta(days=days)
        vacation = Vacation.objects.create(
            user_id=user.pk,
            league=league,
            season=season,
            starts_at=starts,
            ends_at=starts + length,
            days=days,
        )
        for match in matches:
            _push_back_deadlines(match, actors_for(match, user), length, now)
            _new_post(
                match,
                load_state(match),
                kind=Post.Kind.SYSTEM,
                actor=actors_for(match, user)[0],
                summary={
                    "message": "vacation",
                    "user": user.get_username(),
                    "until": vacation.ends_at.isoformat(),
                },
            )
            _touch(match)
        return vacation


def _push_back_deadlines(match: Match, mine: list[str], length: timedelta, now: datetime) -> None:
    for decision in match.decisions.filter(
        answered_at__isnull=True, contested_at__isnull=True, to__in=mine
    ):
        assert decision.deadline_at is not None
        decision.deadline_at += length
        decision.warnings_sent = _warnings_already_due(decision.deadline_at - now)
        decision.save(update_fields=["deadline_at", "warnings_sent"])
    active = match.state.get("active", "home")
    if not any(actor.startswith(active + ":") for actor in mine):
        return
    if match.turn_deadline_at is not None:
        match.turn_deadline_at += length
        match.turn_warnings_sent = _warnings_already_due(match.turn_deadline_at - now)
    elif match.turn_time_left is not None:
        match.turn_time_left += length


# -- notifications and preferences ----------------------------------------------------------------


def coach_of(match: Match, actor: str) -> int:
    """The user id of a TEAM:SIDE's coach (the captain holds the rival's side until a rival
    joins)."""
    team_key, _sep, side = actor.partition(":")
    team = match.home_team if team_key == "home" else match.away_team
    if side == "captain" or team.rival_id is None:
        return team.captain_id
    return team.rival_id


def save_preferences(user: User, **preferences: Any) -> CoachPreferences:
    current, _created = CoachPreferences.objects.get_or_create(user_id=user.pk)
    for name, value in preferences.items():
        setattr(current, name, value)
    current.full_clean(exclude=["user"])
    current.save()
    return current


def _notify_on_commit(kind: str, match: Match, actors: list[str], key: str, **context: Any) -> None:
    _enqueue_on_commit(tasks.notify, kind, match.pk, actors, f"{kind}:{match.pk}:{key}", context)


def _enqueue_on_commit(task: Task, *args: Any) -> None:
    transaction.on_commit(_enqueuer(task, args))


def _enqueuer(task: Task, args: tuple[Any, ...]) -> Callable[[], None]:
    def enqueue() -> None:
        # With the broker down the change stands: deadlines live in the database and the next
        # sweep applies them; only this notice or task is lost, and that is logged.
        try:
            task.apply_async(args, retry=False)
        except (BrokerError, OSError, RuntimeError):
            log.warning("could not enqueue %s%r", task.name, args, exc_info=True)

    return enqueue


# -- what awaits a coach --------------------------------------------------------------------------


@dataclass(frozen=True)
class Awaiting:
    match: Match
    what: str  # "decision" or "turn"
    deadline_at: datetime | None
    decision: Decision | None = None


def awaiting(user: AnyUser) -> list[Awaiting]:
    """Every match where something awaits this coach, the soonest deadline first."""
    if not user.is_authenticated:
        return []
    matches = (
        Match.objects.select_related("home_team", "away_team", "league")
        .filter(status=Match.Status.IN_PLAY)
        .filter(
            Q(home_team__captain_id=user.pk)
            | Q(home_team__rival_id=user.pk)
            | Q(away_team__captain_id=user.pk)
            | Q(away_team__rival_id=user.pk)
        )
    )
    open_decisions = {
        d.match_id: d for d in Decision.objects.filter(answered_at__isnull=True, match__in=matches)
    }
    found: list[Awaiting] = []
    for match in matches:
        mine = actors_for(match, user)
        decision = open_decisions.get(match.pk)
        if decision is not None:
            if decision.to in mine and decision.contested_at is None:
                found.append(Awaiting(match, "decision", decision.deadline_at, decision))
            continue
        active = match.state.get("active", "home")
        ended = match.state.get("teams", {}).get(active, {}).get("ended", [])
        if any(a.startswith(active + ":") and a.split(":")[1] not in ended for a in mine):
            found.append(Awaiting(match, "turn", match.turn_deadline_at))
    far = _now() + timedelta(days=3650)
    return sorted(found, key=lambda item: (item.deadline_at or far, item.match.pk))
