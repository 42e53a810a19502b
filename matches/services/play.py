"""play: declaring actions and answering the engine's questions.

A declaration is resolved by the engine and stored once it needs no more answers, or stops at
an open decision (a standing order may answer it at once). A decision whose deadline passed
gets its default. The Blitz claim of house rule 1, contested by both sides of a team, is
settled by an opposed roll that a task makes.
"""

from datetime import timedelta
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction

from matches.models import Decision, Match, Post
from matches.services import banks, buffer, core, hooks, jobs
from matches.services.absences import record_standing_answer, standing_answer
from matches.services.actors import AnyUser, actors_for
from matches.services.clocks import (
    DEFAULT_CLAIM_WINDOW_HOURS,
    DEFAULT_DECISION_HOURS,
    deadline_from,
    run_turn_clock,
    start_turn_clock,
)
from matches.services.clockwork import warnings_already_due
from matches.services.core import (
    MatchError,
    Outcome,
    already_done,
    append_events,
    load_state,
    locked_match,
    new_post,
    refuse_if_illegal,
    require_in_play,
    require_readable,
    require_version,
    store_state,
    touch,
)
from matches.services.notices import notify_mentions
from matches.services.postmatch import begin_post_match
from rules.engine import (
    Answer,
    Declaration,
    InvalidAnswer,
    MatchState,
    Pending,
    Resolution,
    check_answer,
    legal,
    resolve,
)
from teams.models import League

# A contested Blitz claim is rolled by a task at once; if that task is lost, the sweep rolls
# it after this grace.
CONTEST_GRACE = timedelta(minutes=1)


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
        match = locked_match(match_id)
        require_readable(match, user)
        replay = already_done(match, user, idempotency_key)
        if replay is not None:
            return replay
        require_in_play(match)
        require_version(match, version)
        try:
            decl = Declaration.from_json(declaration)
        except ValueError as error:
            raise MatchError("malformed", str(error)) from None
        state = load_state(match)
        actor = _actor_for(match, state, user, decl, side)
        refuse_if_illegal(legal(state, actor, decl))
        resolution = resolve(state, actor, decl, (), core.dice_for(match))
        post = new_post(
            match,
            state,
            kind=Post.Kind.DECLARATION,
            author=user,
            actor=actor,
            declaration=decl.to_json(),
            text=text,
            idempotency_key=idempotency_key,
            with_events=True,
        )
        decision = settle_resolution(match, state, actor, decl, (), resolution, post)
        notify_mentions(match, post)
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
        match = locked_match(match_id)
        require_readable(match, user)
        replay = already_done(match, user, idempotency_key)
        if replay is not None:
            return replay
        require_in_play(match)
        require_version(match, version)
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
        match = locked_match(match_id)
        decision = Decision.objects.filter(
            pk=decision_id, match=match, answered_at__isnull=True
        ).first()
        if decision is None or match.paused or match.locked:
            return None
        return default_decision(match, decision)


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
    refuse_if_illegal(problem)
    decl = Declaration.from_json(pending.declaration or {})
    answers = (*(Answer.from_json(a) for a in pending.answers), given)
    try:
        resolution = resolve(state, pending.actor, decl, answers, core.dice_for(match))
    except InvalidAnswer as error:
        raise MatchError(error.args[0].code, error.args[0].message) from None
    if post is None:
        post = new_post(
            match,
            state,
            kind=Post.Kind.DECISION,
            author=user if user is not None and user.is_authenticated else None,
            actor=pending.to,
            declaration={"kind": pending.kind, "choice": choice, "default": user is None},
            idempotency_key=idempotency_key,
            with_events=True,  # written with the decisions it closes, below
        )
    asked = _answer_open_decisions(
        match,
        post,
        answered_at=core.now(),
        answer=choice,
        answered_by=user if user is not None and user.is_authenticated else None,
        answered_how=how,
    )
    origin = asked if asked is not None else post
    decision = settle_resolution(match, state, pending.actor, decl, answers, resolution, origin)
    return Outcome(post, decision)


