"""The transactional outbox: Celery tasks handed over so that no request waits on the broker
and no task is lost while it is down.

``enqueue`` writes a row in the caller's transaction: the task exists exactly when the change
that calls for it is committed. Once committed, the row is published at once, best effort with
the short broker timeouts of settings.py; when the broker fails, the process stops trying for
``QUIET`` seconds (so a broker that is down costs one request one timeout, not every request)
and ``relay``, run by beat every few seconds, sends what is left once the broker is back.

A row is sent once: the writer holds a claim (``claimed_until``) from the start, the relay takes
only unclaimed rows with compare-and-set, and whoever published marks it sent under its own
claim. A process that dies between the publish and the mark leaves a claim that expires, and
the row is sent again: every task sent this way is idempotent (notices carry keys, deadlines
are applied under the match's lock).
"""

import logging
import time
from datetime import timedelta
from typing import Any

from celery import current_app
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from bbweb.models import OutboxMessage

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=60)  # far longer than a publish under the broker's timeouts
QUIET = 10.0
KEEP_SENT = timedelta(days=1)
_quiet_until = 0.0


def enqueue(task: str, args: list[Any] | tuple[Any, ...]) -> OutboxMessage:
    """Send the task named ``task`` with ``args`` (JSON) once the transaction commits."""
    quiet = time.monotonic() < _quiet_until
    row = OutboxMessage.objects.create(
        task=task, args=list(args), claimed_until=None if quiet else timezone.now() + LEASE
    )
    if not quiet:
        transaction.on_commit(lambda: _publish_claimed(row))
    return row


def relay(limit: int = 500) -> int:
    """Send the rows nobody holds, oldest first, until the broker fails; how many were sent."""
    sent = 0
    now = timezone.now()
    waiting = (
        OutboxMessage.objects.filter(sent_at__isnull=True)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .order_by("pk")[:limit]
    )
    for row in waiting:
        claim = timezone.now() + LEASE
        taken = (
            OutboxMessage.objects.filter(pk=row.pk, sent_at__isnull=True)
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
            .update(claimed_until=claim, attempts=F("attempts") + 1)
        )
        if not taken:
            continue  # another relay or the writer got there first
        row.claimed_until = claim
        if not _publish(row):
            break
        sent += 1
    OutboxMessage.objects.filter(sent_at__lt=now - KEEP_SENT).delete()
    return sent


def _publish_claimed(row: OutboxMessage) -> None:
    global _quiet_until
    if time.monotonic() < _quiet_until:
        OutboxMessage.objects.filter(pk=row.pk, claimed_until=row.claimed_until).update(
            claimed_until=None
        )
    elif not _publish(row):
        _quiet_until = time.monotonic() + QUIET


def _publish(row: OutboxMessage) -> bool:
    """Publish a row this process claimed; False (and the claim given back) when the broker
    failed it."""
    try:
        _send(row)
    except (BrokerError, OSError) as error:
        log.warning("broker unavailable, %s waits in the outbox: %s", row, error)
        OutboxMessage.objects.filter(pk=row.pk, claimed_until=row.claimed_until).update(
            claimed_until=None
        )
        return False
    OutboxMessage.objects.filter(pk=row.pk, claimed_until=row.claimed_until).update(
        sent_at=timezone.now()
    )
    return True


def _send(row: OutboxMessage) -> None:
    if row.task not in current_app.tasks:
        current_app.loader.import_default_modules()  # the apps' tasks, outside a worker
    current_app.tasks[row.task].apply_async(
        row.args, task_id=f"outbox-{row.pk}", retry=False, ignore_result=True
    )
