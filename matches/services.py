"""The only write path of matches: every change of a match goes through a function here.

Each function takes the match row FOR UPDATE, asks the rules engine, appends the events and
the thread's posts, saves the new state with a bumped version, and schedules side effects with
``transaction.on_commit``. A request carrying an idempotency key the same user already used
is answered with what it did the first time and changes nothing.
"""

import logging
import re
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from celery import Task
from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import DatabaseError, connection, models, transaction
from django.db.models import F, Max, Q, Sum
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from bbweb.roles import is_game_master
from matches import deadlines, economy, folding, leagues, tasks
from matches.markup import render_markdown
from matches.models import (
    Advancement,
    AuditEntry,
    CoachPreferences,
    Decision,
    Dispute,
    Fixture,
    Match,
    MatchEvent,
    PlayerMatchRecord,
    Post,
    Sequence,
    StandingOrders,
    TeamMatchRecord,
    Vacation,
)
from matches.rosters import lineup, team_sheet
from rules import gamedata
from rules.engine import (
    Answer,
    Declaration,
    Dice,
    FairDice,
    IllegalAction,
    InvalidAnswer,
    MatchState,
    Pending,
    PlayerSheet,
    Resolution,
    TeamSheet,
    check_answer,
    commitment,
    legal,
    new_match,
    resolve,
    ruleset_for,
)
from teams import advancement, rosters
from teams import services as team_services
from teams.models import League, Player, Team

log = logging.getLogger(__name__)

