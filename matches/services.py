"""The only write path of matches: every change of a match goes through a function here.

Each function takes the match row FOR UPDATE, asks the rules engine, appends the events and
the thread's posts, saves the new state with a bumped version, and schedules side effects with
``transaction.on_commit``. A request carrying an idempotency key the same user already used
is answered with what it did the first time and changes nothing.
"""

import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from bbweb.roles import is_game_master
from matches import tasks
from matches.markup import render_markdown
from matches.models import Deadline, Decision, Match, MatchEvent, Post
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
)
from teams.models import League, Team

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
    Decision.objects.filter(match=match, answered_at__isnull=True).update(
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
    or the question it stopped at (the state stays as it was, with the question pending)."""
    decision = None
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
    match.state = resolution.state.to_json(compact=True)
    _touch(match)
    return decision


def _open_decision(match: Match, resolution: Resolution) -> Decision:
    pending = resolution.pending
    assert pending is not None
    hours = match.league.decision_deadline_hours if match.league else DEFAULT_DECISION_HOURS
    decision = Decision.objects.create(
        match=match,
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
    last = match.events.order_by("-number").values_list("number", "hash").first()
    number, prev_hash = (last[0] + 1, last[1]) if last else (1, GENESIS_HASH)
    return MatchEvent.objects.create(
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
