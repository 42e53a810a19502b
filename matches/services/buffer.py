"""buffer: the sweep's batches, many expired deadlines applied in one transaction.

``deadlines`` claims up to ``deadlines.SWEEP_BATCH`` matches at once (FOR UPDATE SKIP LOCKED) and
hands them to a ``Batch``, which reads in a few queries what the deadlines need (the open
decisions, standing orders, vacations). Each match is then
played by the same code as a single deadline, but while ``current()`` returns its
``MatchWrites`` the write helpers of ``core`` keep their rows here instead of writing them,
and ``flush`` writes the whole batch in a handful of bulk statements. The tasks the matches
queue go out as one message on commit.

A match whose deadline needs something the buffer does not do (reading back rows it has just
written, such as a Blitz contest's roll or the post-match sequence) trips ``Unbuffered`` at
its first such query, before anything is written, and ``deadlines`` applies it alone. So the
buffer never holds half a match, and a match it holds is written exactly as the single path
would have written it.
"""

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from matches.models import Decision, Match, MatchEvent, Post, StandingOrders, Vacation


class Unbuffered(Exception):
    """A query the buffer cannot stand in for: the match is applied alone instead."""


_CURRENT: ContextVar["MatchWrites | None"] = ContextVar("deadline_writes", default=None)
# The rows the buffer keeps: reading them back from the database would miss what it holds.
_BUFFERED_TABLES = re.compile(
    r"\b({})\b".format("|".join(m._meta.db_table for m in (Match, Post, MatchEvent, Decision)))
)
_LOCKING = re.compile(r"\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE|KEY\s+SHARE)\b", re.IGNORECASE)


def current() -> "MatchWrites | None":
    """The buffer of the match being applied in a batch, or None outside a batch."""
    return _CURRENT.get()


def _reads_only(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """While a match is buffered: plain reads of other tables only (a write, a lock, a
    savepoint or a read of the buffered tables means it must be applied alone)."""
    first = sql.split(None, 1)[0].upper() if sql.strip() else ""
    if first != "SELECT" or _LOCKING.search(sql) or _BUFFERED_TABLES.search(sql):
        raise Unbuffered(sql)
    return execute(sql, params, many, context)


@dataclass
class MatchWrites:
    """What one match's deadlines write, kept until the batch is flushed."""

    batch: "Batch"
    match: Match
    open: list[Decision]  # the match's open decisions, answered in memory
    inserts: list[models.Model] = field(default_factory=list)  # posts and decisions
    events: list[dict[str, Any]] = field(default_factory=list)  # MatchEvent's fields
    updated: dict[int, set[str]] = field(default_factory=dict)  # id(decision) -> fields
    touched: bool = False
    tasks: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)

    def insert(self, row: models.Model) -> None:
        self.inserts.append(row)
        if isinstance(row, Decision) and row.answered_at is None:
            self.open.append(row)

    def update(self, decision: Decision, **values: Any) -> None:
        for name, value in values.items():
            setattr(decision, name, value)
        if decision.pk is not None:
            self.updated.setdefault(id(decision), set()).update(values)

    def answer_open(self, **values: Any) -> Decision | None:
        """Close every open decision of the match; returns the first one that has a post
        (the question as the thread asked it)."""
        still_open = [d for d in self.open if d.answered_at is None]
        asked = next((d for d in still_open if d.post_id is not None or d.post), None)
        for decision in still_open:
            self.update(decision, **values)
        return asked

    def later(self, task: str, args: tuple[Any, ...]) -> None:
        self.tasks.append((task, args))


class Batch:
    """The claimed matches of one sweep transaction and what their deadlines read."""

    def __init__(self, matches: list[Match], now: datetime) -> None:
        """``now``: the services' clock as the batch starts (no vacation that ends before
        it can push back a deadline the batch sets)."""
        self.matches = {m.pk: m for m in matches}
        self.done: list[MatchWrites] = []
        self._fields = {m.pk: match_values(m) for m in matches}
        ids = list(self.matches)
        self.open: dict[int, list[Decision]] = {pk: [] for pk in ids}
        for decision in (
            Decision.objects.select_for_update(of=("self",))
            .select_related("post")
            .filter(match_id__in=ids, answered_at__isnull=True)
        ):
            self.open[decision.match_id].append(decision)
        self.orders = {
            (o.match_id, o.user_id): o for o in StandingOrders.objects.filter(match_id__in=ids)
        }
        leagues = {m.league_id for m in matches if m.league_id is not None}
        self.vacations: dict[tuple[int, int], list[datetime]] = {}
        if leagues:
            for user_id, league_id, ends_at in Vacation.objects.filter(
                league_id__in=leagues, ends_at__gt=now
            ).values_list("user_id", "league_id", "ends_at"):
                self.vacations.setdefault((league_id, user_id), []).append(ends_at)

    def away_until(self, league_id: int, users: list[int], now: datetime) -> datetime | None:
        """The end of the latest vacation, still running at ``now``, of any of ``users``."""
        ends = [
            end for user in users for end in self.vacations.get((league_id, user), ()) if end > now
        ]
        return max(ends, default=None)

    @contextmanager
    def buffering(self, match: Match) -> Iterator[MatchWrites]:
        """Apply one match's deadlines into a buffer; it joins the batch only if the block
        ends without an exception, so a match that fails leaves nothing behind."""
        writes = MatchWrites(self, match, list(self.open[match.pk]))
        token = _CURRENT.set(writes)
        doomed = transaction.get_rollback()
        try:
            with connection.execute_wrapper(_reads_only):
                yield writes
        except Unbuffered:
            # Refused before it reached the database: the transaction is as sound as it was,
            # though Django marks it for rollback when the refusal left a write it wraps.
            transaction.set_rollback(doomed)
            raise
        finally:
            _CURRENT.reset(token)
        self.done.append(writes)

    def flush(self) -> list[tuple[str, list[Any]]]:
        """Write every buffered row in bulk; returns the tasks to queue, as (name, args)."""
        inserts = [row for writes in self.done for row in writes.inserts]
        # Posts first: decisions and events point to them.
        Post.objects.bulk_create([row for row in inserts if isinstance(row, Post)])
        Decision.objects.bulk_create([row for row in inserts if isinstance(row, Decision)])
        _insert_events([event for writes in self.done for event in writes.events])
        updated: list[Decision] = []
        names: set[str] = set()
        for writes in self.done:
            for decision in writes.open:
                if id(decision) in writes.updated:
                    updated.append(decision)
                    names |= writes.updated[id(decision)]
        if updated:
            update_rows(Decision, updated, sorted(names))
        touched = [w.match for w in self.done if w.touched]
        changed = {
            name
            for match in touched
            for name, value in match_values(match).items()
            if value != self._fields[match.pk][name]
        }
        if touched and changed:
            update_rows(Match, touched, sorted(changed))
        return [
            (task, [_pk_of(arg) for arg in args])
            for writes in self.done
            for task, args in writes.tasks
        ]