def _answer_open_decisions(match: Match, answer_post: Post, **answer: Any) -> Post | None:
    """Close every open decision of the match with ``answer`` and write ``answer_post`` if it
    waits to be written: with the match's changes where they can wait, else now. Returns the
    post of the decision the thread asked (the declaration's post), which the answer's events
    point to."""
    writes = buffer.current()
    if writes is not None:
        asked = writes.answer_open(**answer)
        core.saved(answer_post)
        return asked.post if asked is not None else None
    if core.waits_on_match(match):
        match._unwritten_answer = answer  # type: ignore[attr-defined]
        if core.waits_for_events(answer_post):
            del answer_post._waits_for_events  # type: ignore[attr-defined]
            match.__dict__.setdefault("_unwritten_posts", []).append(answer_post)
        asked_post = match.asked_in_post  # type: ignore[attr-defined]  # read with the lock
    else:
        core.saved(answer_post)
        db = connections[DEFAULT_DB_ALIAS]
        close, params = core.close_open_decisions(match, answer, db)
        with db.cursor() as cursor:
            # One statement that closes them and names them, where the ORM read, then updated.
            cursor.execute(f"{close} RETURNING id, post_id", params)
            asked = min((row for row in cursor.fetchall() if row[1] is not None), default=None)
        asked_post = asked[1] if asked is not None else None
    # The post's key is all the answer's events and questions need of it.
    return Post(pk=asked_post, match=match) if asked_post is not None else None


