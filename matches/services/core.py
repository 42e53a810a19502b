"""core: what every write of a match shares.

The errors and outcomes the services answer with; the services' clock and the match's two dice
streams (``now``, ``dice_for``, ``sequence_dice``: the seams tests replace, so every module
calls them through this module); locking the match row; the idempotency and state checks of a
request; new posts; appending events to the match's hash chain; folding the record back into a
state. In a batch of the sweep the writes here go to ``buffer`` instead of the database.
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeGuard

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from bbweb import compiled, outbox, push
from matches.models import Decision, Match, MatchEvent, Post, StandingOrders, Vacation
from matches.record import folding
from matches.record.markup import render_markdown
from matches.services import buffer
from matches.services.actors import AnyUser, may_read
from rules.engine import Dice, FairDice, IllegalAction, MatchState, compacted

GENESIS_HASH = "0" * 64
SYSTEM_ACTOR = "home:captain"  # start_match may be posted by any coach; the server does it
IDEMPOTENCY_KEY_LENGTH = 64  # Post.idempotency_key


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


def now() -> datetime:
    """The services' clock (tests move it forward to travel in time)."""
    return timezone.now()


# -- reading -----------------------------------------------------------------------------------


def last_event_number(match: Match) -> int:
    """The number of the match's last event (0 before the first)."""
    return match.last_event_number


def load_state(match: Match) -> MatchState:
    """The engine's state of the match: the one a write just stored, if the row holds that
    one still, else decoded from the row (the engine never changes a state it is given)."""
    stored = _stored(match)
    return stored[0] if stored is not None else MatchState.from_json(match.state)


def state_json(match: Match) -> dict[str, Any]:
    """The match's state in the whole JSON shape (``MatchState.to_json``): the one a write
    just made, if the row holds that state still."""
    stored = _stored(match)
    return stored[1] if stored is not None else load_state(match).to_json()


def _stored(match: Match) -> tuple[MatchState, dict[str, Any]] | None:
    """The state ``store_state`` put on the row, decoded and whole, while the row holds it."""
    stored: tuple[dict[str, Any], MatchState, dict[str, Any]] | None = getattr(
        match, "_stored_state", None
    )
    if stored is None or stored[0] is not match.state:
        return None
    return stored[1], stored[2]


def store_state(match: Match, state: MatchState) -> None:
    """The new state on the row (saved by ``touch``), kept decoded and whole for the reply."""
    whole = state.to_json()
    match.state = compacted(whole)
    match._stored_state = (match.state, state, whole)  # type: ignore[attr-defined]


def dice_for(match: Match) -> FairDice:
    return FairDice(bytes.fromhex(match.dice_seed), str(match.pk))


def sequence_dice(match: Match) -> Dice:
    """The stream of the sequence's own rolls (winnings, fan factor, improvement rolls,
    defaults), apart from the engine's; published with the seed like every other roll."""
    return FairDice(bytes.fromhex(match.dice_seed), f"{match.pk}:sequence")


# -- folding the record ----------------------------------------------------------------------------


def fold(match: Match) -> MatchState:
    """The state rebuilt from the events alone: the first state, then every declaration
    resolved again with its answers from the same dice stream, and every GM ruling applied.
    Events a rewind undid stay in the record and are skipped."""
    state = folding.fold(list(match.events.order_by("number")), dice_for(match))
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


def _lock_query(skip_locked: bool) -> "models.QuerySet[Match]":
    # Only the match row: PostgreSQL cannot lock the nullable side of the outer join to the
    # league, and locking the teams too would make a team's matches wait for each other.
    # The heads of the thread and the chain are columns of the row, so this read has them as
    # the last writer committed them (a subquery of the posts or events here would see the
    # snapshot taken before waiting for the lock).
    # With the row come what a declaration may ask midway, as subqueries of this one read: the
    # last vacation end of each coach (a new deadline starts after it), whether anybody gave
    # standing orders for the match (when nobody did, their defaults answer, unread) and the
    # post that asked the open question (an answer's events point to it).
    return (
        Match.objects.select_for_update(skip_locked=skip_locked, of=("self",))
        .select_related("home_team", "away_team", "league")
        .annotate(
            has_standing_orders=Exists(StandingOrders.objects.filter(match_id=OuterRef("pk"))),
            asked_in_post=Subquery(
                Decision.objects.filter(
                    match_id=OuterRef("pk"), answered_at__isnull=True, post__isnull=False
                )
                .order_by("pk")
                .values("post_id")[:1]
            ),
            **{_away_until(coach): _last_vacation_end(coach) for coach in COACH_COLUMNS},
        )
    )


