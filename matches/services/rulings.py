"""rulings: the game master's disputes, rulings and control of a match.

Every ruling is an event of the match with the GM's note, a system post in the thread and an
entry of the audit log. Rulings that change the game (rewind, reroll, correction, award,
match_ended) are applied by ``fold`` like declarations (see matches.record.folding, which the
export's verifier reads the record with too). Pausing, locking, deadlines and replacing a
coach stop or move the match's clocks.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from matches.models import AuditEntry, Decision, Dispute, Match, MatchEvent, Post
from matches.record import folding
from matches.services import banks, core, hooks, seasons
from matches.services.actors import AnyUser, actors_for, is_match_gm, user_pk
from matches.services.clocks import DEFAULT_TURN_HOURS, restart_clocks
from matches.services.clockwork import stop_clocks
from matches.services.core import (
    MatchError,
    append_event,
    fold,
    load_state,
    locked_match,
    new_post,
    touch,
)
from matches.services.postmatch import begin_post_match
from rules.engine import Answer, Declaration, MatchState, resolve

NOTE_MAX = 2000


@contextmanager
def _refusals() -> Iterator[None]:
    """A ruling the record does not allow is refused like any other request."""
    try:
        yield
    except folding.Refused as refused:
        raise MatchError(refused.code, refused.message) from None


def _gm_match(match_id: int, user: AnyUser) -> Match:
    match = locked_match(match_id)
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
    told: dict[str, Any] | None = None,
) -> MatchEvent:
    """A GM action in the record: an event, a system post carrying the note, an audit entry.
    ``told``: what the post says besides the event's data (post numbers, for the reader)."""
    state = load_state(match)
    data = {**data, "gm": gm.pk, "note": note}
    if dispute is not None:
        data["dispute"] = dispute.pk
    shown = {k: v for k, v in data.items() if k not in ("undone", "answers", "keep", "note")}
    told = {**(told or {}), **({"raised_by": dispute.raised_by.username} if dispute else {})}
    post = new_post(
        match,
        state,
        kind=Post.Kind.SYSTEM,
        author=gm,
        text=note,
        summary={"message": action, **shown, **told},
    )
    event = append_event(match, state, action, data, post)
    AuditEntry.objects.create(
        league_id=match.league_id,
        match=match,
        gm_id=user_pk(gm),
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
            core.dice_for(match),
        ).dice_read
    return folding.recorded_high_water(events, state.dice_used + shown)


def _refold(match: Match, *, restart_clock: bool = True) -> MatchState:
    """After a ruling that changes the game: the state rebuilt from the events, the open
    questions withdrawn, the status following the new state, and (after a rewind or a
    re-roll, when play goes back) a fresh turn clock."""
    state = fold(match)
    match.state = state.to_json(compact=True)
    match.thread_version += 1  # posts already shown may read otherwise now (undone events)
    Decision.objects.filter(match=match, answered_at__isnull=True).update(
        answered_at=timezone.now(), answer="withdrawn"
    )
    if state.phase == "finished":
        ending_now = match.status != Match.Status.POST_MATCH
        match.status = Match.Status.POST_MATCH
        match.turn_deadline_at = None
        if ending_now:  # an award or a GM's end leads to the winnings, SPP and injuries too
            begin_post_match(match, state)
    else:
        match.status = Match.Status.IN_PLAY
        if not restart_clock and match.turn_deadline_at is not None:
            return state
        if banks.uses_bank(match):
            banks.follow(match, state)
            if match.clock_stopped_at is not None:
                match.clock_stopped_at = timezone.now()
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
        match = locked_match(match_id)
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
            raised_by_id=user_pk(user),
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
        thread_post = new_post(
            match,
            state,
            kind=Post.Kind.SYSTEM,
            author=user,
            actor=actors[0],
            text=reason,
            summary={"message": "dispute_raised", **data},
        )
        append_event(match, state, "dispute_raised", {**data, "reason": reason}, thread_post)
        touch(match)
        side = actors[0].partition(":")[0]
        hooks.announce_match(match, "dispute_opened", str(dispute.pk), side=side)
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
            restart_clocks(match)
        touch(match)
        return event


def _rewind(
    match: Match, gm: AnyUser, number: int | None, note: str, dispute: Dispute
) -> MatchEvent:
    _require_rulable(match)
    events = list(match.events.order_by("number"))
    with _refusals():
        data = folding.rewind(events, number, _dice_high_water(match, events))
    undone = undone_posts(match, data["undone"])
    told = {**_post_numbers(events, data), "undone_posts": [p.number for p in undone]}
    event = _gm_event(match, gm, "rewind", data, note=note, dispute=dispute, told=told)
    _mark_undone(undone, event)
    _refold(match)
    return event


