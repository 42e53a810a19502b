"""The only write path of matches: every change of a match goes through a function here.

Each function takes the match row FOR UPDATE, asks the rules engine, appends the events and
the thread's posts, saves the new state with a bumped version, and schedules side effects with
``transaction.on_commit``. A request carrying an idempotency key the same user already used
is answered with what it did the first time and changes nothing.
"""

import re
import secrets
from collections import Counter
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from bbweb.roles import is_game_master
from matches import economy, tasks
from matches.markup import render_markdown
from matches.models import (
    Advancement,
    Deadline,
    Decision,
    Match,
    MatchEvent,
    PlayerMatchRecord,
    Post,
    Sequence,
    TeamMatchRecord,
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
)
from teams import advancement, rosters
from teams import services as team_services
from teams.models import League, Player, Team

GENESIS_HASH = "0" * 64
SYSTEM_ACTOR = "home:captain"  # start_match may be posted by any coach; the server does it
DEFAULT_DECISION_HOURS = 12
DEFAULT_TURN_HOURS = 48
EDIT_WINDOW = timedelta(minutes=15)
MENTION = re.compile(r"(?<![\w@/:.])@([\w.+-]+)")
IDEMPOTENCY_KEY_LENGTH = 64  # Post.idempotency_key
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
    """A site GM schedules any two teams; a league's GM two teams of that league."""
    if is_game_master(user):
        return True
    league = home.league if home.league_id == away.league_id else None
    return league is not None and user.is_authenticated and league.gm_id == user.pk


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
        return _apply_answer(match, state, pending, choice, user, idempotency_key)


def apply_default(match_id: int, decision_id: int) -> Outcome | None:
    """The decision's deadline passed: the server answers with its default (once)."""
    with transaction.atomic():
        match = _locked(match_id)
        state = load_state(match)
        decision = Decision.objects.filter(
            pk=decision_id, match=match, answered_at__isnull=True
        ).first()
        if decision is None or state.pending is None:
            return None
        return _apply_answer(match, state, state.pending, decision.default, None, "")


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
        if post.kind in (Post.Kind.SYSTEM, Post.Kind.DECISION):
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
    open_decisions = Decision.objects.filter(match=match, answered_at__isnull=True)
    asked = open_decisions.exclude(post=None).select_related("post").first()
    open_decisions.update(
        answered_at=timezone.now(),
        answer=choice,
        answered_by=user if user is not None and user.is_authenticated else None,
    )
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
    ``post`` is the declaration's own post, which its events and questions point to."""
    decision = None
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
    match.state = resolution.state.to_json(compact=True)
    _touch(match)
    return decision


def _open_decision(match: Match, resolution: Resolution, post: Post) -> Decision:
    pending = resolution.pending
    assert pending is not None
    hours = match.league.decision_deadline_hours if match.league else DEFAULT_DECISION_HOURS
    decision = Decision.objects.create(
        match=match,
        post=post,
        kind=pending.kind,
        to=pending.to,
        options=list(pending.options),
        default=pending.default,
        preview=[event.to_json() for event in resolution.events],
        deadline_at=timezone.now() + timedelta(hours=hours),
    )
    transaction.on_commit(lambda: tasks.notify_decision.delay(decision.pk))
    return decision