COACH_COLUMNS = (
    "home_team__captain_id",
    "home_team__rival_id",
    "away_team__captain_id",
    "away_team__rival_id",
)


def _away_until(coach: str) -> str:
    return "away_until_" + coach.removesuffix("_id").replace("_team__", "_")


def _last_vacation_end(coach: str) -> Subquery:
    return Subquery(
        Vacation.objects.filter(league_id=OuterRef("league_id"), user_id=OuterRef(coach))
        .order_by("-ends_at")
        .values("ends_at")[:1]
    )


def vacation_ends(match: Match) -> dict[int, datetime | None] | None:
    """The last vacation end of each of the match's coaches, by user id, as the locked read
    (``locked_match``) took them; None for a match read otherwise."""
    if not hasattr(match, _away_until(COACH_COLUMNS[0])):
        return None
    ends: dict[int, datetime | None] = {}
    for coach in COACH_COLUMNS:
        team, _sep, column = coach.partition("__")
        user = getattr(getattr(match, team), column)
        if user is not None:
            ends[user] = getattr(match, _away_until(coach))
    return ends


def _locked_row(skip_locked: bool, match_id: int) -> Match | None:
    return match_by_key(match_id, _lock_query, skip_locked)


def match_by_key(
    match_id: int, query: Callable[..., "models.QuerySet[Match]"], *args: Any
) -> Match | None:
    """The match ``query(*args)`` finds by this key, its SQL compiled once per connection
    (bbweb/compiled.py): for the reads every request of a match makes."""
    return compiled.by_key(match_id, query, *args)


def locked_match(match_id: int) -> Match:
    """The match row FOR UPDATE, with what it holds noted so that ``touch`` writes only what
    changed."""
    match = _locked_row(False, match_id)
    if match is None:
        raise MatchError("no_match", "There is no such match.")
    match._loaded = buffer.match_values(match)  # type: ignore[attr-defined]
    return match


def require_readable(match: Match, user: AnyUser) -> None:
    """A private match does not exist for those who may not read it (see ``may_read``)."""
    if not may_read(match, user):
        raise MatchError("no_match", "There is no such match.")


def locked_unless_busy(match_id: int) -> Match | None:
    """The match row FOR UPDATE SKIP LOCKED: None when another transaction holds it (a coach
    posting, another sweep); the next sweep tries again."""
    return _locked_row(True, match_id)


def already_done(match: Match, user: AnyUser, key: str) -> Outcome | None:
    if len(key) > IDEMPOTENCY_KEY_LENGTH:
        raise MatchError(
            "malformed", f"An idempotency key has at most {IDEMPOTENCY_KEY_LENGTH} characters."
        )
    if not key or not user.is_authenticated:
        return None
    post = Post.objects.filter(match=match, author_id=user.pk, idempotency_key=key).first()
    if post is None:
        return None
    post.match = match
    return Outcome(post, match.decisions.filter(answered_at__isnull=True).first(), True)


def require_version(match: Match, version: int | None) -> None:
    if version is not None and version != match.version:
        raise MatchError(
            "version_conflict", f"The match is at version {match.version}, not {version}."
        )


def require_in_play(match: Match) -> None:
    if match.status != Match.Status.IN_PLAY:
        raise MatchError("not_in_play", "The match is not in play.")
    if match.locked:
        raise MatchError("locked", "The GM locked the match while a dispute is settled.")
    if match.paused:
        raise MatchError("paused", "The GM paused the match.")