def settle_resolution(
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
    ``post`` is the declaration's own post, which its events and questions point to (written
    with the events when it waits for them)."""
    decision = None
    while resolution.pending is not None:
        ordered = standing_answer(match, resolution)
        if ordered is None:
            break
        record_standing_answer(match, before, resolution.pending, ordered, post)
        answers = (*answers, Answer(resolution.pending.kind, ordered))
        resolution = resolve(before, actor, decl, answers, core.dice_for(match))
    if resolution.pending is not None:
        decision = _open_decision(match, resolution, post)  # written with the post if it waits
    else:
        record = {
            "actor": actor,
            "declaration": decl.to_json(),
            "answers": [a.to_json() for a in answers],
            "dice_from": before.dice_used,
            "dice_to": resolution.state.dice_used,
        }
        events = [(event.type, event.data) for event in resolution.events]
        append_events(match, before, [("declaration", record), *events], post)
        _after_resolution(match, before, resolution.state)
    run_turn_clock(match, paused=decision is not None, state=resolution.state)
    store_state(match, resolution.state)
    touch(match)
    return decision


def _open_decision(match: Match, resolution: Resolution, post: Post) -> Decision:
    pending = resolution.pending
    assert pending is not None
    league = match.league
    if pending.kind == "blitz_claim":
        hours = league.blitz_claim_window_hours if league else DEFAULT_CLAIM_WINDOW_HOURS
    else:
        hours = league.decision_deadline_hours if league else DEFAULT_DECISION_HOURS
    now = core.now()
    deadline = deadline_from(match, [pending.to], now, timedelta(hours=hours))
    if banks.uses_bank(match):
        if pending.kind == "blitz_claim":  # a window for the other team, not anyone's time
            banks.stop_all(match)
        else:
            deadline = banks.follow(match, resolution.state, asked=pending.to) or deadline
    decision = core.insert_with_match(
        match,
        Decision(
            match=match,
            post=post,
            kind=pending.kind,
            to=pending.to,
            options=list(pending.options),
            default=default_answer(match, pending),
            preview=[event.to_json() for event in resolution.events],
            deadline_at=deadline,
            warnings_sent=warnings_already_due(deadline - now),
        ),
    )
    jobs.enqueue_with_match(match, jobs.NOTIFY_DECISION, decision)
    side = pending.to.partition(":")[0]
    hooks.announce_match(match, "decision_waiting", f"{post.number}", side=side, kind=pending.kind)
    return decision


def _after_resolution(match: Match, before: MatchState, after: MatchState) -> None:
    if after.phase == "finished":
        core.write_waiting(match)  # the post-match tallies them
        match.status = Match.Status.POST_MATCH
        match.turn_deadline_at = None
        match.turn_time_left = None
        begin_post_match(match, after)
        hooks.announce_match(match, "match_result", "final", result=after.result or {})
        return
    new_turn = (after.active, after.turn[after.active]) != (
        before.active,
        before.turn[before.active],
    )
    if new_turn or after.phase != before.phase:
        start_turn_clock(match, after)
    if new_turn:
        # Keyed now: a retry that runs once the match has moved on still finds this notice.
        team = after.active
        jobs.enqueue_with_match(
            match, jobs.NOTIFY_TURN, match.pk, after.half, team, after.turn[team]
        )
        _announce_turn(match, before, after)


def _announce_turn(match: Match, before: MatchState, after: MatchState) -> None:
    ended = f"{before.half}:{before.active}:{before.turn[before.active]}"
    turn = before.turn[before.active]
    hooks.announce_match(match, "turn_posted", ended, side=before.active, turn=turn)
    begun = f"{after.half}:{after.active}:{after.turn[after.active]}"
    hooks.announce_match(match, "turn_begins", begun, side=after.active)


def default_decision(match: Match, decision: Decision) -> Outcome | None:
    """Answer an open decision as its deadline says (the match is locked)."""
    state = load_state(match)
    pending = state.pending
    if pending is None or pending.kind != decision.kind:
        # A row the state no longer waits for: close it so the sweep stops finding it.
        _update_decision(decision, answered_at=core.now(), answered_how=Decision.AnsweredBy.DEFAULT)
        return None
    if pending.kind == "blitz_claim":
        if decision.contested_at is None:
            return _contest_blitz(match, state, None, "")
        return _adjudicate(match, state, decision)
    choice = default_answer(match, pending)
    post = new_post(
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
    jobs.notify_on_commit(
        "applied", match, [pending.to], f"decision:{decision.pk}", what=pending.kind
    )
    return outcome


def _update_decision(decision: Decision, **values: Any) -> None:
    writes = buffer.current()
    if writes is not None:
        writes.update(decision, **values)
    else:
        Decision.objects.filter(pk=decision.pk).update(**values)


def default_answer(match: Match, pending: Pending) -> Any:
    """What silence answers: the one source of the default that coaches are shown (the page,
    the API, the e-mail, the decision's row) and that the deadline applies. The engine's
    default (no reroll, the chooser's best block die, the first push square, no follow-up, no
    interception, no apothecary), but a rival's reroll request follows the league's setting:
    approved unless the league says otherwise (house rule 5)."""
    if pending.kind == "reroll_approval" and match.league is not None:
        refuse = match.league.reroll_approval_default == League.RerollApproval.REFUSE
        return "deny" if refuse else "approve"
    return pending.default


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
    now = core.now()
    decision.contested_at = now
    decision.deadline_at = now + CONTEST_GRACE
    decision.save(update_fields=["contested_at", "deadline_at"])
    by_coach = user is not None and user.is_authenticated
    post = new_post(
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
    touch(match)
    jobs.enqueue_on_commit(jobs.ADJUDICATE_BLITZ, decision.pk)
    return Outcome(post, decision)


def adjudicate_blitz(decision_id: int) -> Outcome | None:
    """The opposed roll of a contested Blitz claim, once: None when it was already made."""
    match_id = Decision.objects.filter(pk=decision_id).values_list("match_id", flat=True).first()
    if match_id is None:
        return None
    with transaction.atomic():
        match = locked_match(match_id)
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
    post = new_post(match, state, kind=Post.Kind.SYSTEM, summary={"message": "blitz_contest"})
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
        jobs.notify_on_commit(
            "contest",
            match,
            [f"{team}:captain", f"{team}:rival"],
            f"contest:{decision.pk}",
            **{k: post.summary[k] for k in ("rival", "captain", "rival_total", "captain_total")},
            winner=data["result"],
        )
    return outcome
