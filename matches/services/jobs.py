"""jobs: the one way the services queue a Celery task.

A task is named, not imported: ``matches.tasks`` calls the services, so the services reach
its tasks through Celery's registry (``MatchesConfig.ready`` registers them), and no import
circle ties the two. Every task goes out once the transaction commits (in a batch of the
sweep, with the batch's one message), so nobody hears of a change that was rolled back.
"""

import logging
from collections.abc import Callable
from typing import Any

from django.db import models, transaction
from kombu.exceptions import OperationalError as BrokerError

from bbweb.celery import app
from matches.models import Match
from matches.services import buffer

log = logging.getLogger(__name__)

NOTIFY = "matches.tasks.notify"
NOTIFY_DECISION = "matches.tasks.notify_decision"
NOTIFY_TURN = "matches.tasks.notify_turn"
NOTIFY_MENTIONS = "matches.tasks.notify_mentions"
ADJUDICATE_BLITZ = "matches.tasks.adjudicate_blitz"
ENQUEUE_ALL = "matches.tasks.enqueue_all"


def notify_on_commit(kind: str, match: Match, actors: list[str], key: str, **context: Any) -> None:
    enqueue_on_commit(NOTIFY, kind, match.pk, actors, f"{kind}:{match.pk}:{key}", context)


def enqueue_on_commit(task: str, *args: Any) -> None:
    """Queue the task named ``task`` once the transaction commits. A row among ``args`` stands
    for its primary key, read then (a row of the sweep's batch has none before its bulk
    insert)."""
    writes = buffer.current()
    if writes is not None:
        writes.later(task, args)
    else:
        transaction.on_commit(_enqueuer(task, args))


def _enqueuer(task: str, args: tuple[Any, ...]) -> Callable[[], None]:
    def enqueue() -> None:
        # With the broker down the change stands: deadlines live in the database and the next
        # sweep applies them; only this notice or task is lost, and that is logged.
        values = tuple(arg.pk if isinstance(arg, models.Model) else arg for arg in args)
        try:
            app.tasks[task].apply_async(values, retry=False)
        except (BrokerError, OSError, RuntimeError):
            log.warning("could not enqueue %s%r", task, values, exc_info=True)

    return enqueue