def refuse_if_illegal(problem: IllegalAction | None) -> None:
    if problem is not None:
        raise MatchError(problem.code, problem.message)


def touch(match: Match) -> None:
    """The match's changes saved with a new version: only the fields that changed, when the
    match was read by ``locked_match`` (a field is assigned anew when it changes, as the sweep's
    batch also counts on); with them the events ``append_events`` left waiting, which move
    the hash chain's heads saved here."""
    match.version += 1
    # Every open screen of the match hears of it once this commits (bbweb/push.py).
    push.publish("match", match.pk, push_heads(match))
    writes = buffer.current()
    if writes is not None:
        writes.touched = True
        return
    loaded: dict[str, Any] | None = getattr(match, "_loaded", None)
    if loaded is None:
        write_waiting(match)
        match.save()
        return
    values = buffer.match_values(match)
    changed = [name for name, value in values.items() if not _same(value, loaded[name])]
    if connections[DEFAULT_DB_ALIAS].vendor == "postgresql":
        _write_with_match(match, changed)
    else:
        write_waiting(match)
        buffer.update_rows(Match, [match], changed)  # plain SQL: Match has no save signals
    match._loaded = values  # type: ignore[attr-defined]


def push_heads(match: Match) -> push.Heads:
    """What a change of the match tells its streams (matches/stream/): its version, the id of
    their messages, and the heads of its thread and record."""
    return {"v": match.version, "post": match.last_post_number, "event": match.last_event_number}


def waits_on_match(match: Match) -> bool:
    """Whether a row can wait to be written by the match's own UPDATE (``touch``): on
    PostgreSQL, outside a batch of the sweep, for a match read by ``locked_match``. Only what
    ``settle_resolution`` writes before its ``touch`` waits so (the question, its notice, a new
    turn's notice, a standing order's post)."""
    return (
        buffer.current() is None
        and hasattr(match, "_loaded")
        and connections[DEFAULT_DB_ALIAS].vendor == "postgresql"
    )


def insert_with_match(match: Match, decision: Decision) -> Decision:
    """A decision asked: written with the match's changes where it can wait, else now."""
    if waits_on_match(match):
        assert "_unwritten_decision" not in match.__dict__
        match._unwritten_decision = decision  # type: ignore[attr-defined]
    else:
        insert_row(decision)
    return decision


def _same(value: Any, loaded: Any) -> bool:
    return value is loaded or value == loaded


def insert_row[Row: models.Model](row: Row) -> Row:
    """A new row: saved now, or kept for the bulk insert of the sweep's batch."""
    writes = buffer.current()
    if writes is not None:
        if isinstance(row, Decision):
            saved(row.post)
        writes.insert(row)
    elif isinstance(row, Post | Decision):
        _write_row(row)
    else:
        row.save(force_insert=True)
    return row


def saved[Maybe: Post | None](post: Maybe) -> Maybe:
    """The post written, if it was waiting to be written with its events (``new_post``
    with ``with_events``): before anything else points to it."""
    if waits_for_events(post):
        del post._waits_for_events  # type: ignore[attr-defined]
        insert_row(post)
    return post


def waits_for_events(post: Post | None) -> TypeGuard[Post]:
    return post is not None and getattr(post, "_waits_for_events", False)


def _fields_and_values(
    row: models.Model, db: BaseDatabaseWrapper, leave: str = ""
) -> tuple[list["models.Field[Any, Any]"], list[Any]]:
    """The concrete fields of ``row`` but its key (and ``leave``), and their values as a save
    would write them. Only for models without save signals (Post, Decision, MatchEvent)."""
    fields = [
        f for f in type(row)._meta.concrete_fields if not f.primary_key and f.attname != leave
    ]
    return fields, [f.get_db_prep_save(f.pre_save(row, True), db) for f in fields]


