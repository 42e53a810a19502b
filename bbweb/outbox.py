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
"""

import json
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.db import connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F, Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from bbweb.models import OutboxMessage

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=60)  # far longer than a publish under the broker's timeouts
QUIET = 10.0
KEEP_SENT = timedelta(days=1)
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
    """Send the rows nobody holds, oldest first, until the broker fails; how many were sent."""
    now = timezone.now()
    with transaction.atomic():
        free = (
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True)
            .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
            .order_by("pk")
            .values_list("pk", flat=True)[:limit]
        )
        taken = list(free)
        claim = timezone.now() + LEASE
        OutboxMessage.objects.filter(pk__in=taken).update(
            claimed_until=claim, attempts=F("attempts") + 1
        )
    rows = OutboxMessage.objects.filter(pk__in=taken).order_by("pk")
    sent: list[int] = []
    for row in rows:
        if not _sent(row):
            break
        sent.append(row.pk)
    OutboxMessage.objects.filter(pk__in=sent, claimed_until=claim).update(sent_at=timezone.now())
    OutboxMessage.objects.filter(pk__in=taken, sent_at__isnull=True, claimed_until=claim).update(
        claimed_until=None
    )  # what the broker refused waits for the next relay
    OutboxMessage.objects.filter(sent_at__lt=now - KEEP_SENT).delete()
    return len(sent)


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
    elif not _publish(row):
        _quiet_until = time.monotonic() + QUIET


def _publish(row: OutboxMessage) -> bool:
    """Publish a row this process claimed; False (and the claim given back) when the broker
    failed it."""
    mine = OutboxMessage.objects.filter(pk=row.pk, claimed_until=row.claimed_until)
    if not _sent(row):
        mine.update(claimed_until=None)
        return False
    mine.update(sent_at=timezone.now())
    return True


def _send(row: OutboxMessage) -> None:
    if row.task not in current_app.tasks:
        current_app.loader.import_default_modules()  # the apps' tasks, outside a worker
    current_app.tasks[row.task].apply_async(
        row.args, task_id=f"outbox-{row.pk}", retry=False, ignore_result=True
    )
