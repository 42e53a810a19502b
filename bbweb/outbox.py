"""The transactional outbox: Celery tasks handed over so that no request waits on the broker
and no task is lost while it is down.

``enqueue`` writes a row in the caller's transaction: the task exists exactly when the change
that calls for it is committed. ``relay``, run by beat every few seconds (BBWEB_OUTBOX_SECONDS),
publishes the rows in a batch: a notice goes out within seconds, and the request that wrote it
never talks to the broker. A task somebody waits for at the screen (``at_once``: a Blitz
contest's roll) is published by the writer as soon as it commits, best effort with the short
broker timeouts of settings.py; when the broker fails, the process stops trying for ``QUIET``
seconds (so a broker that is down costs one request one timeout, not every request) and the
relay sends it once the broker is back.

A row is sent once: a writer publishing at once holds a claim (``claimed_until``) from the
start, the relay takes only unclaimed rows (``FOR UPDATE SKIP LOCKED``, so two relays never take
the same row), and whoever published marks it sent under its own claim. A process that dies
between the publish and the mark leaves a claim that expires, and the row is sent again: every
task sent this way is idempotent (notices carry keys, deadlines are applied under the match's
lock).

A row stays until its task says it ran to its end (``done_at``, written by the Celery signal
handlers below, in the worker); a retry moves ``sent_at`` to the time it is due back. A row sent
and not done within ``settings.OUTBOX_REPUBLISH_SECONDS`` of that is sent again: the broker
does not keep every message it took. Redis hands a message to a worker and the worker records
it as unacknowledged in a second step; a worker killed between the two loses it (the fault
drill, tools/drill.py, kills workers there). The republish delay outlasts the longest retry
wait and task, so a task that is only slow is not run twice.
"""

import json
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from celery import current_app, states
from celery.signals import task_postrun, task_retry
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from bbweb.models import OutboxMessage

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=60)  # far longer than a publish under the broker's timeouts
QUIET = 10.0
KEEP_SENT = timedelta(days=1)
TASK_ID_PREFIX = "outbox-"
_quiet_until = 0.0


def enqueue(task: str, args: list[Any] | tuple[Any, ...], *, at_once: bool = False) -> None:
    """Send the task named ``task`` with ``args`` (JSON) once the transaction commits: by the
    relay, or ``at_once`` by this process."""
    if not at_once or time.monotonic() < _quiet_until:
        _insert(task, list(args), None)
        return
    claim = timezone.now() + LEASE
    pk = _insert(task, list(args), claim)
    row = OutboxMessage(pk=pk, task=task, args=list(args), claimed_until=claim)
    transaction.on_commit(lambda: _publish_claimed(row))


def enqueue_many(tasks: list[tuple[str, list[Any]]]) -> None:
    """Rows for the relay, in one INSERT."""
    now = timezone.now()
    OutboxMessage.objects.bulk_create(
        OutboxMessage(task=task, args=list(args), created_at=now) for task, args in tasks
    )


def _insert(task: str, args: list[Any], claim: datetime | None) -> int:
    """The row, in one plain INSERT: a request writes one beside its post, and the ORM's
    create costs more than the statement."""
    db = connections[OutboxMessage.objects.db]
    with db.cursor() as cursor:
        cursor.execute(_INSERT, _prepared(task, args, timezone.now(), claim, db))
        return int(cursor.fetchone()[0])


@dataclass(frozen=True)
class KeyOf:
    """Among a task's arguments given to ``insert_statement``: the key of the row that the
    common table expression ``table`` of the same statement inserts."""

    table: str


def insert_statement(
    tasks: list[tuple[str, list[Any]]], db: BaseDatabaseWrapper
) -> tuple[str, list[Any]]:
    """The INSERT of rows for the relay (as ``enqueue`` writes them, not at once) and its
    parameters, for a writer to run within a statement of its own (PostgreSQL): a
    declaration's match UPDATE takes its notices along as a common table expression."""
    now = timezone.now()
    rows, params = [], []
    for task, args in tasks:
        task_value, args_value, created_at, claim = _prepared(task, args, now, None, db)
        if any(isinstance(arg, KeyOf) for arg in args):
            built = [f"(SELECT id FROM {a.table})" if isinstance(a, KeyOf) else "%s" for a in args]
            rows.append(f"(%s, jsonb_build_array({', '.join(built)}), %s, %s, 0)")
            plain = [json.dumps(a) for a in args if not isinstance(a, KeyOf)]
            params += [task_value, *plain, created_at, claim]
        else:
            rows.append("(%s, %s, %s, %s, 0)")
            params += [task_value, args_value, created_at, claim]
    return _INSERT.partition(" VALUES")[0] + f" VALUES {', '.join(rows)}", params


def _prepared(
    task: str,
    args: list[Any],
    created_at: datetime,
    claim: datetime | None,
    db: BaseDatabaseWrapper,
) -> list[Any]:
    values = [task, args, created_at, claim]  # as the fields write them, on any database
    return [f.get_db_prep_save(v, db) for f, v in zip(_FIELDS, values, strict=True)]


_FIELDS = [
    field
    for name in ("task", "args", "created_at", "claimed_until")
    if isinstance(field := OutboxMessage._meta.get_field(name), models.Field)
]
_INSERT = (
    f"INSERT INTO {OutboxMessage._meta.db_table} (task, args, created_at, claimed_until,"
    " attempts) VALUES (%s, %s, %s, %s, 0) RETURNING id"
)