def _after_resolution(match: Match, before: MatchState, after: MatchState) -> None:
    if after.phase == "finished":
        match.status = Match.Status.POST_MATCH
        match.turn_deadline_at = None
        _begin_post_match(match, after)
        return
    if (after.active, after.turn[after.active]) != (before.active, before.turn[before.active]):
        hours = match.league.turn_deadline_hours if match.league else DEFAULT_TURN_HOURS
        match.turn_deadline_at = timezone.now() + timedelta(hours=hours)
        match_pk = match.pk
        transaction.on_commit(lambda: tasks.notify_turn.delay(match_pk))


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
    heads = _heads(match)
    post = Post.objects.create(
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
    return _append_events(match, state, [(type, data)], post)[0]


def _append_events(
    match: Match, state: MatchState, events: list[tuple[str, dict[str, Any]]], post: Post | None
) -> list[MatchEvent]:
    """Events at the end of the match's hash chain, in one insert."""
    heads = _heads(match)
    rows = []
    for type, data in events:
        number = heads.event + 1
        digest = MatchEvent.chain_hash(heads.hash, number, type, data)
        rows.append(
            MatchEvent(
                match=match,
                number=number,
                type=type,
                data=data,
                half=state.half,
                turn=state.turn.get(state.active, 0),
                post=post,
                prev_hash=heads.hash,
                hash=digest,
            )
        )
        heads.event, heads.hash = number, digest
    return MatchEvent.objects.bulk_create(rows)


def expire_deadlines(limit: int = 100) -> int:
    """Apply every deadline that has passed, each exactly once; returns how many were applied.

    Rows are taken with SKIP LOCKED so that two sweeps running at once share the work
    instead of applying a deadline twice.
    """
    applied = 0
    with transaction.atomic():
        due = (
            Deadline.objects.select_for_update(skip_locked=True)
            .filter(applied_at__isnull=True, deadline_at__lte=timezone.now())
            .order_by("deadline_at")[:limit]
        )
        for deadline in due:
            deadline.applied_at = timezone.now()
            deadline.save(update_fields=["applied_at"])
            applied += 1
    return applied


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


def _roll(match: Match, seq: Sequence, sides: int) -> int:
    face = sequence_dice(match).face(seq.dice_used, sides)
    seq.dice_used += 1
    return face


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


def _check_side_coach(match: Match, team: Team, user: AnyUser, side: str) -> None:
    if side not in ("captain", "rival"):
        raise MatchError("malformed", "A side is the captain's or the rival's.")
    if not team.controls(user, side):
        if not actors_for(match, user):
            raise MatchError("not_in_match", "Only the coaches of the teams decide this.")
        raise MatchError("not_your_side", "Only that side's coach decides this.")


def _check_captain_of(match: Match, team: Team, user: AnyUser) -> None:
    if not (user.is_authenticated and user.pk == team.captain_id):
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
    """The team sheet with what the inducements change that the engine already knows: extra
    team rerolls, an apothecary, star players and mercenaries."""
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
        extra.append(PlayerSheet(pid, number, ma, st, ag, av, skills, STAR_SIDE, name, kind))
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
        skills = (*pos.skills, "Loner", *((gamedata.skill(merc.skill).name,) if merc.skill else ()))
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
        rerolls=sheet.rerolls + counts.get("extra_training", 0),
        apothecary=sheet.apothecary or counts.get("wandering_apothecary", 0) > 0,
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
    _post_opening_rolls(match, records, opening)


def _post_opening_rolls(
    match: Match, records: dict[str, TeamMatchRecord], opening: Resolution
) -> None:
    fans: dict[str, dict[str, Any]] = {}
    for event in opening.events:
        if event.type == "weather":
            _step_post(match, "weather", faces=event.data["faces"], result=event.data["result"])
        elif event.type == "fans":
            fans[str(event.data["team"])] = {
                "faces": event.data["faces"],
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
        record.winnings_dice = [_roll(match, seq, 6)]
        record.winnings_reroll = None if record.result == economy.WIN else False
        team = _team(match, key)
        dice = [_roll(match, seq, 6) for _ in range(economy.fan_factor_dice(record.result))]
        record.fan_factor_dice = dice
        record.fan_factor_change = economy.fan_factor_change(
            team.fan_factor, record.result, sum(dice)
        )
        record.save()
    _record_players(match, state)
    _step_post(match, "result", winner=winner, score=dict(score), by=result.get("by", ""))
    _step_post(
        match,
        "winnings_dice",
        home={
            "dice": records["home"].winnings_dice,
            "fame": records["home"].fame,
            "result": records["home"].result,
        },
        away={
            "dice": records["away"].winnings_dice,
            "fame": records["away"].fame,
            "result": records["away"].result,
        },
        winner=winner,
    )
    seq.step = Sequence.Step.AWARDS
    seq.deadline_at = _step_deadline(match)
    seq.save()


def _record_players(match: Match, state: MatchState) -> None:
    found = economy.achievements(
        (t, d) for t, d in match.events.order_by("number").values_list("type", "data")
    )
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
        record.winnings_dice = [*record.winnings_dice, _roll(match, seq, 6)]
    record.save(update_fields=["winnings_reroll", "winnings_dice"])
    seq.save()
    return _step_post(
        match,
        "winnings_reroll",
        author=author,
        actor=f"{record.key}:captain" if author else "",
        team=record.key,
        reroll=bool(reroll),
        dice=record.winnings_dice,
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
        if not (user.is_authenticated and user.pk == opposing.captain_id):
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
    match: Match, record: TeamMatchRecord, mje: str, pje: str, *, author: AnyUser | None
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
            before=team.fan_factor,
            change=record.fan_factor_change,
        )
    _apply_spp_and_injuries(match, seq)


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
    dice = [_roll(match, seq, 6), _roll(match, seq, 6)]
    pending = [a.choice for a in Advancement.objects.filter(player=player, match=match)]
    gained = [*player.gained, *[c for c in pending if c]]
    options = advancement.options(player.position_data, gained, advancement.ImprovementRoll(*dice))
    Advancement.objects.create(
        match=match,
        player=player,
        dice=dice,
        options=options,
        deadline_at=_step_deadline(match),
    )
    return {"player": player.pk, "name": player.name, "side": player.side, "dice": dice}


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
        if not player.team.controls(user, player.side):
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
        choice=choice,
        value=player.value,
        default=author is None,
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
                mje = eligible[_roll(match, seq, len(eligible)) - 1]
                rest = [pid for pid in eligible if pid != mje] or [mje]
                pje = rest[_roll(match, seq, len(rest)) - 1]
                _give_awards(match, record, mje, pje, author=None)
        seq.save()
        _maybe_settle_awards(match, seq)
        return 1
    if seq.step == Sequence.Step.ADVANCEMENT:
        count = 0
        for adv in match.advancements.select_related("player").filter(
            chosen_at__isnull=True, deadline_at__lte=now
        ):
            candidates = [o for o in adv.options if not o.startswith("+")] or adv.options
            pick = candidates[_roll(match, seq, len(candidates)) - 1]
            _take_advancement(match, seq, adv, adv.player, pick, author=None)
            count += 1
        seq.save()
        return count
    seq.deadline_at = None
    seq.save()
    return 0
