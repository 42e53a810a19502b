"""jobs: the one way the services queue a Celery task.

A task is named, not imported: ``matches.tasks`` calls the services, so the services reach
its tasks through Celery's registry (``MatchesConfig.ready`` registers them), and no import
circle ties the two. Every task goes out once the transaction commits (in a batch of the
sweep, with the batch's one message), so nobody hears of a change that was rolled back.
"""

from typing import Any

from django.db import models

from bbweb import outbox
from matches.models import Match
from matches.services import buffer, core

NOTIFY = "matches.tasks.notify"
NOTIFY_DECISION = "matches.tasks.notify_decision"
NOTIFY_TURN = "matches.tasks.notify_turn"
NOTIFY_MENTIONS = "matches.tasks.notify_mentions"
REMIND = "matches.tasks.remind"
ADJUDICATE_BLITZ = "matches.tasks.adjudicate_blitz"
ENQUEUE_ALL = "matches.tasks.enqueue_all"
# Published as soon as the change commits: the coaches wait at the screen for the contest's
# roll. Every other task (notices, the sweep's fan-out) goes with the outbox's relay within
# seconds, so that a request never talks to the broker for it.
AT_ONCE = frozenset({ADJUDICATE_BLITZ})


def notify_on_commit(kind: str, match: Match, actors: list[str], key: str, **context: Any) -> None:
    enqueue_on_commit(NOTIFY, kind, match.pk, actors, f"{kind}:{match.pk}:{key}", context)


def enqueue_with_match(match: Match, task: str, *args: Any) -> None:
    """As ``enqueue_on_commit``, for a task that a change of ``match`` calls for, in the middle
    of a service that ends by saving the match (``core._touch``): on PostgreSQL its row waits
    on the match and goes in the match's own UPDATE statement, one round trip less."""
    if task not in AT_ONCE and core.waits_on_match(match):
        # A row among the arguments stays a row: one waiting on the match has no key yet.
        match.__dict__.setdefault("_unwritten_tasks", []).append((task, list(args)))
    else:
        enqueue_on_commit(task, *args)


def enqueue_on_commit(task: str, *args: Any) -> None:
    """Queue the task named ``task`` through the outbox (bbweb/outbox.py): written in this
    transaction, sent once it commits (see ``AT_ONCE``), never waited for nor lost when the
    broker is down. A row among ``args`` stands for its primary key (a row of the sweep's batch
    has none before its bulk insert: the batch queues its tasks once they are written)."""
    writes = buffer.current()
    if writes is not None:
        writes.later(task, args)
    else:
        outbox.enqueue(
            task,
            [arg.pk if isinstance(arg, models.Model) else arg for arg in args],
            at_once=task in AT_ONCE,
        )