GENESIS_HASH = "0" * 64
SYSTEM_ACTOR = "home:captain"  # start_match may be posted by any coach; the server does it
DEFAULT_DECISION_HOURS = 12
DEFAULT_TURN_HOURS = 48
EDIT_WINDOW = timedelta(minutes=15)
MENTION = re.compile(r"(?<![\w@/:.])@([\w.+-]+)")
IDEMPOTENCY_KEY_LENGTH = 64  # Post.idempotency_key
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
            substitute = match.substitutes.get(f"{key}:{side}")
            if substitute is not None:
                if user.is_authenticated and user.pk == substitute:
                    actors.append(f"{key}:{side}")
            elif team.controls(user, side):
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
    *,
    home: Team,
    away: Team,
    gm: User,
    league: League | None = None,
    house_rules: bool = True,
    prematch: bool = False,
) -> Match:
    """A new match. With ``prematch`` it opens the pre-match sequence (petty cash, handicap
    money, inducements) and the engine starts the match once both teams have bought."""
    if home.pk == away.pk:
        raise MatchError("same_team", "A team cannot play itself.")
    seed = secrets.token_bytes(32)
    if prematch:
        _prepare_rosters(home, away)
    state = new_match(team_sheet(home, "home"), team_sheet(away, "away"), house_rules=house_rules)
    match = Match.objects.create(
        home_team=home,
        away_team=away,
        gm=gm,
        league=league,
        status=Match.Status.PRE_MATCH if prematch else Match.Status.IN_PLAY,
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
    if prematch:
        _begin_pre_match(match, state)
        return match
    _open_match(match, state, post)
    return match


def _open_match(match: Match, state: MatchState, post: Post) -> Resolution:
    """The engine's first state on record, then its start_match (weather, fans, coin toss)."""
    _append_event(match, state, "match_created", {"state": state.to_json(compact=True)}, post)
    opening = resolve(state, SYSTEM_ACTOR, Declaration(None, "start_match"), (), dice_for(match))
    _settle(match, state, SYSTEM_ACTOR, Declaration(None, "start_match"), (), opening, post)
    return opening


def may_schedule(user: AnyUser, home: Team, away: Team) -> bool:
    """A league's GM schedules two teams of that league, a site GM also teams in no league;
    only a superuser puts a team of another GM's league on the pitch."""
    if getattr(user, "is_superuser", False):
        return True
    if any(t.league is not None and t.league.gm_id != user.pk for t in (home, away)):
        return False
    return is_game_master(user) or (home.league_id is not None and home.league_id == away.league_id)


def may_schedule_any(user: AnyUser) -> bool:
    if is_game_master(user):
        return True
    return user.is_authenticated and League.objects.filter(gm=user.pk).exists()


def schedule_match(user: AnyUser, *, home: Team, away: Team, house_rules: bool = True) -> Match:
    """A GM puts two teams on the pitch; the GM referees the match."""
    if not may_schedule(user, home, away):
        raise MatchError("not_gm", "Only a game master schedules matches.")
    assert isinstance(user, User)
    league = home.league if home.league_id == away.league_id else None
    return create_match(home=home, away=away, gm=user, league=league, house_rules=house_rules)


# -- declaring and deciding ----------------------------------------------------------------------


def declare(
    match_id: int,
    user: AnyUser,
    declaration: dict[str, Any],
    *,
    side: str | None = None,
    text: str = "",
    idempotency_key: str = "",
    version: int | None = None,
) -> Outcome:
    """A coach declares one action (the whole of it, as forum players write it). With
    ``version``, only if the match is still at that version."""
    with transaction.atomic():
        match = _locked(match_id)
        replay = _already_done(match, user, idempotency_key)
        if replay is not None:
            return replay
        _require_in_play(match)
        _require_version(match, version)
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
        _notify_mentions(match, post)
        return Outcome(post, decision)


def answer(
    match_id: int,
    user: AnyUser,
    choice: str | int | bool,
    *,
    idempotency_key: str = "",
    kind: str | None = None,
    version: int | None = None,
) -> Outcome:
    """The coach the pending decision is addressed to answers it. With ``kind`` or
    ``version``, only if that is the decision awaited and the match is at that version."""
    with transaction.atomic():
        match = _locked(match_id)
        replay = _already_done(match, user, idempotency_key)
        if replay is not None:
            return replay
        _require_in_play(match)
        _require_version(match, version)
        state = load_state(match)
        pending = state.pending
        if pending is None:
            raise MatchError("no_decision_pending", "No decision is awaited.")
        if kind is not None and kind != pending.kind:
            raise MatchError("wrong_decision", f"A {pending.kind} decision is awaited, not {kind}.")
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
        if decision is None or match.paused or match.locked:
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
        _notify_mentions(match, post)
        return post


def edit_post(post_id: int, user: AnyUser, *, text: str) -> Post:
    """The author corrects the text of a post within the edit window; never a declaration,
    an answer or a roll. The first text is kept in the summary and the post shows "edited"."""
    if not text.strip():
        raise MatchError("empty", "The post is empty.")
    with transaction.atomic():
        post = Post.objects.select_for_update().filter(pk=post_id).first()
        if post is None:
            raise MatchError("no_post", "There is no such post.")
        match = _locked(post.match_id)
        if not user.is_authenticated or post.author_id != user.pk:
            raise MatchError("not_author", "Only the author edits a post.")
        if post.kind in (Post.Kind.SYSTEM, Post.Kind.DECISION) or not post.text:
            raise MatchError("not_editable", "This post has no text to edit.")
        if timezone.now() - post.created_at > EDIT_WINDOW:
            raise MatchError("edit_window", "The time to edit this post is over.")
        post.summary = {
            **post.summary,
            "original": post.summary.get("original", post.text),
            "edited_at": timezone.now().isoformat(),
        }
        post.text = text
        post.html = render_markdown(text)
        post.save(update_fields=["summary", "text", "html"])
        _touch(match)
        return post


def mentioned(match: Match, text: str) -> list[User]:
    """The match's coaches and GM named as ``@username`` in the text."""
    prose = re.sub(r"`[^`]*`", "", text)  # a name in code is not a mention
    names = {name.rstrip(".").lower() for name in MENTION.findall(prose)}
    return [user for user in match_people(match) if user.username.lower() in names]


def match_people(match: Match) -> list[User]:
    people = [match.home_team.captain, match.home_team.rival, match.away_team.captain]
    people += [match.away_team.rival, match.gm]
    return list({u.pk: u for u in people if u is not None}.values())


def _notify_mentions(match: Match, post: Post) -> None:
    if post.text and mentioned(match, post.text):
        post_pk = post.pk
        transaction.on_commit(lambda: tasks.notify_mentions.delay(post_pk))


def close_match(match_id: int, user: AnyUser) -> Match:
    """The GM closes a match after the final whistle; from then on its dice seed is public."""
    with transaction.atomic():
        match = _locked(match_id)
        if not is_match_gm(match, user):
            raise MatchError("not_gm", "Only the match's game master closes it.")
        if match.status != Match.Status.POST_MATCH:
            raise MatchError("not_over", "The match is not over.")
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        _new_post(
            match,
            load_state(match),
            kind=Post.Kind.SYSTEM,
            summary={"message": "closed", "seed": match.dice_seed},
        )
        _touch(match)
        return match


# -- folding the record ----------------------------------------------------------------------------


def fold(match: Match) -> MatchState:
    """The state rebuilt from the events alone: the first state, then every declaration
    resolved again with its answers from the same dice stream, and every GM ruling applied.
    Events a rewind undid stay in the record and are skipped."""
    state = folding.fold(list(match.events.order_by("number")), dice_for(match))
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
    # Only the match row: PostgreSQL cannot lock the nullable side of the outer join to the
    # league, and locking the teams too would make a team's matches wait for each other.
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
    if len(key) > IDEMPOTENCY_KEY_LENGTH:
        raise MatchError(
            "malformed", f"An idempotency key has at most {IDEMPOTENCY_KEY_LENGTH} characters."
        )
    if not key or not user.is_authenticated:
        return None
    post = Post.objects.filter(match=match, author_id=user.pk, idempotency_key=key).first()
    if post is None:
        return None
    return Outcome(post, match.decisions.filter(answered_at__isnull=True).first(), True)


def _require_version(match: Match, version: int | None) -> None:
    if version is not None and version != match.version:
        raise MatchError(
            "version_conflict", f"The match is at version {match.version}, not {version}."
        )


def _require_in_play(match: Match) -> None:
    if match.status != Match.Status.IN_PLAY:
        raise MatchError("not_in_play", "The match is not in play.")
    if match.locked:
        raise MatchError("locked", "The GM locked the match while a dispute is settled.")
    if match.paused:
        raise MatchError("paused", "The GM paused the match.")


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
    asked = _answer_open_decisions(
        match,
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
    origin = asked.post if asked is not None and asked.post is not None else post
    decision = _settle(match, state, pending.actor, decl, answers, resolution, origin)
    return Outcome(post, decision)


def _answer_open_decisions(match: Match, **answer: Any) -> Decision | None:
    """Close every open decision of the match with ``answer``; returns the one the thread
    asked (it has the declaration's post)."""
    writes = deadlines.current()
    if writes is not None:
        return writes.answer_open(**answer)
    open_decisions = Decision.objects.filter(match=match, answered_at__isnull=True)
    asked = open_decisions.exclude(post=None).select_related("post").first()
    open_decisions.update(**answer)
    return asked


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
    A question a standing order answers is answered at once, and the resolution goes on.
    ``post`` is the declaration's own post, which its events and questions point to."""
    decision = None
    while resolution.pending is not None:
        ordered = _standing_answer(match, resolution)
        if ordered is None:
            break
        _record_standing_answer(match, before, resolution.pending, ordered)
        answers = (*answers, Answer(resolution.pending.kind, ordered))
        resolution = resolve(before, actor, decl, answers, dice_for(match))
    if resolution.pending is not None:
        decision = _open_decision(match, resolution, post)
    else:
        record = {
            "actor": actor,
            "declaration": decl.to_json(),
            "answers": [a.to_json() for a in answers],
            "dice_from": before.dice_used,
            "dice_to": resolution.state.dice_used,
        }
        events = [(event.type, event.data) for event in resolution.events]
        _append_events(match, before, [("declaration", record), *events], post)
        _after_resolution(match, before, resolution.state)
    _run_turn_clock(match, paused=decision is not None)
    match.state = resolution.state.to_json(compact=True)
    _touch(match)
    return decision


def _open_decision(match: Match, resolution: Resolution, post: Post) -> Decision:
    pending = resolution.pending
    assert pending is not None
    league = match.league
    if pending.kind == "blitz_claim":
        hours = league.blitz_claim_window_hours if league else DEFAULT_CLAIM_WINDOW_HOURS
    else:
        hours = league.decision_deadline_hours if league else DEFAULT_DECISION_HOURS
    now = _now()
    deadline = _deadline(match, [pending.to], now, timedelta(hours=hours))
    decision = _insert(
        Decision(
            match=match,
            post=post,
            kind=pending.kind,
            to=pending.to,
            options=list(pending.options),
            default=pending.default,
            preview=[event.to_json() for event in resolution.events],
            deadline_at=deadline,
            warnings_sent=_warnings_already_due(deadline - now),
        )
    )
    _enqueue_on_commit(tasks.notify_decision, decision)
    return decision


def _after_resolution(match: Match, before: MatchState, after: MatchState) -> None:
    if after.phase == "finished":
        match.status = Match.Status.POST_MATCH
        match.turn_deadline_at = None
        match.turn_time_left = None
        _begin_post_match(match, after)
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
    writes = deadlines.current()
    if writes is not None:
        writes.touched = True
    else:
        match.save()


def _insert[Row: models.Model](row: Row) -> Row:
    """A new row: saved now, or kept for the bulk insert of the sweep's batch."""
    writes = deadlines.current()
    if writes is not None:
        writes.insert(row)
    else:
        row.save(force_insert=True)
    return row


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
    heads = _heads(match)
    post = _insert(
        Post(
            match=match,
            number=heads.post + 1,
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
    )
    heads.post = post.number
    return post


@dataclass
class _Heads:
    """The last post number and the last event (number, hash) of a match, read once per
    write once the match is locked, and moved on in memory as posts and events are added."""

    post: int
    event: int
    hash: str


def _heads(match: Match) -> _Heads:
    heads: _Heads | None = getattr(match, "_heads", None)
    if heads is None:
        # Plain SQL: the ORM spent longer building this query than the database running it.
        posts, events = Post._meta.db_table, MatchEvent._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT (SELECT MAX(number) FROM {posts} WHERE match_id = %s),"
                f" (SELECT MAX(number) FROM {events} WHERE match_id = %s),"
                f" (SELECT hash FROM {events} WHERE match_id = %s ORDER BY number DESC LIMIT 1)",
                [match.pk] * 3,
            )
            post, event, hash = cursor.fetchone()
        heads = _Heads(post or 0, event or 0, hash or GENESIS_HASH)
        match._heads = heads  # type: ignore[attr-defined]
    return heads


def _append_event(
    match: Match, state: MatchState, type: str, data: dict[str, Any], post: Post | None
) -> MatchEvent:
    [event] = MatchEvent.objects.bulk_create(_event_rows(match, state, [(type, data)], post))
    return event


def _append_events(
    match: Match, state: MatchState, events: list[tuple[str, dict[str, Any]]], post: Post | None
) -> None:
    """A declaration's events at the end of the match's hash chain, in one insert (in a batch
    of the sweep, in the batch's: as plain rows, the bulk of what it writes)."""
    writes = deadlines.current()
    if writes is None:
        MatchEvent.objects.bulk_create(_event_rows(match, state, events, post))
        return
    half, turn = state.half, state.turn.get(state.active, 0)
    writes.events.extend(
        {
            "match": match.pk,
            "number": number,
            "type": type,
            "data": data,
            "half": half,
            "turn": turn,
            "post": post,
            "prev_hash": prev,
            "hash": digest,
        }
        for number, type, data, prev, digest in _chained(match, events)
    )


def _event_rows(
    match: Match, state: MatchState, events: list[tuple[str, dict[str, Any]]], post: Post | None
) -> list[MatchEvent]:
    half, turn = state.half, state.turn.get(state.active, 0)
    return [
        MatchEvent(
            match=match,
            number=number,
            type=type,
            data=data,
            half=half,
            turn=turn,
            post=post,
            prev_hash=prev,
            hash=digest,
        )
        for number, type, data, prev, digest in _chained(match, events)
    ]


def _chained(
    match: Match, events: list[tuple[str, dict[str, Any]]]
) -> list[tuple[int, str, dict[str, Any], str, str]]:
    """(number, type, data, previous hash, hash) of each event, next in the match's chain."""
    heads = _heads(match)
    chained = []
    for type, data in events:
        number = heads.event + 1
        digest = MatchEvent.chain_hash(heads.hash, number, type, data)
        chained.append((number, type, data, heads.hash, digest))
        heads.event, heads.hash = number, digest
    return chained


# -- deadlines ------------------------------------------------------------------------------------
#
# Every deadline is a column: ``Match.turn_deadline_at`` (the active team's clock) and
# ``Decision.deadline_at`` (an open question). The beat sweep finds the expired ones through
# their indexes and applies them in batches of up to SWEEP_BATCH matches, one transaction each,
# holding the match rows FOR UPDATE SKIP LOCKED: a match another transaction holds is left to
# the next sweep, and each deadline is checked again under the lock, so two sweeps at once never
# apply one deadline twice, and a sweep that dies rolls its batch back whole. ``deadlines.py``
# keeps a batch's rows and writes them in bulk; a match it cannot buffer, or one that fails
# there, is applied alone in a savepoint, and a match that fails alone too is logged and left
# for the next sweep without holding the others back.

# Matches per transaction: larger batches save little more, and hold their rows locked longer
# (a coach posting in one of them waits for the batch, a tenth of a second or so).
SWEEP_BATCH = 100


@dataclass(frozen=True)
class SweepReport:
    decisions: int = 0
    turns: int = 0
    warnings: int = 0

    @property
    def applied(self) -> int:
        return self.decisions + self.turns


@dataclass
class _Due:
    """One match's expired deadlines: its open decisions, then (``turn``) its team turn, whose
    clock a default may also have restarted."""

    decisions: list[int]
    turn: bool


def sweep(now: datetime | None = None, limit: int = 1000) -> SweepReport:
    """What the beat runs every 30 seconds: expired deadlines, then the 24 h and 2 h warnings."""
    now = now or _now()
    decisions, turns = _expire(now, limit, decisions=True, turns=True)
    return SweepReport(decisions, turns, send_deadline_warnings(now, limit))


def expire_deadlines(now: datetime | None = None, limit: int = 1000) -> int:
    """Apply every deadline that has passed, each exactly once; returns how many were applied."""
    return sum(_expire(now or _now(), limit, decisions=True, turns=True))


def expire_decisions(now: datetime, limit: int = 1000) -> int:
    return _expire(now, limit, decisions=True, turns=False)[0]


def expire_turns(now: datetime, limit: int = 1000) -> int:
    return _expire(now, limit, decisions=False, turns=True)[1]


def _expire(now: datetime, limit: int, *, decisions: bool, turns: bool) -> tuple[int, int]:
    """(decisions, turns) applied: up to ``limit`` of each kind, the earliest first."""
    due: dict[int, _Due] = {}
    if decisions:
        for decision_id, match_id in (
            Decision.objects.filter(answered_at__isnull=True, deadline_at__lte=now)
            .exclude(Q(match__paused=True) | Q(match__locked=True))  # the GM holds the clock
            .order_by("deadline_at")
            .values_list("pk", "match_id")[:limit]
        ):
            due.setdefault(match_id, _Due([], turns)).decisions.append(decision_id)
    if turns:
        for match_id in (
            Match.objects.filter(
                turn_deadline_at__lte=now, status=Match.Status.IN_PLAY, paused=False, locked=False
            )
            .order_by("turn_deadline_at")
            .values_list("pk", flat=True)[:limit]
        ):
            due.setdefault(match_id, _Due([], True)).turn = True
    matches = list(due.items())
    return _add(
        _expire_batch(matches[start : start + SWEEP_BATCH], now)
        for start in range(0, len(matches), SWEEP_BATCH)
    )


def _expire_batch(matches: list[tuple[int, _Due]], now: datetime) -> tuple[int, int]:
    try:
        with transaction.atomic():
            return _expire_together(matches, now)
    except DatabaseError:
        log.warning(
            "a batch of %d matches' deadlines failed; applying them one by one",
            len(matches),
            exc_info=True,
        )
        return _add(_expire_alone(match_id, due, now) for match_id, due in matches)


def _expire_together(matches: list[tuple[int, _Due]], now: datetime) -> tuple[int, int]:
    """One transaction: the batch's match rows locked at once, their deadlines applied in
    memory, and everything they wrote inserted and updated in bulk."""
    claimed = list(
        Match.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("home_team", "away_team", "league")
        .filter(pk__in=[match_id for match_id, _due in matches])
    )
    batch = deadlines.Batch(claimed, _now())
    for row in claimed:
        post, event, hash = batch.heads[row.pk]
        row._heads = _Heads(post, event, hash or GENESIS_HASH)  # type: ignore[attr-defined]
    counts = []
    for match_id, due in matches:
        match = batch.matches.get(match_id)
        if match is None:
            continue  # another transaction holds it: the next sweep tries again
        try:
            with batch.buffering(match):
                counts.append(_apply_due(match, due, now))
        except SoftTimeLimitExceeded:
            raise
        except Exception as error:
            if not isinstance(error, deadlines.Unbuffered):
                log.warning(
                    "match %s failed in a batch; applying it alone", match_id, exc_info=True
                )
            counts.append(_expire_alone(match_id, due, now))
    queued = batch.flush()
    if queued:
        _enqueue_on_commit(tasks.enqueue_all, queued)  # one message for the whole batch
    return _add(counts)


def _apply_due(match: Match, due: _Due, now: datetime) -> tuple[int, int]:
    decisions = sum(_default_if_due(match, decision_id, now) for decision_id in due.decisions)
    return decisions, _end_turn_if_due(match, now) if due.turn else 0


def _expire_alone(match_id: int, due: _Due, now: datetime) -> tuple[int, int]:
    """One match's deadlines, each in its own transaction (a savepoint inside a batch)."""
    decisions = turns = 0
    try:
        for decision_id in due.decisions:
            decisions += _expire_decision(match_id, decision_id, now)
        if due.turn:
            turns = _expire_turn(match_id, now)
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        log.exception("the deadlines of match %s could not be applied", match_id)
    return decisions, turns


def _add(counts: Iterable[tuple[int, int]]) -> tuple[int, int]:
    decisions = turns = 0
    for d, t in counts:
        decisions, turns = decisions + d, turns + t
    return decisions, turns


def _expire_decision(match_id: int, decision_id: int, now: datetime) -> int:
    with transaction.atomic():
        match = _locked_unless_busy(match_id)
        return 0 if match is None else _default_if_due(match, decision_id, now)


def _default_if_due(match: Match, decision_id: int, now: datetime) -> int:
    """The decision takes its default, if it is still open and its deadline has passed (the
    match is locked)."""
    if match.status != Match.Status.IN_PLAY:
        return 0
    writes = deadlines.current()
    if writes is not None:
        decision = next(
            (
                d
                for d in writes.open
                if d.pk == decision_id
                and d.answered_at is None
                and d.deadline_at is not None
                and d.deadline_at <= now
            ),
            None,
        )
    else:
        decision = (
            Decision.objects.select_for_update()
            .filter(pk=decision_id, match=match, answered_at__isnull=True, deadline_at__lte=now)
            .first()
        )
    if decision is None:
        return 0
    _default_decision(match, decision)
    return 1


# -- the pre-match sequence (seed 003) ---------------------------------------------------------
#
# petty cash (the higher-value team first, each side from its own treasury) -> handicap money
# for the lower team -> inducements (the higher-value team buys first) -> the engine's
# start_match (weather, fans and FAME, coin toss). Each step is a system post whose summary
# carries the figures, so that the page writes it in the reader's language.

PRE_MATCH_STEPS = (
    Sequence.Step.PETTY_CASH_FAVOURITE,
    Sequence.Step.PETTY_CASH_UNDERDOG,
    Sequence.Step.INDUCEMENTS_FAVOURITE,
    Sequence.Step.INDUCEMENTS_UNDERDOG,
)
STAR_SIDE = "captain"  # the captain buys the inducements, so the hired players play for him


def sequence_dice(match: Match) -> Dice:
    """The stream of the sequence's own rolls (winnings, fan factor, improvement rolls,
    defaults), apart from the engine's; published with the seed like every other roll."""
    return FairDice(bytes.fromhex(match.dice_seed), f"{match.pk}:sequence")


# Wherever the record shows dice of the sequence's stream, it shows where each was read: a list
# of faces KEY ("dice", "fan_factor_dice"; "die" for one face) sits beside KEY_at, the indexes
# (and KEY_sides when they are not D6), so the export's verifier checks each against the seed.
# The match's opening rolls the sequence shows again are "faces" beside "faces_at".


@dataclass(frozen=True)
class _Rolled:
    faces: list[int]
    at: list[int]  # the indexes in the sequence's stream
    sides: int


def _roll(match: Match, seq: Sequence, count: int = 1, sides: int = 6) -> _Rolled:
    """The next ``count`` rolls of the sequence's stream. The step shows them all in the
    first event it posts with dice: the export's verifier checks the stream is read in order."""
    stream = sequence_dice(match)
    at = list(range(seq.dice_used, seq.dice_used + count))
    seq.dice_used += count
    return _Rolled([stream.face(index, sides) for index in at], at, sides)


def _drawn(*draws: _Rolled) -> dict[str, list[int]]:
    """Random choices made for a coach who missed a deadline: the dice that chose."""
    return {
        "dice": [face for draw in draws for face in draw.faces],
        "dice_at": [index for draw in draws for index in draw.at],
        "dice_sides": [draw.sides for draw in draws for _ in draw.faces],
    }


def _step_deadline(match: Match) -> Any:
    hours = match.league.decision_deadline_hours if match.league else DEFAULT_DECISION_HOURS
    return timezone.now() + timedelta(hours=hours)


def _team(match: Match, key: str) -> Team:
    return match.home_team if key == "home" else match.away_team


def _other(key: str) -> str:
    return "away" if key == "home" else "home"


def _records(match: Match) -> dict[str, TeamMatchRecord]:
    return {r.key: r for r in TeamMatchRecord.objects.select_for_update().filter(match=match)}


def _sequence(match: Match) -> Sequence:
    seq = Sequence.objects.select_for_update().filter(match=match).first()
    if seq is None:
        raise MatchError("no_sequence", "This match has no pre- or post-match sequence.")
    return seq


def _step_post(
    match: Match, step: str, author: AnyUser | None = None, actor: str = "", **data: Any
) -> Post:
    """A system post for one step, and its event in the match record."""
    state = load_state(match)
    summary = {"step": step, **data}
    post = _new_post(
        match, state, kind=Post.Kind.SYSTEM, author=author, actor=actor, summary=summary
    )
    _append_event(match, state, f"sequence_{step}", summary, post)
    return post


def _prepare_rosters(*teams: Team) -> None:
    """Journeymen nobody hired leave; a team short of 11 players gets new ones for the match."""
    for team in teams:
        team_services.release_journeymen(team)
        team_services.add_journeymen(team)


def _begin_pre_match(match: Match, state: MatchState) -> None:
    values = {}
    for key in ("home", "away"):
        team = Team.objects.prefetch_related("players").get(pk=_team(match, key).pk)
        values[key] = team.value
        TeamMatchRecord.objects.create(match=match, team=team, key=key, value_before=team.value)
    favourite = economy.favourite(values["home"], values["away"])
    Sequence.objects.create(
        match=match,
        step=Sequence.Step.PETTY_CASH_FAVOURITE,
        favourite=favourite,
        deadline_at=_step_deadline(match),
    )
    _step_post(match, "team_values", home=values["home"], away=values["away"], favourite=favourite)


def _pre_match_team(seq: Sequence, petty: bool) -> str:
    """The team whose turn the current step is (``petty``: a petty cash step is wanted)."""
    if petty and seq.step == Sequence.Step.PETTY_CASH_FAVOURITE:
        return seq.favourite
    if petty and seq.step == Sequence.Step.PETTY_CASH_UNDERDOG:
        return seq.underdog
    if not petty and seq.step == Sequence.Step.INDUCEMENTS_FAVOURITE:
        return seq.favourite
    if not petty and seq.step == Sequence.Step.INDUCEMENTS_UNDERDOG:
        return seq.underdog
    raise MatchError("wrong_step", "That is not the step the match is at.")


def transfer_petty_cash(match_id: int, user: AnyUser, *, side: str, amount: int) -> Post:
    """A side's coach moves gold from the side's own treasury into the team's petty cash
    (nothing is a choice too). The higher-value team's sides decide first."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PRE_MATCH:
            raise MatchError("wrong_step", "The pre-match sequence is over.")
        seq = _sequence(match)
        key = _pre_match_team(seq, petty=True)
        team = Team.objects.select_for_update().get(pk=_team(match, key).pk)
        _check_side_coach(match, team, user, side)
        if amount < 0:
            raise MatchError("bad_amount", "An amount of gold is never negative.")
        record = _records(match)[key]
        field = f"petty_cash_{side}"
        if getattr(record, field) is not None:
            raise MatchError("already_decided", "That side has already decided its petty cash.")
        _take_gold(team, side, amount)
        setattr(record, field, amount)
        record.save(update_fields=[field])
        post = _step_post(
            match,
            "petty_cash",
            author=user,
            actor=f"{key}:{side}",
            team=key,
            side=side,
            amount=amount,
        )
        _after_petty_cash(match, seq)
        _touch(match)
        return post


def _coaches_in(match: Match, team: Team, side: str, user: AnyUser) -> bool:
    """Whether the user coaches that side of the team in this match (a GM's substitute does,
    the coach replaced does not)."""
    key = "home" if team.pk == match.home_team_id else "away"
    return f"{key}:{side}" in actors_for(match, user)


def _check_side_coach(match: Match, team: Team, user: AnyUser, side: str) -> None:
    if side not in ("captain", "rival"):
        raise MatchError("malformed", "A side is the captain's or the rival's.")
    if not _coaches_in(match, team, side, user):
        if not actors_for(match, user):
            raise MatchError("not_in_match", "Only the coaches of the teams decide this.")
        raise MatchError("not_your_side", "Only that side's coach decides this.")


def _check_captain_of(match: Match, team: Team, user: AnyUser) -> None:
    if not _coaches_in(match, team, "captain", user):
        if not actors_for(match, user):
            raise MatchError("not_in_match", "Only the coaches of the teams decide this.")
        raise MatchError("not_captain", "Only the team's captain decides this.")


def _take_gold(team: Team, side: str, amount: int) -> None:
    field = "captain_treasury" if side == "captain" else "rival_treasury"
    taken = Team.objects.filter(pk=team.pk, **{f"{field}__gte": amount}).update(
        **{field: F(field) - amount}
    )
    if not taken:
        raise MatchError("not_enough_gold", "The side's treasury does not hold that much.")


def _give_gold(team: Team, side: str, amount: int) -> None:
    if amount:
        field = "captain_treasury" if side == "captain" else "rival_treasury"
        Team.objects.filter(pk=team.pk).update(**{field: F(field) + amount})


def _after_petty_cash(match: Match, seq: Sequence, *, by_default: bool = False) -> None:
    records = _records(match)
    key = _pre_match_team(seq, petty=True)
    record = records[key]
    if record.petty_cash_captain is None or record.petty_cash_rival is None:
        return
    if seq.step == Sequence.Step.PETTY_CASH_FAVOURITE:
        seq.step = Sequence.Step.PETTY_CASH_UNDERDOG
    else:
        values = {k: r.value_before + r.petty_cash for k, r in records.items()}
        for k, r in records.items():
            r.handicap = economy.handicap(values[k], values[_other(k)])
            r.save(update_fields=["handicap"])
        lower = next((k for k, r in records.items() if r.handicap), None)
        _step_post(
            match,
            "handicap",
            team=lower,
            amount=records[lower].handicap if lower else 0,
            home=values["home"],
            away=values["away"],
        )
        seq.step = Sequence.Step.INDUCEMENTS_FAVOURITE
    seq.deadline_at = _step_deadline(match)
    seq.save()


def _order_problems(team: Team, record: TeamMatchRecord, order: economy.Order) -> list[str]:
    roster = [p for p in team.players.all() if p.status in Player.ON_ROSTER]
    return economy.order_problems(
        team.race,
        order,
        budget=record.petty_cash + record.handicap,
        available_players=sum(1 for p in roster if not p.miss_next_game),
        position_counts=Counter(p.position for p in roster),
    )


def buy_inducements(match_id: int, user: AnyUser, order: dict[str, Any]) -> Post:
    """The captain buys the team's inducements with its petty cash and handicap money; what
    is left of the petty cash goes back to the sides that put it in."""
    try:
        wanted = economy.Order.from_json(order)
    except (KeyError, TypeError, ValueError) as error:
        raise MatchError("malformed", str(error)) from None
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PRE_MATCH:
            raise MatchError("wrong_step", "The pre-match sequence is over.")
        seq = _sequence(match)
        key = _pre_match_team(seq, petty=False)
        team = Team.objects.prefetch_related("players").get(pk=_team(match, key).pk)
        _check_captain_of(match, team, user)
        record = _records(match)[key]
        problems = _order_problems(team, record, wanted)
        if problems:
            raise MatchError("illegal_inducements", " ".join(problems))
        post = _record_inducements(match, seq, team, record, wanted, author=user)
        _touch(match)
        return post


def _record_inducements(
    match: Match,
    seq: Sequence,
    team: Team,
    record: TeamMatchRecord,
    order: economy.Order,
    *,
    author: AnyUser | None,
) -> Post:
    cost = economy.order_cost(team.race, order)
    back_captain, back_rival = economy.spend(
        cost,
        handicap_money=record.handicap,
        captain_cash=record.petty_cash_captain or 0,
        rival_cash=record.petty_cash_rival or 0,
    )
    _give_gold(team, "captain", back_captain)
    _give_gold(team, "rival", back_rival)
    record.inducements = order.to_json()
    record.inducements_cost = cost
    record.save(update_fields=["inducements", "inducements_cost"])
    post = _step_post(
        match,
        "inducements",
        author=author,
        actor=f"{record.key}:captain" if author else "",
        team=record.key,
        order=order.to_json(),
        cost=cost,
        returned={"captain": back_captain, "rival": back_rival},
        lost=max(0, record.handicap - cost),
        default=author is None,
    )
    if seq.step == Sequence.Step.INDUCEMENTS_FAVOURITE:
        seq.step = Sequence.Step.INDUCEMENTS_UNDERDOG
        seq.deadline_at = _step_deadline(match)
        seq.save()
    else:
        _kick_off(match, seq)
    return post


def _induced_sheet(
    team: Team, key: str, order: economy.Order, clashes: frozenset[str]
) -> tuple[TeamSheet, dict[str, dict[str, Any]]]:
    """The team sheet with the inducements, which the engine plays: star players and
    mercenaries join the roster, the rest are counts on the sheet."""
    sheet = team_sheet(team, key)
    entries = lineup(team, key)
    taken = {p.number for p in team.players.all()}
    free = (n for n in range(rosters.NUMBER_MAX, 0, -1) if n not in taken)
    extra: list[PlayerSheet] = []

    def add(
        number: int,
        kind: str,
        name: str,
        title: str,
        stats: tuple[int, ...],
        skills: tuple[str, ...],
    ) -> None:
        pid = f"{key[0]}{number}"
        ma, st, ag, av = stats
        extra.append(
            PlayerSheet(
                pid,
                number,
                ma,
                st,
                ag,
                av,
                skills,
                STAR_SIDE,
                name,
                kind,
                star=kind == "star",
                mercenary=kind == "mercenary",
            )
        )
        entries[pid] = {
            "pk": None,
            "name": name,
            "number": number,
            "position": title,
            "side": STAR_SIDE,
            "kind": kind,
        }

    for star_id in order.stars:
        if star_id in clashes:
            continue
        for star in economy.star_companions(star_id):
            add(
                next(free),
                "star",
                star.name,
                "Star Player",
                (star.ma, star.st, star.ag, star.av),
                star.skills,
            )
    for merc in order.mercenaries:
        pos = gamedata.position(merc.position)
        skills = (*pos.skills, *((gamedata.skill(merc.skill).name,) if merc.skill else ()))
        number = next(free)
        add(
            number,
            "mercenary",
            f"{pos.title} {number}",
            pos.title,
            (pos.ma, pos.st, pos.ag, pos.av),
            skills,
        )
    counts = order.counts
    sheet = replace(
        sheet,
        players=(*sheet.players, *extra),
        extra_training=counts.get("extra_training", 0),
        wandering_apothecaries=counts.get("wandering_apothecary", 0),
        babes=counts.get("bloodweiser_babes", 0),
        chefs=counts.get("halfling_master_chef", 0),
        bribes=counts.get("bribes", 0),
        igor=counts.get("igor", 0) > 0,
    )
    return sheet, entries


def _kick_off(match: Match, seq: Sequence) -> None:
    """Both teams bought: the engine's match begins with the induced team sheets."""
    records = _records(match)
    orders = {k: economy.Order.from_json(r.inducements or {}) for k, r in records.items()}
    clashes = economy.star_clashes(orders["home"], orders["away"])
    if clashes:
        _step_post(match, "star_clash", stars=sorted(clashes))
    sheets, entries = {}, {}
    for key in ("home", "away"):
        team = Team.objects.prefetch_related("players").get(pk=_team(match, key).pk)
        sheets[key], found = _induced_sheet(team, key, orders[key], clashes)
        entries.update(found)
    house_rules = load_state(match).house_rules
    state = new_match(sheets["home"], sheets["away"], house_rules=house_rules)
    match.lineup = entries
    match.status = Match.Status.IN_PLAY
    match.state = state.to_json(compact=True)
    seq.step = Sequence.Step.PLAYING
    seq.deadline_at = None
    seq.save()
    post = _step_post(match, "kick_off", lineup=len(entries))
    opening = _open_match(match, state, post)
    _post_opening_rolls(match, records, opening, state.dice_used)


def _post_opening_rolls(
    match: Match, records: dict[str, TeamMatchRecord], opening: Resolution, first_die: int
) -> None:
    """The weather and the fans, as the sequence shows them; ``first_die`` is the index in the
    match's stream of the opening's first roll."""
    fans: dict[str, dict[str, Any]] = {}
    index = first_die
    for event in opening.events:
        faces = list(event.data.get("faces", ()))
        at = list(range(index, index + len(faces)))
        index += len(faces)
        if event.type == "weather":
            _step_post(match, "weather", faces=faces, faces_at=at, result=event.data["result"])
        elif event.type == "fans":
            fans[str(event.data["team"])] = {
                "faces": faces,
                "faces_at": at,
                "total": event.data["total"],
            }
    if len(fans) < 2:
        return
    for key, record in records.items():
        record.fans = fans[key]["total"] * 1_000
        record.fame = economy.fame(fans[key]["total"], fans[_other(key)]["total"])
        fans[key].update(
            fans=record.fans, fame=record.fame, fan_factor=_team(match, key).fan_factor
        )
        record.save(update_fields=["fans", "fame"])
    _step_post(match, "fans", home=fans["home"], away=fans["away"])


# -- the post-match sequence --------------------------------------------------------------------
#
# At the final whistle: each player's achievements and injury, both winnings dice and fan
# factor rolls. The winner's captain may re-roll its winnings die once; each captain chooses
# the MJE and the PJE of the opposing team (house rule 4). Then the gold is shared by side
# value (house rule 3), SPP and injuries are written, improvement rolls wait for the coach of
# the player's side, and finally the team values are recomputed and journeymen offered.


def _begin_post_match(match: Match, state: MatchState) -> None:
    seq = Sequence.objects.select_for_update().filter(match=match).first()
    if seq is None:
        values = {}
        for key in ("home", "away"):
            team = Team.objects.prefetch_related("players").get(pk=_team(match, key).pk)
            values[key] = team.value
        seq = Sequence.objects.create(
            match=match,
            step=Sequence.Step.PLAYING,
            favourite=economy.favourite(values["home"], values["away"]),
        )
        for key in ("home", "away"):
            TeamMatchRecord.objects.create(
                match=match, team=_team(match, key), key=key, value_before=values[key]
            )
    result = state.result or {}
    winner = result.get("winner")
    score = state.score
    records = _records(match)
    for key, record in records.items():
        record.result = economy.result_for(key, winner)
        record.score_for, record.score_against = score[key], score[_other(key)]
        record.fame = state.teams[key].fame
        winnings = _roll(match, seq)
        record.winnings_dice, record.winnings_dice_at = winnings.faces, winnings.at
        record.winnings_reroll = None if record.result == economy.WIN else False
        team = _team(match, key)
        fan_factor = _roll(match, seq, economy.fan_factor_dice(record.result))
        record.fan_factor_dice, record.fan_factor_dice_at = fan_factor.faces, fan_factor.at
        record.fan_factor_change = economy.fan_factor_change(
            team.fan_factor, record.result, sum(fan_factor.faces)
        )
        record.save()
    _record_players(match, state)
    _step_post(match, "result", winner=winner, score=dict(score), by=result.get("by", ""))
    _step_post(
        match,
        "winnings_dice",
        home=_winnings_dice(records["home"]),
        away=_winnings_dice(records["away"]),
        winner=winner,
    )
    seq.step = Sequence.Step.AWARDS
    seq.deadline_at = _step_deadline(match)
    seq.save()


def _winnings_dice(record: TeamMatchRecord) -> dict[str, Any]:
    """A team's dice at the final whistle: its winnings die and its fan factor dice (shown
    again once the winnings are shared)."""
    return {
        "dice": record.winnings_dice,
        "dice_at": record.winnings_dice_at,
        "fan_factor_dice": record.fan_factor_dice,
        "fan_factor_dice_at": record.fan_factor_dice_at,
        "fame": record.fame,
        "result": record.result,
    }


def _record_players(match: Match, state: MatchState) -> None:
    events = list(match.events.only("number", "type", "data").order_by("number"))
    undone = folding.undone_numbers(events)  # a rewound touchdown earns nobody anything
    found = economy.achievements((e.type, e.data) for e in events if e.number not in undone)
    for pid, entry in match.lineup.items():
        key = economy.team_of(pid)
        counts = found.get(pid, Counter())
        player = state.players.get(pid)
        PlayerMatchRecord.objects.create(
            match=match,
            team=_team(match, key),
            player_id=entry.get("pk"),
            engine_id=pid,
            name=str(entry.get("name", pid)),
            kind=str(entry.get("kind", "player")),
            injury=(player.casualty or "") if player is not None else "",
            **{what: counts.get(what, 0) for what in economy.AWARDS},
        )


def reroll_winnings(match_id: int, user: AnyUser, *, reroll: bool) -> Post:
    """The winner's captain keeps the winnings die or rolls it again (the second stands)."""
    with transaction.atomic():
        match = _locked(match_id)
        seq = _awards_sequence(match)
        records = _records(match)
        key = next((k for k, r in records.items() if r.result == economy.WIN), None)
        if key is None:
            raise MatchError("no_winner", "Only the winner may re-roll its winnings.")
        _check_captain_of(match, _team(match, key), user)
        post = _decide_reroll(match, seq, records[key], reroll, author=user)
        _maybe_settle_awards(match, seq)
        _touch(match)
        return post


def _awards_sequence(match: Match) -> Sequence:
    seq = _sequence(match)
    if match.status != Match.Status.POST_MATCH or seq.step != Sequence.Step.AWARDS:
        raise MatchError("wrong_step", "The winnings and the awards are not being decided.")
    return seq


def _decide_reroll(
    match: Match, seq: Sequence, record: TeamMatchRecord, reroll: bool, *, author: AnyUser | None
) -> Post:
    if record.winnings_reroll is not None:
        raise MatchError("already_decided", "The winnings die was already kept or re-rolled.")
    record.winnings_reroll = bool(reroll)
    if reroll:
        again = _roll(match, seq)
        record.winnings_dice = [*record.winnings_dice, *again.faces]
        record.winnings_dice_at = [*record.winnings_dice_at, *again.at]
    record.save(update_fields=["winnings_reroll", "winnings_dice", "winnings_dice_at"])
    seq.save()
    return _step_post(
        match,
        "winnings_reroll",
        author=author,
        actor=f"{record.key}:captain" if author else "",
        team=record.key,
        reroll=bool(reroll),
        dice=record.winnings_dice,
        dice_at=record.winnings_dice_at,
        default=author is None,
    )


def choose_mvp(match_id: int, user: AnyUser, *, team: str, mje: str, pje: str) -> Post:
    """House rule 4: the captain of the *opposing* team gives the MJE (5 SPP) and the PJE
    (4 SPP) to two players of ``team`` (home or away) who were in the match."""
    if team not in ("home", "away"):
        raise MatchError("malformed", "The awards go to the home or the away team.")
    with transaction.atomic():
        match = _locked(match_id)
        opposing = _team(match, _other(team))
        if not _coaches_in(match, opposing, "captain", user):
            if not actors_for(match, user):
                raise MatchError("not_in_match", "Only the opposing captain chooses the MVP.")
            raise MatchError(
                "not_opposing_captain", "Only the opposing team's captain chooses these awards."
            )
        seq = _awards_sequence(match)
        record = _records(match)[team]
        if record.mvp_chosen:
            raise MatchError("already_decided", "These awards were already given.")
        eligible = _mvp_eligible(match, team)
        if mje == pje or mje not in eligible or pje not in eligible:
            raise MatchError(
                "bad_choice", "Choose two different players of that team who were in the match."
            )
        post = _give_awards(match, record, mje, pje, author=user)
        _maybe_settle_awards(match, seq)
        _touch(match)
        return post


def _mvp_eligible(match: Match, team: str) -> list[str]:
    return sorted(
        (pid for pid in match.lineup if economy.team_of(pid) == team),
        key=lambda pid: (int(match.lineup[pid].get("number") or 0), pid),
    )


def _give_awards(
    match: Match,
    record: TeamMatchRecord,
    mje: str,
    pje: str,
    *,
    author: AnyUser | None,
    drawn: dict[str, list[int]] | None = None,
) -> Post:
    record.mje, record.pje, record.mvp_chosen = mje, pje, True
    record.save(update_fields=["mje", "pje", "mvp_chosen"])
    PlayerMatchRecord.objects.filter(match=match, engine_id=mje).update(award=economy.MJE)
    PlayerMatchRecord.objects.filter(match=match, engine_id=pje).update(award=economy.PJE)
    names = {pid: match.lineup[pid].get("name", pid) for pid in (mje, pje)}
    return _step_post(
        match,
        "mvp",
        author=author,
        actor=f"{_other(record.key)}:captain" if author else "",
        team=record.key,
        mje={"id": mje, "name": names[mje]},
        pje={"id": pje, "name": names[pje]},
        default=author is None,
        **({"drawn": drawn} if drawn else {}),
    )


def _maybe_settle_awards(match: Match, seq: Sequence) -> None:
    records = _records(match)
    if all(r.mvp_chosen and r.winnings_reroll is not None for r in records.values()):
        _settle_awards(match, seq, records)


def _settle_awards(match: Match, seq: Sequence, records: dict[str, TeamMatchRecord]) -> None:
    for key, record in records.items():
        team = Team.objects.prefetch_related("players").get(pk=_team(match, key).pk)
        gross = economy.winnings_before_expenses(
            record.winnings_dice[-1], record.fame, record.result
        )
        record.spiralling_expenses = economy.spiralling_expenses(record.value_before)
        record.winnings = max(0, gross - record.spiralling_expenses)
        record.captain_value = team.side_value("captain")
        record.rival_value = team.side_value("rival")
        record.captain_share, record.rival_share = economy.split_winnings(
            record.winnings, record.captain_value, record.rival_value
        )
        record.save()
        _give_gold(team, "captain", record.captain_share)
        _give_gold(team, "rival", record.rival_share)
        _step_post(
            match,
            "winnings",
            team=key,
            die=record.winnings_dice[-1],
            **_last_die_at(record),
            fame=record.fame,
            result=record.result,
            gross=gross,
            spiralling=record.spiralling_expenses,
            winnings=record.winnings,
            captain_value=record.captain_value,
            rival_value=record.rival_value,
            captain_share=record.captain_share,
            rival_share=record.rival_share,
        )
        if record.fan_factor_change:
            Team.objects.filter(pk=team.pk).update(
                fan_factor=F("fan_factor") + record.fan_factor_change
            )
        _step_post(
            match,
            "fan_factor",
            team=key,
            dice=record.fan_factor_dice,
            dice_at=record.fan_factor_dice_at,
            before=team.fan_factor,
            change=record.fan_factor_change,
        )
    _apply_spp_and_injuries(match, seq)


def _last_die_at(record: TeamMatchRecord) -> dict[str, Any]:
    """Where the winnings die that stands was read (unknown for a match that reached its
    final whistle before the sequence's rolls were indexed)."""
    if len(record.winnings_dice_at) != len(record.winnings_dice):
        return {}
    return {"die_at": record.winnings_dice_at[-1]}


def _apply_spp_and_injuries(match: Match, seq: Sequence) -> None:
    played = {r.player_id for r in match.player_records.all() if r.player_id}
    for key in ("home", "away"):
        # Whoever sat this match out for an injury has now missed it.
        _team(match, key).players.filter(miss_next_game=True).exclude(pk__in=played).update(
            miss_next_game=False
        )
    rows: dict[str, list[dict[str, Any]]] = {"home": [], "away": []}
    injuries: dict[str, list[dict[str, Any]]] = {"home": [], "away": []}
    rolls: list[dict[str, Any]] = []
    for record in match.player_records.select_related("player").order_by("engine_id"):
        counts = {what: getattr(record, what) for what in economy.AWARDS}
        key = economy.team_of(record.engine_id)
        earns = record.kind == "player"  # stars and mercenaries keep no SPP
        record.spp = economy.spp_for(counts, record.award) if earns else 0
        record.save(update_fields=["spp"])
        if record.spp or record.award or any(counts.values()):
            rows[key].append(
                {
                    "id": record.engine_id,
                    "name": record.name,
                    **counts,
                    "award": record.award,
                    "spp": record.spp,
                }
            )
        player = record.player
        if player is None:
            if record.injury and record.injury != "badly_hurt":
                injuries[key].append(
                    {
                        "id": record.engine_id,
                        "name": record.name,
                        "injury": record.injury,
                        "ignored": True,
                    }
                )
            continue
        before = player.spp
        player.spp = before + record.spp
        if record.injury:
            _apply_injury(player, record.injury)
            injuries[key].append(
                {"id": record.engine_id, "name": record.name, "injury": record.injury}
            )
        player.save()
        if player.status == Player.Status.DEAD:
            continue
        for _ in range(advancement.rolls_due(before, player.spp)):
            rolls.append(_open_advancement(match, seq, player))
    _step_post(match, "spp", home=rows["home"], away=rows["away"])
    _step_post(match, "injuries", home=injuries["home"], away=injuries["away"])
    if rolls:
        _step_post(match, "improvement_rolls", rolls=rolls)
        seq.step = Sequence.Step.ADVANCEMENT
        seq.deadline_at = _step_deadline(match)
        seq.save()
    else:
        _finish_sequence(match, seq)


def _apply_injury(player: Player, casualty: str) -> None:
    change = advancement.injury_change(casualty)
    if change.dead:
        player.status = Player.Status.DEAD
        return
    player.miss_next_game = player.miss_next_game or change.miss_next_game
    player.niggling_injuries += change.niggling
    if change.stat:
        field = f"{change.stat.lower()}_loss"
        loss = getattr(player, field)
        if advancement.stat_loss_allowed(player.position_data, change.stat, player.gained, loss):
            setattr(player, field, loss + 1)


def _open_advancement(match: Match, seq: Sequence, player: Player) -> dict[str, Any]:
    """An improvement roll for the player; the options already count the rolls before it."""
    rolled = _roll(match, seq, 2)
    pending = [a.choice for a in Advancement.objects.filter(player=player, match=match)]
    gained = [*player.gained, *[c for c in pending if c]]
    roll = advancement.ImprovementRoll(*rolled.faces)
    options = advancement.options(player.position_data, gained, roll)
    Advancement.objects.create(
        match=match,
        player=player,
        dice=rolled.faces,
        dice_at=rolled.at,
        options=options,
        deadline_at=_step_deadline(match),
    )
    return {
        "player": player.pk,
        "name": player.name,
        "side": player.side,
        "dice": rolled.faces,
        "dice_at": rolled.at,
    }


def choose_advancement(advancement_id: int, user: AnyUser, choice: str) -> Post:
    """The coach of the player's side takes a skill or a characteristic the roll offers."""
    found = (
        Advancement.objects.select_related("player", "player__team")
        .filter(pk=advancement_id)
        .first()
    )
    if found is None:
        raise MatchError("no_advancement", "There is no such improvement roll.")
    with transaction.atomic():
        match = _locked(found.match_id)
        adv = Advancement.objects.select_for_update().get(pk=advancement_id)
        player = Player.objects.select_related("team").get(pk=adv.player_id)
        if not _coaches_in(match, player.team, player.side, user):
            if not player.team.is_coach(user):
                raise MatchError("not_in_match", "Only the coach of the player's side chooses.")
            raise MatchError("not_your_side", "Only the coach of the player's side chooses.")
        post = _take_advancement(match, _sequence(match), adv, player, choice, author=user)
        _touch(match)
        return post


def _take_advancement(
    match: Match,
    seq: Sequence,
    adv: Advancement,
    player: Player,
    choice: str,
    *,
    author: AnyUser | None,
    drawn: dict[str, list[int]] | None = None,
) -> Post:
    if adv.chosen_at is not None:
        raise MatchError("already_decided", "That improvement was already chosen.")
    if choice not in adv.options:
        raise MatchError("bad_choice", "The roll does not offer that.")
    adv.choice = choice
    adv.chosen_at = timezone.now()
    adv.chosen_by_id = author.pk if author is not None and author.is_authenticated else None
    adv.save()
    player.skills = [*player.gained, choice]
    player.save(update_fields=["skills"])
    post = _step_post(
        match,
        "advancement",
        author=author,
        actor=f"{'home' if player.team_id == match.home_team_id else 'away'}:{player.side}"
        if author
        else "",
        player=player.pk,
        name=player.name,
        dice=adv.dice,
        dice_at=adv.dice_at,
        choice=choice,
        value=player.value,
        default=author is None,
        **({"drawn": drawn} if drawn else {}),
    )
    if not match.advancements.filter(chosen_at__isnull=True).exists():
        _finish_sequence(match, seq)
    return post


def _finish_sequence(match: Match, seq: Sequence) -> None:
    values = {}
    journeymen: dict[str, list[dict[str, Any]]] = {}
    for key, record in _records(match).items():
        team = Team.objects.prefetch_related("players").get(pk=_team(match, key).pk)
        record.value_after = team.value
        record.save(update_fields=["value_after"])
        values[key] = team.value
        journeymen[key] = [
            {
                "player": p.pk,
                "name": p.name,
                "number": p.number,
                "position": p.position,
                "side": p.side,
                "cost": p.position_data.cost,
            }
            for p in team.roster()
            if p.status == Player.Status.JOURNEYMAN
        ]
    _step_post(match, "team_values_after", home=values["home"], away=values["away"])
    if journeymen["home"] or journeymen["away"]:
        _step_post(match, "journeymen", home=journeymen["home"], away=journeymen["away"])
    seq.step = Sequence.Step.DONE
    seq.deadline_at = None
    seq.save()
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()


# -- deadlines of the sequence --------------------------------------------------------------------


def expire_sequence_deadlines(now: Any = None) -> int:
    """Apply the default of every sequence step whose deadline passed: no petty cash, no
    inducements, the winnings die kept, random eligible MVPs (from the sequence's dice), a
    random normal skill for an improvement. Returns how many steps were applied."""
    now = now or timezone.now()
    applied = 0
    due = list(Sequence.objects.filter(deadline_at__lte=now).values_list("match_id", flat=True))
    for match_id in due:
        with transaction.atomic():
            match = _locked(match_id)
            seq = _sequence(match)
            if seq.deadline_at is None or seq.deadline_at > now:
                continue
            applied += _apply_step_default(match, seq, now)
            _touch(match)
    return applied


def _apply_step_default(match: Match, seq: Sequence, now: Any) -> int:
    if seq.step in (Sequence.Step.PETTY_CASH_FAVOURITE, Sequence.Step.PETTY_CASH_UNDERDOG):
        key = _pre_match_team(seq, petty=True)
        record = _records(match)[key]
        for side in ("captain", "rival"):
            if getattr(record, f"petty_cash_{side}") is None:
                setattr(record, f"petty_cash_{side}", 0)
                record.save(update_fields=[f"petty_cash_{side}"])
                _step_post(match, "petty_cash", team=key, side=side, amount=0, default=True)
        _after_petty_cash(match, seq, by_default=True)
        return 1
    if seq.step in (Sequence.Step.INDUCEMENTS_FAVOURITE, Sequence.Step.INDUCEMENTS_UNDERDOG):
        key = _pre_match_team(seq, petty=False)
        team = _team(match, key)
        _record_inducements(match, seq, team, _records(match)[key], economy.Order(), author=None)
        return 1
    if seq.step == Sequence.Step.AWARDS:
        for key, record in _records(match).items():
            if record.winnings_reroll is None:
                _decide_reroll(match, seq, record, False, author=None)
            if not record.mvp_chosen:
                eligible = _mvp_eligible(match, key)
                first = _roll(match, seq, sides=len(eligible))
                mje = eligible[first.faces[0] - 1]
                rest = [pid for pid in eligible if pid != mje] or [mje]
                second = _roll(match, seq, sides=len(rest))
                pje = rest[second.faces[0] - 1]
                _give_awards(match, record, mje, pje, author=None, drawn=_drawn(first, second))
        seq.save()
        _maybe_settle_awards(match, seq)
        return 1
    if seq.step == Sequence.Step.ADVANCEMENT:
        count = 0
        for adv in match.advancements.select_related("player").filter(
            chosen_at__isnull=True, deadline_at__lte=now
        ):
            candidates = [o for o in adv.options if not o.startswith("+")] or adv.options
            draw = _roll(match, seq, sides=len(candidates))
            pick = candidates[draw.faces[0] - 1]
            _take_advancement(match, seq, adv, adv.player, pick, author=None, drawn=_drawn(draw))
            count += 1
        seq.save()
        return count
    seq.deadline_at = None
    seq.save()
    return 0


def _default_decision(match: Match, decision: Decision) -> Outcome | None:
    """Answer an open decision as its deadline says (the match is locked)."""
    state = load_state(match)
    pending = state.pending
    if pending is None or pending.kind != decision.kind:
        # A row the state no longer waits for: close it so the sweep stops finding it.
        _update_decision(decision, answered_at=_now(), answered_how=Decision.AnsweredBy.DEFAULT)
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


def _update_decision(decision: Decision, **values: Any) -> None:
    writes = deadlines.current()
    if writes is not None:
        writes.update(decision, **values)
    else:
        Decision.objects.filter(pk=decision.pk).update(**values)


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
        return 0 if match is None else _end_turn_if_due(match, now)


def _end_turn_if_due(match: Match, now: datetime) -> int:
    """The missed team turn ends, if its deadline has passed (the match is locked)."""
    if (
        match.status != Match.Status.IN_PLAY
        or match.paused
        or match.locked
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
    for number, (actor, decl) in enumerate(ends):
        if number:
            state = load_state(match)  # as the side before ended it
        if legal(state, actor, decl) is not None:
            continue
        resolution = resolve(state, actor, decl, (), dice_for(match))
        if _settle(match, state, actor, decl, (), resolution, post) is not None:
            break
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
        writes = deadlines.current()
        if writes is not None:
            away_until = writes.batch.away_until(match.league_id, users, now)
        else:
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
    roll = match.events.filter(type="blitz_contest").order_by("-number").first()
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
    owner = coach_of(match, pending.to)
    writes = deadlines.current()
    if writes is not None:
        orders = writes.batch.orders.get((match.pk, owner))
    else:
        orders = StandingOrders.objects.filter(match=match, user_id=owner).first()
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
    _insert(
        Decision(
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
    """Queue ``task`` once the transaction commits. A row among ``args`` stands for its primary
    key, read then (a row of the sweep's batch has none before its bulk insert)."""
    writes = deadlines.current()
    if writes is not None:
        writes.later(task, args)
    else:
        transaction.on_commit(_enqueuer(task, args))


def _enqueuer(task: Task, args: tuple[Any, ...]) -> Callable[[], None]:
    def enqueue() -> None:
        # With the broker down the change stands: deadlines live in the database and the next
        # sweep applies them; only this notice or task is lost, and that is logged.
        values = tuple(arg.pk if isinstance(arg, models.Model) else arg for arg in args)
        try:
            task.apply_async(values, retry=False)
        except (BrokerError, OSError, RuntimeError):
            log.warning("could not enqueue %s%r", task.name, values, exc_info=True)

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


# -- game masters: disputes and rulings ----------------------------------------------------------
#
# Every ruling is an event of the match with the GM's note, a system post in the thread and an
# entry of the audit log. Rulings that change the game (rewind, reroll, correction, award,
# match_ended) are applied by ``fold`` like declarations (see matches.folding, which the
# export's verifier reads the record with too).

NOTE_MAX = 2000


@contextmanager
def _refusals() -> Iterator[None]:
    """A ruling the record does not allow is refused like any other request."""
    try:
        yield
    except folding.Refused as refused:
        raise MatchError(refused.code, refused.message) from None


def _pk(user: AnyUser) -> int:
    """The id of a user already known to be logged in."""
    assert user.pk is not None
    return int(user.pk)


def _gm_match(match_id: int, user: AnyUser) -> Match:
    match = _locked(match_id)
    if not is_match_gm(match, user):
        raise MatchError("not_gm", "Only the match's game master may do that.")
    return match


def _clean_note(note: str) -> str:
    note = note.strip()
    if len(note) > NOTE_MAX:
        raise MatchError("too_long", f"A note has at most {NOTE_MAX} characters.")
    return note


def _gm_event(
    match: Match,
    gm: AnyUser,
    action: str,
    data: dict[str, Any],
    *,
    note: str = "",
    dispute: Dispute | None = None,
) -> MatchEvent:
    """A GM action in the record: an event, a system post carrying the note, an audit entry."""
    state = load_state(match)
    data = {**data, "gm": gm.pk, "note": note}
    if dispute is not None:
        data["dispute"] = dispute.pk
    shown = {k: v for k, v in data.items() if k not in ("undone", "answers", "keep", "note")}
    post = _new_post(
        match,
        state,
        kind=Post.Kind.SYSTEM,
        author=gm,
        text=note,
        summary={"message": action, **shown},
    )
    event = _append_event(match, state, action, data, post)
    AuditEntry.objects.create(
        league_id=match.league_id,
        match=match,
        gm_id=_pk(gm),
        action=action,
        note=note,
        data=shown,
    )
    return event


def _dice_high_water(match: Match, events: list[MatchEvent]) -> int:
    """The first index of the stream nobody has seen: past every roll recorded and past the
    rolls a pending decision already showed."""
    state = load_state(match)
    shown = 0
    pending = state.pending
    if pending is not None and pending.declaration is not None:
        shown = resolve(
            state,
            pending.actor,
            Declaration.from_json(pending.declaration),
            tuple(Answer.from_json(a) for a in pending.answers),
            dice_for(match),
        ).dice_read
    return folding.recorded_high_water(events, state.dice_used + shown)


def _refold(match: Match, *, restart_clock: bool = True) -> MatchState:
    """After a ruling that changes the game: the state rebuilt from the events, the open
    questions withdrawn, the status following the new state, and (after a rewind or a
    re-roll, when play goes back) a fresh turn clock."""
    state = fold(match)
    match.state = state.to_json(compact=True)
    Decision.objects.filter(match=match, answered_at__isnull=True).update(
        answered_at=timezone.now(), answer="withdrawn"
    )
    if state.phase == "finished":
        ending_now = match.status != Match.Status.POST_MATCH
        match.status = Match.Status.POST_MATCH
        match.turn_deadline_at = None
        if ending_now:  # an award or a GM's end leads to the winnings, SPP and injuries too
            _begin_post_match(match, state)
    else:
        match.status = Match.Status.IN_PLAY
        if not restart_clock and match.turn_deadline_at is not None:
            return state
        hours = match.league.turn_deadline_hours if match.league else DEFAULT_TURN_HOURS
        match.turn_deadline_at = timezone.now() + timedelta(hours=hours)
        if match.clock_stopped_at is not None:
            match.clock_stopped_at = timezone.now()
    return state


def _require_rulable(match: Match) -> None:
    if match.status in (Match.Status.FINISHED, Match.Status.SCHEDULED):
        raise MatchError("match_over", "The match is closed: its dice seed is public.")


def raise_dispute(
    match_id: int,
    user: AnyUser,
    *,
    reason: str,
    event_number: int | None = None,
    post_number: int | None = None,
) -> Dispute:
    """A coach of the match objects to an event or a post, with a reason."""
    reason = reason.strip()
    if not reason:
        raise MatchError("empty", "Say what is wrong.")
    with transaction.atomic():
        match = _locked(match_id)
        actors = actors_for(match, user)
        if not actors:
            raise MatchError("not_in_match", "Only the match's coaches raise disputes.")
        if match.status == Match.Status.FINISHED:
            raise MatchError("match_over", "The match is closed.")
        event = post = None
        if event_number is not None:
            event = match.events.filter(number=event_number).first()
            if event is None:
                raise MatchError("no_event", "There is no such event.")
        if post_number is not None:
            post = match.posts.filter(number=post_number).first()
            if post is None:
                raise MatchError("no_post", "There is no such post.")
        if event is None and post is None:
            raise MatchError("malformed", "A dispute is about an event or a post.")
        if len(reason) > NOTE_MAX:
            raise MatchError("too_long", f"A reason has at most {NOTE_MAX} characters.")
        dispute = Dispute.objects.create(
            match=match,
            raised_by_id=_pk(user),
            actor=actors[0],
            event=event,
            post=post,
            reason=reason,
        )
        state = load_state(match)
        data = {
            "dispute": dispute.pk,
            "actor": actors[0],
            "event": event_number,
            "post": post_number,
        }
        thread_post = _new_post(
            match,
            state,
            kind=Post.Kind.SYSTEM,
            author=user,
            actor=actors[0],
            text=reason,
            summary={"message": "dispute_raised", **data},
        )
        _append_event(match, state, "dispute_raised", {**data, "reason": reason}, thread_post)
        _touch(match)
        return dispute


def rule_on_dispute(
    match_id: int,
    user: AnyUser,
    dispute_id: int,
    ruling: str,
    *,
    note: str = "",
    event_number: int | None = None,
    player: str = "",
    changes: dict[str, Any] | None = None,
    hours: int = 0,
    winner: str = "",
    score: dict[str, int] | None = None,
) -> MatchEvent:
    """The match's GM rules on an open dispute; the ruling is an event with the GM's note.
    ``event_number`` (rewind, grant_reroll) defaults to the disputed event."""
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        dispute = match.disputes.filter(pk=dispute_id).first()
        if dispute is None:
            raise MatchError("no_dispute", "There is no such dispute.")
        if not dispute.is_open:
            raise MatchError("dispute_closed", "The dispute was already ruled on.")
        if event_number is None and dispute.event is not None:
            event_number = dispute.event.number
        R = Dispute.Ruling
        if ruling in (R.DISMISS, R.UPHOLD):
            action = "dismissed" if ruling == R.DISMISS else "upheld"
            event = _gm_event(match, user, action, {}, note=note, dispute=dispute)
        elif ruling == R.REWIND:
            event = _rewind(match, user, event_number, note, dispute)
        elif ruling == R.GRANT_REROLL:
            event = _grant_reroll(match, user, event_number, note, dispute)
        elif ruling == R.CORRECT:
            event = _correct(match, user, player, changes or {}, note, dispute)
        elif ruling == R.EXTEND_DEADLINE:
            event = _extend_deadline(match, user, hours, note, dispute)
        elif ruling == R.PAUSE:
            if match.paused:
                raise MatchError("already_paused", "The match is paused already.")
            event = _pause(match, user, note, dispute)
        elif ruling == R.AWARD:
            event = _award(match, user, winner, score, note, dispute)
        else:
            raise MatchError("malformed", f"Unknown ruling {ruling!r}.")
        dispute.status = Dispute.Status.DISMISSED if ruling == R.DISMISS else Dispute.Status.UPHELD
        dispute.ruling = ruling
        dispute.note = note
        dispute.ruled_at = timezone.now()
        dispute.save()
        if match.locked and not match.disputes.filter(status=Dispute.Status.OPEN).exists():
            match.locked = False
            _gm_event(match, user, "unlocked", {"automatic": True})
            _restart_clocks(match)
        _touch(match)
        return event


def _rewind(
    match: Match, gm: AnyUser, number: int | None, note: str, dispute: Dispute
) -> MatchEvent:
    _require_rulable(match)
    events = list(match.events.order_by("number"))
    with _refusals():
        data = folding.rewind(events, number, _dice_high_water(match, events))
    event = _gm_event(match, gm, "rewind", data, note=note, dispute=dispute)
    _refold(match)
    return event


def _grant_reroll(
    match: Match, gm: AnyUser, number: int | None, note: str, dispute: Dispute
) -> MatchEvent:
    """The disputed roll is made again with new dice; the rolls before it in the same action
    stand, everything after it is resolved anew (later questions take their defaults)."""
    _require_rulable(match)
    events = list(match.events.order_by("number"))
    with _refusals():
        high_water = _dice_high_water(match, events)
        reroll = folding.reroll(events, number, dice_for(match), high_water)
    event = _gm_event(match, gm, "granted_reroll", reroll.data, note=note, dispute=dispute)
    for rolled in reroll.resolution.events:
        _append_event(match, reroll.start, rolled.type, rolled.data, event.post)
    _refold(match)
    return event


def _correct(
    match: Match,
    gm: AnyUser,
    player: str,
    changes: dict[str, Any],
    note: str,
    dispute: Dispute,
) -> MatchEvent:
    _require_rulable(match)
    state = load_state(match)
    if state.pending is not None:
        raise MatchError(
            "decision_pending", "Correct the match once the pending decision is answered."
        )
    try:
        folding.corrected(state, player, changes)
    except ValueError as error:
        raise MatchError("correction_illegal", str(error)) from None
    data = {"player": player, "changes": dict(changes)}
    event = _gm_event(match, gm, "correction", data, note=note, dispute=dispute)
    _refold(match, restart_clock=False)
    return event


def _extend_deadline(
    match: Match, gm: AnyUser, hours: int, note: str, dispute: Dispute | None
) -> MatchEvent:
    if not 0 < hours <= 24 * 30:
        raise MatchError("malformed", "Extend by 1 to 720 hours.")
    delta = timedelta(hours=hours)
    if match.turn_time_left is not None:  # the turn clock stands while a question is open
        match.turn_time_left += delta
    elif match.turn_deadline_at is not None:
        match.turn_deadline_at += delta
    match.decisions.filter(answered_at__isnull=True, deadline_at__isnull=False).update(
        deadline_at=F("deadline_at") + delta
    )
    return _gm_event(match, gm, "deadline_extended", {"hours": hours}, note=note, dispute=dispute)


def _award(
    match: Match,
    gm: AnyUser,
    winner: str,
    score: dict[str, int] | None,
    note: str,
    dispute: Dispute,
) -> MatchEvent:
    _require_rulable(match)
    if winner not in ("home", "away"):
        raise MatchError("malformed", "The match is awarded to home or away.")
    state = load_state(match)
    score = score or dict(state.score)
    if any(not isinstance(score.get(t), int) or score[t] < 0 for t in ("home", "away")):
        raise MatchError("malformed", "A score is two numbers of touchdowns.")
    data = {"winner": winner, "score": {"home": score["home"], "away": score["away"]}}
    event = _gm_event(match, gm, "award", data, note=note, dispute=dispute)
    _refold(match)
    return event


# -- game masters: match control -----------------------------------------------------------------


def _stop_clocks(match: Match) -> None:
    if not match.paused and not match.locked:
        match.clock_stopped_at = timezone.now()


def _restart_clocks(match: Match) -> None:
    """Once neither paused nor locked: every deadline moves on by the time the clocks stood."""
    if match.paused or match.locked or match.clock_stopped_at is None:
        return
    stood = timezone.now() - match.clock_stopped_at
    match.clock_stopped_at = None
    if match.turn_deadline_at is not None:
        match.turn_deadline_at += stood
    match.decisions.filter(answered_at__isnull=True, deadline_at__isnull=False).update(
        deadline_at=F("deadline_at") + stood
    )


def _pause(match: Match, gm: AnyUser, note: str, dispute: Dispute | None) -> MatchEvent:
    _stop_clocks(match)
    match.paused = True
    return _gm_event(match, gm, "paused", {}, note=note, dispute=dispute)


def pause_match(match_id: int, user: AnyUser, *, note: str = "") -> MatchEvent:
    """No declarations, no answers and no deadlines until the GM resumes the match."""
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        if match.paused:
            raise MatchError("already_paused", "The match is paused already.")
        event = _pause(match, user, note, None)
        _touch(match)
        return event


def resume_match(match_id: int, user: AnyUser, *, note: str = "") -> MatchEvent:
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        if not match.paused:
            raise MatchError("not_paused", "The match is not paused.")
        match.paused = False
        _restart_clocks(match)
        event = _gm_event(match, user, "resumed", {}, note=note)
        _touch(match)
        return event


def lock_match(match_id: int, user: AnyUser, *, note: str = "") -> MatchEvent:
    """While a dispute is open the GM may stop play (and the clocks) until it is settled;
    ruling on the last open dispute lifts the lock."""
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        if match.locked:
            raise MatchError("already_locked", "The match is locked already.")
        if not match.disputes.filter(status=Dispute.Status.OPEN).exists():
            raise MatchError("no_open_dispute", "A match is locked only while a dispute is open.")
        _stop_clocks(match)
        match.locked = True
        event = _gm_event(match, user, "locked", {}, note=note)
        _touch(match)
        return event


def unlock_match(match_id: int, user: AnyUser, *, note: str = "") -> MatchEvent:
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        if not match.locked:
            raise MatchError("not_locked", "The match is not locked.")
        match.locked = False
        _restart_clocks(match)
        event = _gm_event(match, user, "unlocked", {}, note=note)
        _touch(match)
        return event


def set_deadline(match_id: int, user: AnyUser, at: Any, *, note: str = "") -> MatchEvent:
    """The GM sets the current turn's deadline (a datetime in the future)."""
    note = _clean_note(note)
    if at is None or at <= timezone.now():
        raise MatchError("malformed", "A deadline is in the future.")
    with transaction.atomic():
        match = _gm_match(match_id, user)
        _require_rulable(match)
        match.turn_deadline_at = at
        event = _gm_event(match, user, "deadline_set", {"at": at.isoformat()}, note=note)
        _touch(match)
        return event


def extend_deadline(match_id: int, user: AnyUser, hours: int, *, note: str = "") -> MatchEvent:
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        _require_rulable(match)
        event = _extend_deadline(match, user, hours, note, None)
        _touch(match)
        return event


def replace_coach(
    match_id: int, user: AnyUser, actor: str, username: str, *, note: str = ""
) -> MatchEvent:
    """Another user coaches a side of this match in place of an absent coach."""
    note = _clean_note(note)
    team_key, _sep, side = actor.partition(":")
    if team_key not in ("home", "away") or side not in ("captain", "rival"):
        raise MatchError("malformed", "A side is TEAM:SIDE, such as home:rival.")
    with transaction.atomic():
        match = _gm_match(match_id, user)
        _require_rulable(match)
        newcomer = User.objects.filter(username=username).first()
        if newcomer is None:
            raise MatchError("no_user", f"There is no user {username}.")
        if newcomer.pk == match.gm_id:
            raise MatchError("conflict", "The GM cannot coach in the match it runs.")
        other = "away" if team_key == "home" else "home"
        if any(a.startswith(other + ":") for a in actors_for(match, newcomer)):
            raise MatchError("conflict", f"{username} coaches the other team.")
        match.substitutes = {**match.substitutes, actor: newcomer.pk}
        data = {"actor": actor, "user": newcomer.pk, "username": newcomer.username}
        event = _gm_event(match, user, "coach_replaced", data, note=note)
        _touch(match)
        return event


def end_match(match_id: int, user: AnyUser, *, note: str = "") -> MatchEvent:
    """A match in play ends as it stands (the score decides); a match in its post-match
    sequence is closed, which publishes its dice seed."""
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        if match.status == Match.Status.IN_PLAY:
            event = _gm_event(match, user, "match_ended", {}, note=note)
            _refold(match)
        elif match.status == Match.Status.POST_MATCH:
            event = _gm_event(match, user, "match_closed", {}, note=note)
            match.status = Match.Status.FINISHED
            match.finished_at = timezone.now()
            match.turn_deadline_at = None
        else:
            raise MatchError("not_in_play", "The match is neither in play nor in its post-match.")
        _touch(match)
        return event


# -- game masters: leagues and fixtures ----------------------------------------------------------

LEAGUE_SETTINGS = (
    "name",
    "starting_treasury",
    "turn_deadline_hours",
    "decision_deadline_hours",
    "blitz_claim_window_hours",
    "reroll_approval_default",
    "vacation_days",
    "points_win",
    "points_draw",
    "points_loss",
)


def _league_audit(league: League, gm: AnyUser, action: str, note: str = "", **data: Any) -> None:
    AuditEntry.objects.create(league=league, gm_id=_pk(gm), action=action, note=note, data=data)


def _gm_league(league_id: int, user: AnyUser) -> League:
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise MatchError("no_league", "There is no such league.")
    if not user.is_authenticated or user.pk != league.gm_id:
        raise MatchError("not_gm", "Only the league's game master may do that.")
    return league


def create_league(user: AnyUser, settings: dict[str, Any]) -> League:
    """A game master opens a league with its settings (the form checked their values)."""
    if not is_game_master(user):
        raise MatchError("not_gm", "Only a game master creates leagues.")
    with transaction.atomic():
        if League.objects.filter(name__iexact=settings["name"]).exists():
            raise MatchError("name_taken", "A league of that name exists.")
        values = {k: settings[k] for k in LEAGUE_SETTINGS if k in settings}
        league = League.objects.create(gm_id=_pk(user), **values)
        _league_audit(league, user, "league_created")
        return league


def update_league(league_id: int, user: AnyUser, settings: dict[str, Any]) -> League:
    with transaction.atomic():
        league = _gm_league(league_id, user)
        name = settings.get("name", league.name)
        if League.objects.filter(name__iexact=name).exclude(pk=league.pk).exists():
            raise MatchError("name_taken", "A league of that name exists.")
        changed = {}
        for key in LEAGUE_SETTINGS:
            if key in settings and getattr(league, key) != settings[key]:
                changed[key] = settings[key]
                setattr(league, key, settings[key])
        league.save()
        _league_audit(league, user, "league_updated", changed=sorted(changed))
        return league


def join_league(user: AnyUser, league_id: int, team_id: int) -> Team:
    """A captain brings a team that plays in no league into this one."""
    with transaction.atomic():
        league = League.objects.filter(pk=league_id).first()
        team = Team.objects.select_for_update().filter(pk=team_id).first()
        if league is None or team is None:
            raise MatchError("no_league", "There is no such league or team.")
        if not user.is_authenticated or user.pk != team.captain_id:
            raise MatchError("not_captain", "Only the team's captain brings it into a league.")
        if team.league_id is not None:
            raise MatchError("in_a_league", "The team plays in a league already.")
        if league.teams.filter(name__iexact=team.name).exists():
            raise MatchError("name_taken", "The league has a team of that name.")
        team.league = league
        team.save(update_fields=["league"])
        return team


def _league_team(league: League, team_id: int) -> Team:
    team = league.teams.filter(pk=team_id).first()
    if team is None:
        raise MatchError("not_in_league", "The team does not play in this league.")
    return team


def add_fixture(
    league_id: int,
    user: AnyUser,
    *,
    round: int,
    home_id: int,
    away_id: int,
    scheduled_for: Any = None,
) -> Fixture:
    """The GM schedules one fixture by hand."""
    with transaction.atomic():
        league = _gm_league(league_id, user)
        home, away = _league_team(league, home_id), _league_team(league, away_id)
        if home.pk == away.pk:
            raise MatchError("same_team", "A team cannot play itself.")
        if round < 1:
            raise MatchError("malformed", "Rounds count from 1.")
        teams = [home.pk, away.pk]
        busy = league.fixtures.filter(round=round).filter(
            Q(home_id__in=teams) | Q(away_id__in=teams)
        )
        if busy.exists():
            raise MatchError("busy", "A team already plays in that round.")
        fixture = Fixture.objects.create(
            league=league, round=round, home=home, away=away, scheduled_for=scheduled_for
        )
        _league_audit(league, user, "fixture_added", round=round, home=home.name, away=away.name)
        return fixture


def generate_round_robin(
    league_id: int, user: AnyUser, *, first_date: Any = None, days_between: int = 7
) -> list[Fixture]:
    """Every team of the league meets every other once, in rounds after the scheduled ones."""
    with transaction.atomic():
        league = _gm_league(league_id, user)
        teams = list(league.teams.order_by("name", "pk"))
        if len(teams) < 2:
            raise MatchError("too_few_teams", "A season needs at least two teams.")
        after = league.fixtures.aggregate(n=Max("round"))["n"] or 0
        fixtures = []
        for index, pairs in enumerate(leagues.round_robin([t.pk for t in teams])):
            day = first_date + timedelta(days=days_between * index) if first_date else None
            for home_id, away_id in pairs:
                fixtures.append(
                    Fixture.objects.create(
                        league=league,
                        round=after + index + 1,
                        home_id=home_id,
                        away_id=away_id,
                        scheduled_for=day,
                    )
                )
        _league_audit(league, user, "round_robin", teams=len(teams), fixtures=len(fixtures))
        return fixtures


def start_fixture(fixture_id: int, user: AnyUser) -> Match:
    """The GM opens the match of a fixture; the league's GM runs it."""
    with transaction.atomic():
        fixture = Fixture.objects.select_for_update().filter(pk=fixture_id).first()
        if fixture is None:
            raise MatchError("no_fixture", "There is no such fixture.")
        league = _gm_league(fixture.league_id, user)
        if fixture.match_id is not None:
            raise MatchError("started", "The fixture's match exists already.")
        match = create_match(home=fixture.home, away=fixture.away, gm=league.gm, league=league)
        fixture.match = match
        fixture.save(update_fields=["match"])
        AuditEntry.objects.create(
            league=league, match=match, gm_id=_pk(user), action="fixture_started", data={}
        )
        return match