def undone_posts(match: Match, undone_events: list[int]) -> list[Post]:
    """The posts a ruling taking back these events undoes: the posts holding them, and the
    declarations and answers posted since the first of them (all play after it is undone)."""
    holding = list(
        match.posts.filter(events__number__in=undone_events, undone_by__isnull=True)
        .distinct()
        .order_by("number")
    )
    if not holding:
        return []
    since = match.posts.filter(
        number__gt=holding[0].number,
        kind__in=(Post.Kind.DECLARATION, Post.Kind.DECISION),
        undone_by__isnull=True,
    )
    return sorted({*holding, *since}, key=lambda post: post.number)


@dataclass(frozen=True)
class RewindPreview:
    """What a rewind to before an event would take back, for the GM to read before ruling."""

    posts: list[Post]
    rolls: list[MatchEvent]  # the undone events with dice, in order


def rewind_preview(match: Match, event_number: int) -> RewindPreview | None:
    """The posts and dice a rewind to before ``event_number`` would undo; None when the record
    does not allow that rewind. Reads only."""
    events = list(match.events.order_by("number"))
    try:
        data = folding.rewind(events, event_number, 0)
    except folding.Refused:
        return None
    undone = set(data["undone"])
    rolls = [e for e in events if e.number in undone and e.data.get("faces")]
    return RewindPreview(undone_posts(match, data["undone"]), rolls)


def _post_numbers(events: list[MatchEvent], data: dict[str, Any]) -> dict[str, Any]:
    """The post numbers of the events a ruling names: a person reads post numbers."""
    post_ids = {e.number: e.post_id for e in events}
    wanted: dict[str, int] = {}
    for key in ("to", "of_event"):
        post_id = post_ids.get(data.get(key, 0))
        if post_id is not None:
            wanted[key] = post_id
    numbers = dict(Post.objects.filter(pk__in=wanted.values()).values_list("pk", "number"))
    return {f"{key}_post": numbers[pk] for key, pk in wanted.items() if pk in numbers}


def _mark_undone(posts: list[Post], ruling: MatchEvent) -> None:
    Post.objects.filter(pk__in=[post.pk for post in posts]).update(undone_by=ruling.post)


def _grant_reroll(
    match: Match, gm: AnyUser, number: int | None, note: str, dispute: Dispute
) -> MatchEvent:
    """The disputed roll is made again with new dice; the rolls before it in the same action
    stand, everything after it is resolved anew (later questions take their defaults)."""
    _require_rulable(match)
    events = list(match.events.order_by("number"))
    with _refusals():
        high_water = _dice_high_water(match, events)
        reroll = folding.reroll(events, number, core.dice_for(match), high_water)
    undone = undone_posts(match, reroll.data["undone"])
    told = {**_post_numbers(events, reroll.data), "undone_posts": [p.number for p in undone]}
    event = _gm_event(
        match, gm, "granted_reroll", reroll.data, note=note, dispute=dispute, told=told
    )
    _mark_undone(undone, event)
    for rolled in reroll.resolution.events:
        append_event(match, reroll.start, rolled.type, rolled.data, event.post)
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
    if banks.uses_bank(match):
        banks.extend(match, delta)
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


def _pause(match: Match, gm: AnyUser, note: str, dispute: Dispute | None) -> MatchEvent:
    stop_clocks(match)
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
        touch(match)
        return event


def resume_match(match_id: int, user: AnyUser, *, note: str = "") -> MatchEvent:
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        if not match.paused:
            raise MatchError("not_paused", "The match is not paused.")
        match.paused = False
        restart_clocks(match)
        event = _gm_event(match, user, "resumed", {}, note=note)
        touch(match)
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
        stop_clocks(match)
        match.locked = True
        event = _gm_event(match, user, "locked", {}, note=note)
        touch(match)
        return event


def unlock_match(match_id: int, user: AnyUser, *, note: str = "") -> MatchEvent:
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        if not match.locked:
            raise MatchError("not_locked", "The match is not locked.")
        match.locked = False
        restart_clocks(match)
        event = _gm_event(match, user, "unlocked", {}, note=note)
        touch(match)
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
        if banks.uses_bank(match):
            banks.end_at(match, at)
        event = _gm_event(match, user, "deadline_set", {"at": at.isoformat()}, note=note)
        touch(match)
        return event


def extend_deadline(match_id: int, user: AnyUser, hours: int, *, note: str = "") -> MatchEvent:
    note = _clean_note(note)
    with transaction.atomic():
        match = _gm_match(match_id, user)
        _require_rulable(match)
        event = _extend_deadline(match, user, hours, note, None)
        touch(match)
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
        touch(match)
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
            seasons.after_finish(match)
            match.turn_deadline_at = None
        else:
            raise MatchError("not_in_play", "The match is neither in play nor in its post-match.")
        touch(match)
        return event
