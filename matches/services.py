"""The only write path of matches: every change of a match goes through a function here.

Each function takes the match row FOR UPDATE, asks the rules engine, appends the events and
the thread's posts, saves the new state with a bumped version, and schedules side effects with
``transaction.on_commit``. A request carrying an idempotency key the same user already used
is answered with what it did the first time and changes nothing.
"""

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from bbweb.roles import is_game_master
from matches import leagues, tasks
from matches.leagues import undone_numbers
from matches.markup import render_markdown
from matches.models import AuditEntry, Deadline, Decision, Dispute, Fixture, Match, MatchEvent, Post
from matches.rosters import lineup, team_sheet
from rules.engine import (
    Answer,
    Declaration,
    Dice,
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
        return _apply_answer(match, state, pending, choice, user, idempotency_key)


def apply_default(match_id: int, decision_id: int) -> Outcome | None:
    """The decision's deadline passed: the server answers with its default (once)."""
    with transaction.atomic():
        match = _locked(match_id)
        state = load_state(match)
        decision = Decision.objects.filter(
            pk=decision_id, match=match, answered_at__isnull=True
        ).first()
        if decision is None or state.pending is None or match.paused or match.locked:
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
        return post


# -- folding the record ----------------------------------------------------------------------------


def fold(match: Match) -> MatchState:
    """The state rebuilt from the events alone: the first state, then every declaration
    resolved again with its answers from the same dice stream, and every GM ruling applied.
    Events a rewind undid stay in the record and are skipped."""
    return _fold_events(match, list(match.events.order_by("number")))


def _fold_events(
    match: Match, events: list[MatchEvent], also_undone: frozenset[int] = frozenset()
) -> MatchState:
    dice = dice_for(match)
    undone = undone_numbers(events) | also_undone
    state: MatchState | None = None
    for event in events:
        if event.number in undone:
            continue
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
        elif event.type in RULING_EVENTS and state is not None:
            state = _replay_ruling(state, event, dice)
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
    try:
        return (
            Match.objects.select_for_update(of=("self",))
            .select_related("home_team", "away_team", "league")
            .get(pk=match_id)
        )
    except Match.DoesNotExist:
        raise MatchError("no_match", "There is no such match.") from None


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


# -- game masters: disputes and rulings ----------------------------------------------------------
#
# Every ruling is an event of the match with the GM's note, a system post in the thread and an
# entry of the audit log. Rulings that change the game (rewind, reroll, correction, award,
# match_ended) are applied by ``fold`` like declarations; the state is then rebuilt from the
# events, never patched. A rewind or a re-roll lists in its data the events it undid (they stay
# in the record) and moves the dice stream forward past every index already read, so that no
# roll is ever read twice for a different purpose.

ACTING_EVENTS = frozenset(("declaration", "granted_reroll"))
RULING_EVENTS = frozenset(("rewind", "granted_reroll", "correction", "award", "match_ended"))
REWINDABLE = ACTING_EVENTS | frozenset(("correction", "award", "match_ended"))
# What happened around the play (disputes, the clocks, the coaches) is never undone.
AROUND_PLAY = frozenset(
    (
        "dispute_raised",
        "dismissed",
        "upheld",
        "deadline_extended",
        "deadline_set",
        "paused",
        "resumed",
        "locked",
        "unlocked",
        "coach_replaced",
        "match_closed",
    )
)
CORRECTABLE = frozenset(("state", "at"))
ON_PITCH = frozenset(("standing", "prone", "stunned"))
NOTE_MAX = 2000


class SplicedDice:
    """The dice of a granted re-roll. The engine reads indexes ``start, start + 1, ...``: the
    first ones are the rolls made before the disputed one, read again from the indexes they
    came from (``keep``); the disputed roll and every later one come from ``new_from`` on, a
    part of the stream nobody has seen."""

    def __init__(self, base: Dice, start: int, keep: list[int], new_from: int) -> None:
        self.base = base
        self.start = start
        self.keep = keep
        self.new_from = new_from

    def actual(self, index: int) -> int:
        i = index - self.start
        return self.keep[i] if i < len(self.keep) else self.new_from + i - len(self.keep)

    def face(self, index: int, sides: int) -> int:
        return self.base.face(self.actual(index), sides)


def _replay_ruling(state: MatchState, event: MatchEvent, dice: Dice) -> MatchState:
    data = event.data
    if event.type == "rewind":
        rewound = state.copy()
        rewound.pending = None
        rewound.dice_used = data["dice_used"]
        return rewound
    if event.type == "granted_reroll":
        spliced = SplicedDice(dice, state.dice_used, data["keep"], data["new_from"])
        resolution = resolve(
            state,
            data["actor"],
            Declaration.from_json(data["declaration"]),
            tuple(Answer.from_json(a) for a in data["answers"]),
            spliced,
        )
        after = resolution.state
        after.dice_used = spliced.actual(after.dice_used)
        return after
    if event.type == "correction":
        return _corrected(state, data["player"], data["changes"])
    if event.type == "award":
        return _finished(state, data["winner"], data["score"], "award")
    leader = _leader(state.score)
    return _finished(state, leader, state.score, "gm")


def _leader(score: dict[str, int]) -> str | None:
    if score["home"] == score["away"]:
        return None
    return "home" if score["home"] > score["away"] else "away"


def _finished(state: MatchState, winner: str | None, score: dict[str, int], by: str) -> MatchState:
    done = state.copy()
    done.pending = None
    done.phase = "finished"
    done.score = {"home": int(score["home"]), "away": int(score["away"])}
    done.result = {"winner": winner, "score": dict(done.score), "by": by}
    return done


def _corrected(state: MatchState, player: str, changes: dict[str, Any]) -> MatchState:
    """The state with one player's state or square changed (raises ValueError if illegal)."""
    data = state.to_json()
    if player not in data["players"]:
        raise ValueError(f"There is no player {player}.")
    if not set(changes) <= CORRECTABLE or not changes:
        raise ValueError("A correction changes a player's state or square.")
    shown = data["players"][player]
    shown.update(changes)
    if shown["state"] not in ON_PITCH:
        shown["at"] = None
    if data["ball"]["carrier"] == player:
        if shown["state"] != "standing" or shown["at"] is None:
            raise ValueError("The ball carrier must stay standing on the pitch.")
        data["ball"]["at"] = shown["at"]
    return MatchState.from_json(data)


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


def _live(events: list[MatchEvent], number: int | None) -> MatchEvent:
    found = next((e for e in events if e.number == number), None)
    if found is None or found.number in undone_numbers(events):
        raise MatchError("no_event", "There is no such event in play.")
    return found


def _acting_event(events: list[MatchEvent], event: MatchEvent) -> MatchEvent:
    """The event to go back before: the declaration (or re-roll) whose resolution produced
    ``event``, or the ruling itself."""
    if event.type in REWINDABLE:
        return event
    undone = undone_numbers(events)
    acting = [
        e
        for e in events
        if e.type in ACTING_EVENTS
        and e.number < event.number
        and e.post_id == event.post_id
        and e.number not in undone
    ]
    if event.post_id is None or not acting:
        raise MatchError("not_rewindable", "That event is not part of the play.")
    return acting[-1]


def _taken_back(events: list[MatchEvent], target: MatchEvent) -> list[int]:
    undone = undone_numbers(events)
    return [
        e.number
        for e in events
        if e.number >= target.number and e.number not in undone and e.type not in AROUND_PLAY
    ]


def _dice_indexes(event: MatchEvent) -> list[int]:
    """The stream indexes a declaration or a re-roll read, in order."""
    data = event.data
    if event.type == "declaration":
        return list(range(data["dice_from"], data["dice_to"]))
    return [*data["keep"], *range(data["new_from"], data["dice_to"])]


def _dice_high_water(match: Match, events: list[MatchEvent]) -> int:
    """The first index of the stream nobody has seen: past every roll recorded and past the
    rolls a pending decision already showed."""
    state = load_state(match)
    high = state.dice_used
    pending = state.pending
    if pending is not None and pending.declaration is not None:
        shown = resolve(
            state,
            pending.actor,
            Declaration.from_json(pending.declaration),
            tuple(Answer.from_json(a) for a in pending.answers),
            dice_for(match),
        )
        high += shown.dice_read
    for event in events:
        high = max(high, event.data.get("dice_to", 0), event.data.get("dice_used", 0))
    return high


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
        match.status = Match.Status.POST_MATCH
        match.turn_deadline_at = None
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
    target = _acting_event(events, _live(events, number))
    gone = _taken_back(events, target)
    data = {
        "to": target.number,
        "of_event": number,
        "undone": gone,
        "dice_used": _dice_high_water(match, events),
    }
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
    roll = _live(events, number)
    if not roll.data.get("faces"):
        raise MatchError("not_a_roll", "Only a roll of the dice can be rolled again.")
    acting = _acting_event(events, roll)
    if acting.type not in ACTING_EVENTS:
        raise MatchError("not_a_roll", "Only a roll of the dice can be rolled again.")
    before = [e for e in events if acting.number < e.number < roll.number]
    read_before = sum(len(e.data.get("faces", ())) for e in before)
    answered_before = sum(1 for e in before if e.type == "decision")
    gone = _taken_back(events, acting)
    start = _fold_events(match, events, frozenset(gone))
    spliced = SplicedDice(
        dice_for(match),
        start.dice_used,
        _dice_indexes(acting)[:read_before],
        _dice_high_water(match, events),
    )
    decl = Declaration.from_json(acting.data["declaration"])
    answers = tuple(Answer.from_json(a) for a in acting.data["answers"][:answered_before])
    while True:
        resolution = resolve(start, acting.data["actor"], decl, answers, spliced)
        if resolution.pending is None:
            break
        answers = (*answers, Answer(resolution.pending.kind, resolution.pending.default))
    data = {
        "actor": acting.data["actor"],
        "declaration": acting.data["declaration"],
        "answers": [a.to_json() for a in answers],
        "of_event": roll.number,
        "to": acting.number,
        "undone": gone,
        "keep": spliced.keep,
        "new_from": spliced.new_from,
        "dice_to": spliced.actual(resolution.state.dice_used),
    }
    event = _gm_event(match, gm, "granted_reroll", data, note=note, dispute=dispute)
    for rolled in resolution.events:
        _append_event(match, start, rolled.type, rolled.data, event.post)
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
        _corrected(state, player, changes)
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
    match.turn_deadline_at = (match.turn_deadline_at or timezone.now()) + delta
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