def one_row[Row: models.Model](model: type[Row], **equal: Any) -> Row | None:
    """The row of ``model`` whose columns equal ``equal`` (a unique key), read by one plain
    SELECT and its values converted as the ORM's would be: for the reads a declaration makes
    midway, where building the ORM's query cost more than the database answering it."""
    db = connections[DEFAULT_DB_ALIAS]
    meta = model._meta
    fields = meta.concrete_fields
    columns = _column_list(fields, db)
    where = " AND ".join(f"{db.ops.quote_name(name)} = %s" for name in equal)
    with db.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {db.ops.quote_name(meta.db_table)} WHERE {where}",
            list(equal.values()),
        )
        row = cursor.fetchone()
    if row is None:
        return None
    values = [from_db(f, value, db) for f, value in zip(fields, row, strict=True)]
    return model.from_db(DEFAULT_DB_ALIAS, [f.attname for f in fields], values)


def from_db(field: Any, value: Any, db: BaseDatabaseWrapper) -> Any:
    """A column's value as the ORM would give it (a datetime on SQLite, a JSON field's data)."""
    column = field.get_col(field.model._meta.db_table)
    for convert in [*db.ops.get_db_converters(column), *field.get_db_converters(db)]:
        value = convert(value, column, db)
    return value


def _column_list(fields: Sequence[Any], db: BaseDatabaseWrapper) -> str:
    return ", ".join(db.ops.quote_name(str(f.column)) for f in fields)


def _written(row: models.Model, pk: int) -> None:
    row.pk = pk
    row._state.adding = False
    row._state.db = DEFAULT_DB_ALIAS


def _write_row(row: Post | Decision) -> None:
    """A post or a decision in one plain INSERT: neither has save signals, and the ORM's save
    costs a good part of a declaration. A decision asked by a post still waiting to be written
    takes it along, in the same statement (PostgreSQL)."""
    db = connections[DEFAULT_DB_ALIAS]
    asked_in = row.post if isinstance(row, Decision) else None
    if waits_for_events(asked_in) and db.vendor == "postgresql":
        assert isinstance(row, Decision) and asked_in is not None
        _write_post_and_decision(asked_in, row, db)
        return
    if asked_in is not None:
        saved(asked_in)
    # As save() does: refuses a related row not yet saved, takes the key of one saved since.
    row._prepare_related_fields_for_save(operation_name="save")  # type: ignore[union-attr]
    fields, values = _fields_and_values(row, db)
    with db.cursor() as cursor:
        cursor.execute(f"{_insert_sql(type(row), fields, db)} RETURNING id", values)
        _written(row, cursor.fetchone()[0])


def _insert_sql(
    model: type[models.Model], fields: list[Any], db: BaseDatabaseWrapper, post_id: str = ""
) -> str:
    """The INSERT of one row of ``model`` whose ``fields`` are parameters, and whose post's key
    is the SQL ``post_id`` when given."""
    columns = _column_list(fields, db)
    marks = ", ".join(["%s"] * len(fields))
    if post_id:
        columns, marks = f"{columns}, {db.ops.quote_name('post_id')}", f"{marks}, {post_id}"
    return f"INSERT INTO {db.ops.quote_name(model._meta.db_table)} ({columns}) VALUES ({marks})"


def _write_post_and_decision(post: Post, decision: Decision, db: BaseDatabaseWrapper) -> None:
    """The declaration's post and the question it stopped at, as ``_write_with_match`` writes
    them, in a statement of their own: the post's INSERT a common table expression whose key
    the decision's INSERT takes."""
    tables: list[str] = []
    params = _post_table(post, tables, db) + _decision_table(decision, tables, True, db)
    with db.cursor() as cursor:
        cursor.execute(
            f"WITH {', '.join(tables)} SELECT (SELECT id FROM post), (SELECT id FROM decision)",
            params,
        )
        post_id, decision_id = cursor.fetchone()
    del post._waits_for_events  # type: ignore[attr-defined]
    _written(post, post_id)
    _written(decision, decision_id)
    decision.post = post  # its key, now known


