"""Celery tasks: idempotent, acknowledged late, with time limits. The clock itself lives in
the database; these only carry out what services decided (see DESIGN.md, background jobs)."""

import logging
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import DatabaseError

from bbweb import outbox
from matches import services
from matches.notices import digest, hooks
from matches.notices import emails as notifications
from matches.services.jobs import (
    NOTIFY,
    NOTIFY_DECISION,
    NOTIFY_MENTIONS,
    NOTIFY_TURN,
    REMIND,
)

log = logging.getLogger(__name__)


SWEEP_SOFT_LIMIT = 50
SWEEP_BUDGET = 40  # seconds: a sweep starts no batch that would end past them


@shared_task(acks_late=True, time_limit=60, soft_time_limit=SWEEP_SOFT_LIMIT)
def sweep_deadlines() -> int:
    """Beat runs this every 30 seconds; a missed run loses nothing, the next one catches up.
    One that would pass its soft time limit stops between two batches (``services.Budget``)
    and leaves the rest to the next. Returns how many deadlines were applied."""
    budget = services.Budget(SWEEP_BUDGET)
    report = services.sweep(budget=budget)
    sequences = services.expire_sequence_deadlines(budget=budget)
    services.release_lapsed_notices()
    if report.applied or report.warnings:
        log.info(
            "sweep: %d decisions and %d turns applied, %d warnings",
            report.decisions,
            report.turns,
            report.warnings,
        )
    return report.applied + sequences


@shared_task(acks_late=True, ignore_result=True, time_limit=60, soft_time_limit=50)
def enqueue_all(calls: list[tuple[str, list[Any]]]) -> None:
    """The tasks of a batch of the sweep, which it sends as one message: each goes on from
    here as an outbox row of its own, sent now by the relay, so that one the broker refuses or
    loses goes out later (bbweb/outbox.py). A second run queues them again, and each of them
    is idempotent."""
    outbox.enqueue_many(calls)
    outbox.relay()


# The tasks sent from a request ignore their results: nothing waits for them, and a result
# store that is down must not fail a post that is already committed.
@shared_task(acks_late=True, ignore_result=True, time_limit=60, soft_time_limit=50)
def adjudicate_blitz(decision_id: int) -> bool:
    """The opposed 3D6 roll of a contested Blitz claim; a second run does nothing."""
    return services.adjudicate_blitz(decision_id) is not None


# A notice retries on a database or mail error, waiting 5 s, 10 s, 20 s ... up to 5 minutes
# (jittered), about 25 minutes in all: a blip loses nothing, and a notice already sent is not
# sent again (matches.notices.emails). settings.py keeps the longest wait under the broker's
# visibility timeout (BBWEB_VISIBILITY_TIMEOUT), so a waiting retry is not delivered twice.
NOTICE_TASK: dict[str, Any] = {
    "acks_late": True,
    "ignore_result": True,
    "time_limit": 30,
    "soft_time_limit": 25,
    "autoretry_for": (DatabaseError, OSError, notifications.NotSentYet),
    "retry_backoff": 5,
    "retry_backoff_max": settings.RETRY_MAX_SECONDS,
    "retry_jitter": True,
    "max_retries": 10,
}


# Each notice task hands its own call to the notice's row (``resend``): the sweep queues it
# again when a run died holding the notice and no retry came back.
@shared_task(**NOTICE_TASK)
def notify(kind: str, match_id: int, actors: list[str], key: str, context: dict[str, Any]) -> int:
    resend = (NOTIFY, [kind, match_id, actors, key, context])
    return notifications.send(kind, match_id, actors, key, context, resend)


@shared_task(bind=True, **NOTICE_TASK)
def notify_decision(self: Task, decision_id: int) -> None:
    """Comes back once the decision has waited long enough (a coach answering on the page
    hears nothing); run eagerly, nothing could come back, so it does not wait."""
    eager = bool(self.request.is_eager)
    wait = notifications.decision_awaits(
        decision_id, (NOTIFY_DECISION, [decision_id]), wait=not eager
    )
    if wait is not None:
        raise self.retry(countdown=wait.total_seconds() + 1)


@shared_task(**NOTICE_TASK)
def notify_turn(
    match_id: int, half: int | None = None, team: str | None = None, turn: int | None = None
) -> None:
    """The notice of the team turn named when it was queued (a task queued before turns were
    named reads the match's turn as it runs)."""
    if half is None or team is None or turn is None:
        half, team, turn = notifications.current_turn(match_id)
    resend = (NOTIFY_TURN, [match_id, half, team, turn])
    notifications.turn_starts(match_id, half, team, turn, resend)


@shared_task(**NOTICE_TASK)
def notify_mentions(post_id: int) -> None:
    notifications.mentioned(post_id, (NOTIFY_MENTIONS, [post_id]))


@shared_task(**NOTICE_TASK)
def remind(user_id: int, match_id: int, deadline: str, hours: int) -> int:
    """One of the reminders a person chose before a deadline of theirs."""
    resend = (REMIND, [user_id, match_id, deadline, hours])
    key = services.reminder_key(match_id, deadline, hours)
    return notifications.remind(user_id, match_id, deadline, hours, key, resend)


@shared_task(bind=True, acks_late=True, ignore_result=True, time_limit=60, soft_time_limit=50)
def deliver_hook(self: Task, hook_id: int) -> None:
    """Send a league webhook's waiting deliveries, in order; comes back after a wait that
    doubles with each failure in a row (the hook switches itself off after
    HOOKS_FAILURE_LIMIT of them, so this ends). Run eagerly, nothing could come back."""
    wait = hooks.deliver(hook_id)
    if wait is not None and not self.request.is_eager:
        raise self.retry(countdown=wait, max_retries=None)


@shared_task(acks_late=True, ignore_result=True, time_limit=600, soft_time_limit=540)
def send_digests() -> int:
    """Beat runs this every hour: the daily digests of those whose hour it is."""
    return digest.send_digests()