def _insert_events(events: list[dict[str, Any]]) -> None:
    """The batch's events, with COPY on PostgreSQL: a fraction of what building models and
    bulk_create cost, on both sides of the connection, and nobody needs their ids."""
    if not events:
        return
    db = connections[DEFAULT_DB_ALIAS]
    for event in events:
        post = event.pop("post")
        event["post_id"] = post.pk if post is not None else None
        event["match_id"] = event.pop("match")
    if db.vendor != "postgresql":
        MatchEvent.objects.bulk_create(MatchEvent(**event) for event in events)
        return
    meta = MatchEvent._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    data = meta.get_field("data")
    created_at = timezone.now()
    columns = ", ".join(db.ops.quote_name(str(f.column)) for f in fields)
    with (
        db.cursor() as cursor,
        cursor.cursor.copy(
            f"COPY {db.ops.quote_name(meta.db_table)} ({columns}) FROM STDIN"
        ) as copy,
    ):
        for event in events:
            # A field added to MatchEvent and not set here fails loudly (KeyError).
            event["data"] = data.get_db_prep_save(event["data"], db)
            event["created_at"] = created_at
            copy.write_row([event[f.attname] for f in fields])


def update_rows(model: type[models.Model], rows: list[Any], names: list[str]) -> None:
    """The fields ``names`` of ``rows``, by primary key, in one statement on PostgreSQL (an
    UPDATE from a VALUES list, parsed and planned once) and in one executemany elsewhere:
    QuerySet.bulk_update's CASE per row and field costs more than the writes themselves."""
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as cursor:
        if db.vendor == "postgresql":
            cursor.execute(*update_statement(model, rows, names, db))
            return
        fields, params = _fields_and_params(model, rows, names, db)
        meta = model._meta
        assert meta.pk is not None
        sets = ", ".join(f"{db.ops.quote_name(str(f.column))} = %s" for f in fields)
        key = db.ops.quote_name(str(meta.pk.column))
        cursor.executemany(
            f"UPDATE {db.ops.quote_name(meta.db_table)} SET {sets} WHERE {key} = %s", params
        )


def update_statement(
    model: type[models.Model], rows: list[Any], names: list[str], db: BaseDatabaseWrapper
) -> tuple[str, list[Any]]:
    """PostgreSQL's UPDATE of the fields ``names`` of ``rows`` from a VALUES list, and its
    parameters (``core`` also puts it after the INSERTs of a declaration's post and events)."""
    meta = model._meta
    assert meta.pk is not None
    fields, params = _fields_and_params(model, rows, names, db)
    table = db.ops.quote_name(meta.db_table)
    columns = [db.ops.quote_name(str(f.column)) for f in [*fields, meta.pk]]
    key = columns.pop()
    typed = "(" + ", ".join(f"%s::{f.cast_db_type(db)}" for f in [*fields, meta.pk]) + ")"
    return (
        f"UPDATE {table} SET {', '.join(f'{c} = v.{c}' for c in columns)}"
        f" FROM (VALUES {', '.join([typed] * len(rows))}) AS v({', '.join([*columns, key])})"
        f" WHERE {table}.{key} = v.{key}",
        [value for row in params for value in row],
    )


def _fields_and_params(
    model: type[models.Model], rows: list[Any], names: list[str], db: BaseDatabaseWrapper
) -> tuple[list[Any], list[list[Any]]]:
    fields = [f for f in model._meta.concrete_fields if f.name in names]
    params = [
        [f.get_db_prep_save(f.pre_save(row, False), db) for f in fields] + [row.pk] for row in rows
    ]
    return fields, params


def match_values(match: Match) -> dict[str, Any]:
    """The fields a save would write (each one is assigned anew when it changes)."""
    return {
        f.name: getattr(match, f.attname) for f in Match._meta.concrete_fields if not f.primary_key
    }


def _pk_of(arg: Any) -> Any:
    """A row inserted in bulk is passed to its task by its primary key, known only now."""
    return arg.pk if isinstance(arg, models.Model) else arg