def close_open_decisions(
    match: Match, answer: dict[str, Any], db: BaseDatabaseWrapper
) -> tuple[str, list[Any]]:
    """The UPDATE that closes every open decision of the match with ``answer`` (the
    decisions' fields by name), and its parameters."""
    fields = [f for f in Decision._meta.concrete_fields if f.name in answer]
    sets = ", ".join(f"{db.ops.quote_name(str(f.column))} = %s" for f in fields)
    keyed = {k: v.pk if isinstance(v, models.Model) else v for k, v in answer.items()}
    values = [f.get_db_prep_save(keyed[f.name], db) for f in fields]
    return (
        f"UPDATE {db.ops.quote_name(Decision._meta.db_table)} SET {sets}"
        " WHERE match_id = %s AND answered_at IS NULL",
        [*values, match.pk],
    )


def new_post(
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
    with_events: bool = False,
    with_match: bool = False,
) -> Post:
    """The match's next post. ``with_events``: written with the events that will point to it,
    in one statement (``append_events``), or by ``saved`` if something else needs it first.
    ``with_match``: nothing points to it; written with the match's changes where it can wait."""
    post = Post(
        match=match,
        number=match.last_post_number + 1,
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
    if with_events:
        post._waits_for_events = True  # type: ignore[attr-defined]
    elif with_match and waits_on_match(match):
        match.__dict__.setdefault("_unwritten_posts", []).append(post)
    else:
        insert_row(post)
    match.last_post_number = post.number  # saved with the match by ``touch``
    return post


def append_event(
    match: Match, state: MatchState, type: str, data: dict[str, Any], post: Post | None
) -> MatchEvent:
    [event] = MatchEvent.objects.bulk_create(_event_rows(match, state, [(type, data)], post))
    return event


def append_events(
    match: Match, state: MatchState, events: list[tuple[str, dict[str, Any]]], post: Post | None
) -> None:
    """A declaration's events at the end of the match's hash chain, in one insert (in a batch
    of the sweep, in the batch's), as plain rows: nobody reads them back as models."""
    half, turn = state.half, state.turn.get(state.active, 0)
    rows = [
        {
            "match": match.pk,
            "number": number,
            "type": type,
            "data": data,
            "half": half,
            "turn": turn,
            "post": post,
            "prev_hash": prev,
            "hash": digest,
        }
        for number, type, data, prev, digest in _chained(match, events)
    ]
    writes = buffer.current()
    if writes is not None:
        if post is not None:
            saved(post)
        writes.events.extend(rows)
    else:
        match._unwritten_events = rows  # type: ignore[attr-defined]


def write_waiting(match: Match) -> None:
    """The rows left waiting on the match (the events ``append_events`` left, with the post
    that waits for them; an answer's closing of the open decisions; the posts, question and
    tasks of ``_write_with_match``), written now: by ``touch`` where one statement cannot take
    them, or for whoever reads them back before it (the post-match's tally)."""
    answer = match.__dict__.pop("_unwritten_answer", None)
    if answer is not None:  # before the new question is written, which stays open
        db = connections[DEFAULT_DB_ALIAS]
        with db.cursor() as cursor:
            cursor.execute(*close_open_decisions(match, answer, db))
    _write_event_rows(match.__dict__.pop("_unwritten_events", []))
    for post in match.__dict__.pop("_unwritten_posts", []):
        insert_row(post)
    decision = match.__dict__.pop("_unwritten_decision", None)
    if decision is not None:
        insert_row(decision)
    for task, args in match.__dict__.pop("_unwritten_tasks", []):
        outbox.enqueue(task, [arg.pk if isinstance(arg, models.Model) else arg for arg in args])


def _write_event_rows(rows: list[dict[str, Any]]) -> None:
    if rows and rows[0]["post"] is not None:
        saved(rows[0]["post"])
    _insert_event_rows(rows)


def _write_with_match(match: Match, changed: list[str]) -> None:
    """The rows waiting on the match and its changes in one statement (PostgreSQL): the open
    decisions an answer closes (``answered``), the post waiting for its events or its
    question (``post``), the question (``decision``), the posts nothing points to
    (``answer0``...), the events, the tasks for the outbox's relay (a question's notice
    taking the question's new key), each a common table expression, then the match's UPDATE,
    which returns the new keys."""
    db = connections[DEFAULT_DB_ALIAS]
    events: list[dict[str, Any]] = match.__dict__.pop("_unwritten_events", [])
    decision: Decision | None = match.__dict__.pop("_unwritten_decision", None)
    answers: list[Post] = match.__dict__.pop("_unwritten_posts", [])
    tasks: list[tuple[str, list[Any]]] = match.__dict__.pop("_unwritten_tasks", [])
    post = events[0]["post"] if events else decision.post if decision is not None else None
    post_waits = waits_for_events(post)
    tables: list[str] = []
    params: list[Any] = []
    written: list[tuple[str, models.Model]] = []
    closing = match.__dict__.pop("_unwritten_answer", None)
    if closing is not None:
        # All of the statement reads one snapshot: the question it asks stays open.
        close, close_params = close_open_decisions(match, closing, db)
        tables.append(f"answered AS ({close})")
        params += close_params
    if post_waits:
        assert post is not None
        params += _post_table(post, tables, db)
        written.append(("post", post))
    if decision is not None:
        params += _decision_table(decision, tables, post_waits, db)
        written.append(("decision", decision))
    for n, answer in enumerate(answers):
        params += _answer_table(answer, f"answer{n}", tables, db)
        written.append((f"answer{n}", answer))
    if events:
        params += _event_table(events, tables, post_waits, db)
    if tasks:
        keyed = [(task, [_key_of(arg, decision) for arg in args]) for task, args in tasks]
        insert, task_params = outbox.insert_statement(keyed, db)
        tables.append(f"tasks AS ({insert})")
        params += task_params
    update, update_params = buffer.update_statement(Match, [match], changed, db)
    if tables:
        update = f"WITH {', '.join(tables)} {update}"
    if written:
        update += " RETURNING " + ", ".join(f"(SELECT id FROM {name})" for name, _ in written)
    with db.cursor() as cursor:
        cursor.execute(update, params + update_params)
        keys = cursor.fetchone() if written else ()
    for (_name, row), pk in zip(written, keys, strict=True):
        row.__dict__.pop("_waits_for_events", None)
        _written(row, pk)
    if decision is not None and decision.post is not None:
        decision.post_id = decision.post.pk  # known now


def _key_of(arg: Any, decision: Decision | None) -> Any:
    """A task's argument as the outbox writes it: the question written by the same statement
    as the common table expression that returns its key."""
    if arg is decision and decision is not None:
        return outbox.KeyOf("decision")
    return arg.pk if isinstance(arg, models.Model) else arg


def _answer_table(post: Post, name: str, tables: list[str], db: BaseDatabaseWrapper) -> list[Any]:
    fields, values = _fields_and_values(post, db)
    tables.append(f"{name} AS ({_insert_sql(Post, fields, db)} RETURNING id)")
    return values


def _post_table(post: Post, tables: list[str], db: BaseDatabaseWrapper) -> list[Any]:
    """The post as a JSON document the database reads into a row of its table
    (``jsonb_populate_record``): one parameter, and a statement whose text repeats."""
    quote = db.ops.quote_name
    fields = [f for f in Post._meta.concrete_fields if not f.primary_key]
    columns = _column_list(fields, db)
    tables.append(
        f"post AS (INSERT INTO {quote(Post._meta.db_table)} ({columns}) SELECT {columns}"
        f" FROM jsonb_populate_record(NULL::{quote(Post._meta.db_table)}, %s::jsonb)"
        " RETURNING id)"
    )
    return [_json_record({f.column: f.pre_save(post, True) for f in fields})]


def _decision_table(
    decision: Decision, tables: list[str], post_waits: bool, db: BaseDatabaseWrapper
) -> list[Any]:
    """The question, asked by the post of the same statement when it waits, else by its own
    post, written before."""
    fields, values = _fields_and_values(decision, db, leave="post_id")
    post_id = "(SELECT id FROM post)" if post_waits else "%s"
    tables.append(f"decision AS ({_insert_sql(Decision, fields, db, post_id)} RETURNING id)")
    return values if post_waits else [*values, decision.post_id]


def _event_table(
    rows: list[dict[str, Any]], tables: list[str], post_waits: bool, db: BaseDatabaseWrapper
) -> list[Any]:
    """The events as one JSON document (``jsonb_populate_recordset``): one parameter however
    many events; their post's key taken from ``post`` when it waits."""
    quote = db.ops.quote_name
    assert all(row["post"] is rows[0]["post"] for row in rows)
    fields = [f for f in MatchEvent._meta.concrete_fields if not f.primary_key]
    names = [quote(str(f.column)) for f in fields]
    selected = [
        "(SELECT id FROM post)" if post_waits and f.attname == "post_id" else name
        for f, name in zip(fields, names, strict=True)
    ]
    tables.append(
        f"events AS (INSERT INTO {quote(MatchEvent._meta.db_table)} ({', '.join(names)})"
        f" SELECT {', '.join(selected)} FROM"
        f" jsonb_populate_recordset(NULL::{quote(MatchEvent._meta.db_table)}, %s::jsonb))"
    )
    created_at = timezone.now()
    known = [_event_values(row, created_at) for row in rows]
    return [_json_record([{f.column: values[f.attname] for f in fields} for values in known])]


def _event_values(row: dict[str, Any], created_at: datetime) -> dict[str, Any]:
    """An event row's values by the field's attname (a field added to MatchEvent and not set
    here fails loudly: KeyError)."""
    post = row["post"]
    return {
        **row,
        "match_id": row["match"],
        "post_id": post.pk if post is not None else None,
        "created_at": created_at,
    }


def _json_record(value: Any) -> str:
    """Rows as the JSON that ``jsonb_populate_record`` reads: times in ISO 8601."""
    return json.dumps(value, default=_iso, separators=(",", ":"))


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not a column value bbweb writes as JSON")


def _insert_event_rows(rows: list[dict[str, Any]]) -> None:
    """One INSERT of many rows, the values prepared by the fields themselves: a fraction of
    what building models and bulk_create cost."""
    if not rows:
        return
    db = connections[DEFAULT_DB_ALIAS]
    meta = MatchEvent._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    created_at = timezone.now()
    values = []
    for row in rows:
        known = _event_values(row, created_at)
        values += [f.get_db_prep_save(known[f.attname], db) for f in fields]
    columns = _column_list(fields, db)
    marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
    with db.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {db.ops.quote_name(meta.db_table)} ({columns})"
            f" VALUES {', '.join([marks] * len(rows))}",
            values,
        )


def _event_rows(
    match: Match, state: MatchState, events: list[tuple[str, dict[str, Any]]], post: Post | None
) -> list[MatchEvent]:
    half, turn = state.half, state.turn.get(state.active, 0)
    return [
        MatchEvent(
            match=match,
            number=number,
            type=type,
            data=data,
            half=half,
            turn=turn,
            post=post,
            prev_hash=prev,
            hash=digest,
        )
        for number, type, data, prev, digest in _chained(match, events)
    ]


def _chained(
    match: Match, events: list[tuple[str, dict[str, Any]]]
) -> list[tuple[int, str, dict[str, Any], str, str]]:
    """(number, type, data, previous hash, hash) of each event, next in the match's chain;
    the match's heads moved on (saved with the match by ``touch``)."""
    chained = []
    number, prev = match.last_event_number, match.last_event_hash
    for type, data in events:
        number += 1
        digest = MatchEvent.chain_hash(prev, number, type, data)
        chained.append((number, type, data, prev, digest))
        prev = digest
    match.last_event_number, match.last_event_hash = number, prev
    return chained