def relay(limit: int = 500) -> int:
    """Send the rows nobody holds, oldest first, until the broker fails; how many were sent.
    The rows are those never sent and those sent whose task never ran to its end."""
    now = timezone.now()
    taken, claim = _claim_free(now, limit)
    sent: list[int] = []
    for row in OutboxMessage.objects.filter(pk__in=taken).order_by("pk"):
        if not _sent(row):
            break
        sent.append(row.pk)
    _settle(taken, claim, sent)
    drop_old(now)
    return len(sent)


def _settle(taken: list[int], claim: datetime, sent: list[int]) -> None:
    """Mark the rows that went out, give back the others. A connection the database dropped
    meanwhile is replaced once: else the claim would hold every row for ``LEASE``."""
    for last_try in (False, True):
        try:
            mine = OutboxMessage.objects.filter(pk__in=taken, claimed_until=claim)
            mine.filter(pk__in=sent).update(sent_at=timezone.now(), claimed_until=None)
            mine.exclude(pk__in=sent).update(claimed_until=None)  # refused: the next relay's
            return
        except (OperationalError, InterfaceError):
            db = connections[OutboxMessage.objects.db]
            if last_try or db.in_atomic_block:
                raise
            log.warning("the database dropped the relay's connection; marking on a new one")
            db.close()


def _claim_free(now: datetime, limit: int) -> tuple[list[int], datetime]:
    lost = now - timedelta(seconds=settings.OUTBOX_REPUBLISH_SECONDS)
    with transaction.atomic():
        free = list(
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(done_at__isnull=True)
            .filter(Q(sent_at__isnull=True) | Q(sent_at__lt=lost))
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
            .order_by("pk")
            .values_list("pk", "sent_at")[:limit]
        )
        for pk, sent_at in free:
            if sent_at is not None:
                log.warning("outbox row %s was sent at %s and never ran: sent again", pk, sent_at)
        taken = [pk for pk, _sent_at in free]
        claim = timezone.now() + LEASE
        OutboxMessage.objects.filter(pk__in=taken).update(
            claimed_until=claim, attempts=F("attempts") + 1
        )
    return taken, claim


def drop_old(now: datetime) -> None:
    """Rows a day old that went out: done, or given up after being sent again all day."""
    old = OutboxMessage.objects.filter(created_at__lt=now - KEEP_SENT)
    old.filter(Q(sent_at__isnull=False) | Q(done_at__isnull=False)).delete()


def ran(task_id: str | None) -> None:
    """A task published from the outbox (its id names the row) ran to its end, and so it was
    sent, whether or not its publisher lived to mark it (a relay whose database connection
    dropped between the publish and the mark)."""
    row = _row_of(task_id)
    if row is not None:
        now = timezone.now()
        row.update(done_at=now, sent_at=Coalesce(F("sent_at"), Value(now)))


def comes_back(task_id: str | None, at: datetime) -> None:
    """A task published from the outbox retries ``at``: it is waited for from then."""
    row = _row_of(task_id)
    if row is not None:
        row.filter(done_at__isnull=True).update(sent_at=at)


@task_postrun.connect
def _a_task_ran(task_id: str | None = None, state: str | None = None, **_: Any) -> None:
    if state != states.RETRY:
        ran(task_id)


@task_retry.connect
def _a_task_retries(request: Any = None, reason: Any = None, **_: Any) -> None:
    when = getattr(reason, "when", None)  # Celery's Retry: a countdown in seconds, or an ETA
    if isinstance(when, datetime):
        due = when
    else:
        due = timezone.now() + timedelta(seconds=float(when or 0))
    comes_back(getattr(request, "id", None), due)


def _row_of(task_id: str | None) -> "models.QuerySet[OutboxMessage] | None":
    if not task_id or not task_id.startswith(TASK_ID_PREFIX):
        return None
    return OutboxMessage.objects.filter(pk=int(task_id.removeprefix(TASK_ID_PREFIX)))


def _sent(row: OutboxMessage) -> bool:
    try:
        _send(row)
    except (BrokerError, OSError) as error:
        log.warning("broker unavailable, %s waits in the outbox: %s", row, error)
        return False
    return True


def _publish_claimed(row: OutboxMessage) -> None:
    global _quiet_until
    if time.monotonic() < _quiet_until:
        OutboxMessage.objects.filter(pk=row.pk, claimed_until=row.claimed_until).update(
            claimed_until=None
        )
    elif not publish(row):
        _quiet_until = time.monotonic() + QUIET


def publish(row: OutboxMessage) -> bool:
    """Publish a row this process claimed; False (and the claim given back) when the broker
    failed it."""
    mine = OutboxMessage.objects.filter(pk=row.pk, claimed_until=row.claimed_until)
    if not _sent(row):
        mine.update(claimed_until=None)
        return False
    mine.update(sent_at=timezone.now(), claimed_until=None)
    return True


def _send(row: OutboxMessage) -> None:
    if row.task not in current_app.tasks:
        current_app.loader.import_default_modules()  # the apps' tasks, outside a worker
    current_app.tasks[row.task].apply_async(
        row.args, task_id=f"{TASK_ID_PREFIX}{row.pk}", retry=False, ignore_result=True
    )
