"""core: what every write of a match shares.

The errors and outcomes the services answer with; the services' clock and the match's two dice
streams (``now``, ``dice_for``, ``sequence_dice``: the seams tests replace, so every module
calls them through this module); locking the match row; the idempotency and state checks of a
request; new posts; appending events to the match's hash chain; folding the record back into a
state. In a batch of the sweep the writes here go to ``buffer`` instead of the database.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Q
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from matches import folding
from matches.markup import render_markdown
from matches.models import Decision, Match, MatchEvent, Post
from matches.services import buffer
from rules.engine import Dice, FairDice, IllegalAction, MatchState, compacted

GENESIS_HASH = "0" * 64
SYSTEM_ACTOR = "home:captain"  # start_match may be posted by any coach; the server does it
IDEMPOTENCY_KEY_LENGTH = 64  # Post.idempotency_key
AnyUser = AbstractBaseUser | AnonymousUser


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


def actors_for(match: Match, user: AnyUser) -> list[str]:
    """The TEAM:SIDE strings this user coaches in the match (none for a spectator)."""
    actors: list[str] = []
    for key, team in (("home", match.home_team), ("away", match.away_team)):
        for side in ("captain", "rival"):
            substitute = match.substitutes.get(f"{key}:{side}")
            if substitute is not None:
                if user.is_authenticated and user.pk == substitute:
                    actors.append(f"{key}:{side}")
            elif team.controls(user, side):
                actors.append(f"{key}:{side}")
    return actors


def coached_by(user: AnyUser) -> Q:
    """The matches where the user may coach a side: a side of either team, or a seat the GM
    gave the user as a substitute (``actors_for`` then says which seats are really the
    user's: a coach the GM replaced still matches by his team and holds none)."""
    seats = Q()
    for actor in ("home:captain", "home:rival", "away:captain", "away:rival"):
        seats |= Q(**{f"substitutes__{actor}": user.pk})
    return (
        Q(home_team__captain_id=user.pk)
        | Q(home_team__rival_id=user.pk)
        | Q(away_team__captain_id=user.pk)
        | Q(away_team__rival_id=user.pk)
        | seats
    )


def _pk(user: AnyUser) -> int:
    """The id of a user already known to be logged in."""
    assert user.pk is not None
    return int(user.pk)


def is_match_gm(match: Match, user: AnyUser) -> bool:
    return user.is_authenticated and user.pk == match.gm_id


def may_read(match: Match, user: AnyUser) -> bool:
    """Anybody reads a public match; a private one only its coaches and its GM."""
    return match.is_public or is_match_gm(match, user) or bool(actors_for(match, user))


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
    """The state ``_store_state`` put on the row, decoded and whole, while the row holds it."""
    stored: tuple[dict[str, Any], MatchState, dict[str, Any]] | None = getattr(
        match, "_stored_state", None
    )
    if stored is None or stored[0] is not match.state:
        return None
    return stored[1], stored[2]


def _store_state(match: Match, state: MatchState) -> None:
    """The new state on the row (saved by ``_touch``), kept decoded and whole for the reply."""
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
    return Match.objects.select_for_update(skip_locked=skip_locked, of=("self",)).select_related(
        "home_team", "away_team", "league"
    )


@dataclass(frozen=True)
class _Compiled:
    """A query by primary key compiled once per connection, and how its row becomes the
    match with its teams and league: Django compiles a query anew each time, and for this
    one, four tables' columns, that took longer than the database answering it."""

    sql: str
    compiler: SQLCompiler
    converters: dict[int, Any]
    init_list: list[str]
    columns: slice
    related: list[Any]

    @classmethod
    def of(cls, queryset: "models.QuerySet[Match]") -> "_Compiled":
        compiler = queryset.filter(pk=0).query.get_compiler(queryset.db)
        sql, _params = compiler.as_sql()
        info = compiler.klass_info
        assert info is not None
        select = compiler.select
        fields = info["select_fields"]
        columns = slice(fields[0], fields[-1] + 1)
        return cls(
            sql,
            compiler,
            compiler.get_converters([column[0] for column in select]),
            [column[0].target.attname for column in select[columns]],
            columns,
            get_related_populators(info, select, queryset.db, queryset._fetch_mode),  # type: ignore[attr-defined]
        )

    def get(self, pk: int) -> Match | None:
        with self.compiler.connection.cursor() as cursor:
            cursor.execute(self.sql, [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        if self.converters:
            [row] = self.compiler.apply_converters([row], self.converters)
        match = Match.from_db(self.compiler.using, self.init_list, row[self.columns])
        for populator in self.related:
            populator.populate(row, match)
        return match


def _locked_row(skip_locked: bool, match_id: int) -> Match | None:
    db = connections[DEFAULT_DB_ALIAS]
    # Kept on the connection (one per thread), which the compiled query refers to.
    compiled: dict[bool, _Compiled] = db.__dict__.setdefault("bbweb_compiled_locks", {})
    if skip_locked not in compiled:
        compiled[skip_locked] = _Compiled.of(_lock_query(skip_locked))
    return compiled[skip_locked].get(match_id)


def _locked(match_id: int) -> Match:
    """The match row FOR UPDATE, with what it holds noted so that ``_touch`` writes only what
    changed."""
    match = _locked_row(False, match_id)
    if match is None:
        raise MatchError("no_match", "There is no such match.")
    match._loaded = buffer._values(match)  # type: ignore[attr-defined]
    return match


def _require_readable(match: Match, user: AnyUser) -> None:
    """A private match does not exist for those who may not read it (see ``may_read``)."""
    if not may_read(match, user):
        raise MatchError("no_match", "There is no such match.")


def _locked_unless_busy(match_id: int) -> Match | None:
    """The match row FOR UPDATE SKIP LOCKED: None when another transaction holds it (a coach
    posting, another sweep); the next sweep tries again."""
    return _locked_row(True, match_id)


def _already_done(match: Match, user: AnyUser, key: str) -> Outcome | None:
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


def _require_version(match: Match, version: int | None) -> None:
    if version is not None and version != match.version:
        raise MatchError(
            "version_conflict", f"The match is at version {match.version}, not {version}."
        )


def _require_in_play(match: Match) -> None:
    if match.status != Match.Status.IN_PLAY:
        raise MatchError("not_in_play", "The match is not in play.")
    if match.locked:
        raise MatchError("locked", "The GM locked the match while a dispute is settled.")
    if match.paused:
        raise MatchError("paused", "The GM paused the match.")


def _refuse_if_illegal(problem: IllegalAction | None) -> None:
    if problem is not None:
        raise MatchError(problem.code, problem.message)


def _touch(match: Match) -> None:
    """The match's changes saved with a new version: only the fields that changed, when the
    match was read by ``_locked`` (a field is assigned anew when it changes, as the sweep's
    batch also counts on); with them the events ``_append_events`` left waiting, which move
    the hash chain's heads saved here."""
    match.version += 1
    writes = buffer.current()
    if writes is not None:
        writes.touched = True
        return
    loaded: dict[str, Any] | None = getattr(match, "_loaded", None)
    if loaded is None:
        _write_events(match)
        match.save()
        return
    values = buffer._values(match)
    changed = [name for name, value in values.items() if not _same(value, loaded[name])]
    rows: list[dict[str, Any]] = match.__dict__.pop("_unwritten_events", [])
    if rows and connections[DEFAULT_DB_ALIAS].vendor == "postgresql":
        _write_events_with_match(match, rows, changed)
    else:
        _write_event_rows(rows)
        buffer._update(Match, [match], changed)  # plain SQL: Match has no save signals
    match._loaded = values  # type: ignore[attr-defined]


def _same(value: Any, loaded: Any) -> bool:
    return value is loaded or value == loaded


def _insert[Row: models.Model](row: Row) -> Row:
    """A new row: saved now, or kept for the bulk insert of the sweep's batch."""
    writes = buffer.current()
    if writes is not None:
        writes.insert(row)
    elif isinstance(row, Post | Decision):
        _write_row(row)
    else:
        row.save(force_insert=True)
    return row


def _saved(post: Post) -> Post:
    """The post written, if it was waiting to be written with its events (``_new_post``
    with ``with_events``): before anything else points to it."""
    if _waits_for_events(post):
        del post._waits_for_events  # type: ignore[attr-defined]
        _insert(post)
    return post


def _waits_for_events(post: Post | None) -> bool:
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


def _one_row[Row: models.Model](model: type[Row], **equal: Any) -> Row | None:
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
    values = [_from_db(f, value, db) for f, value in zip(fields, row, strict=True)]
    return model.from_db(DEFAULT_DB_ALIAS, [f.attname for f in fields], values)


def _from_db(field: Any, value: Any, db: BaseDatabaseWrapper) -> Any:
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
    if _waits_for_events(asked_in) and db.vendor == "postgresql":
        assert isinstance(row, Decision) and asked_in is not None
        _write_post_and_decision(asked_in, row, db)
        return
    if asked_in is not None:
        _saved(asked_in)
    # As save() does: refuses a related row not yet saved, takes the key of one saved since.
    row._prepare_related_fields_for_save(operation_name="save")  # type: ignore[union-attr]
    fields, values = _fields_and_values(row, db)
    columns = _column_list(fields, db)
    marks = ", ".join(["%s"] * len(fields))
    with db.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {db.ops.quote_name(type(row)._meta.db_table)} ({columns})"
            f" VALUES ({marks}) RETURNING {db.ops.quote_name('id')}",
            values,
        )
        _written(row, cursor.fetchone()[0])


def _write_post_and_decision(post: Post, decision: Decision, db: BaseDatabaseWrapper) -> None:
    """The declaration's post and the question it stopped at: the post's INSERT as a common
    table expression whose key the decision's INSERT takes."""
    del post._waits_for_events  # type: ignore[attr-defined]
    quote = db.ops.quote_name
    post_fields, post_values = _fields_and_values(post, db)
    fields, values = _fields_and_values(decision, db, leave="post_id")
    with db.cursor() as cursor:
        cursor.execute(
            f"WITH post AS (INSERT INTO {quote(Post._meta.db_table)}"
            f" ({_column_list(post_fields, db)})"
            f" VALUES ({', '.join(['%s'] * len(post_fields))}) RETURNING id)"
            f" INSERT INTO {quote(Decision._meta.db_table)}"
            f" ({_column_list(fields, db)}, {quote('post_id')})"
            f" SELECT {', '.join(['%s'] * len(fields))}, post.id FROM post RETURNING id, post_id",
            post_values + values,
        )
        decision_id, post_id = cursor.fetchone()
    _written(post, post_id)
    _written(decision, decision_id)
    decision.post = post  # its key, now known


def _new_post(
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
) -> Post:
    """The match's next post. ``with_events``: written with the events that will point to it,
    in one statement (``_append_events``), or by ``_saved`` if something else needs it first."""
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
    else:
        _insert(post)
    match.last_post_number = post.number  # saved with the match by ``_touch``
    return post


def _append_event(
    match: Match, state: MatchState, type: str, data: dict[str, Any], post: Post | None
) -> MatchEvent:
    [event] = MatchEvent.objects.bulk_create(_event_rows(match, state, [(type, data)], post))
    return event


def _append_events(
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
            _saved(post)
        writes.events.extend(rows)
    else:
        match._unwritten_events = rows  # type: ignore[attr-defined]


def _write_events(match: Match) -> None:
    """The events ``_append_events`` left on the match, written now (with the post that waits
    for them) for whoever reads them back before ``_touch``: the post-match's tally."""
    _write_event_rows(match.__dict__.pop("_unwritten_events", []))


def _write_event_rows(rows: list[dict[str, Any]]) -> None:
    if rows and rows[0]["post"] is not None:
        _saved(rows[0]["post"])
    _insert_event_rows(rows)


def _write_events_with_match(match: Match, rows: list[dict[str, Any]], changed: list[str]) -> None:
    """The post waiting for its events, the events and the match's changes in one statement
    (PostgreSQL): the INSERTs as common table expressions, the events taking the post's new
    key, then the match's UPDATE. The post and the events go as one JSON document each, which
    the database reads into rows of their tables (``jsonb_populate_record``): one parameter
    however many events, and a statement whose text, and so whose parsing, repeats."""
    db = connections[DEFAULT_DB_ALIAS]
    quote = db.ops.quote_name
    post = rows[0]["post"]
    assert all(row["post"] is post for row in rows)
    waiting = _waits_for_events(post)
    tables, params = [], []
    if waiting:
        post_fields = [f for f in Post._meta.concrete_fields if not f.primary_key]
        columns = _column_list(post_fields, db)
        tables.append(
            f"post AS (INSERT INTO {quote(Post._meta.db_table)} ({columns}) SELECT {columns}"
            f" FROM jsonb_populate_record(NULL::{quote(Post._meta.db_table)}, %s::jsonb)"
            " RETURNING id)"
        )
        params.append(_json_record({f.column: f.pre_save(post, True) for f in post_fields}))
    fields = [f for f in MatchEvent._meta.concrete_fields if not f.primary_key]
    names = [quote(str(f.column)) for f in fields]
    selected = [
        "(SELECT id FROM post)" if waiting and f.attname == "post_id" else name
        for f, name in zip(fields, names, strict=True)
    ]
    tables.append(
        f"events AS (INSERT INTO {quote(MatchEvent._meta.db_table)} ({', '.join(names)})"
        f" SELECT {', '.join(selected)} FROM"
        f" jsonb_populate_recordset(NULL::{quote(MatchEvent._meta.db_table)}, %s::jsonb))"
    )
    created_at = timezone.now()
    known = [_event_values(row, created_at) for row in rows]
    params.append(_json_record([{f.column: values[f.attname] for f in fields} for values in known]))
    update, update_params = buffer.update_statement(Match, [match], changed, db)
    returning = " RETURNING (SELECT id FROM post)" if waiting else ""
    with db.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(tables)} {update}{returning}", params + update_params)
        if waiting:
            del post._waits_for_events
            _written(post, cursor.fetchone()[0])


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
    the match's heads moved on (saved with the match by ``_touch``)."""
    chained = []
    number, prev = match.last_event_number, match.last_event_hash
    for type, data in events:
        number += 1
        digest = MatchEvent.chain_hash(prev, number, type, data)
        chained.append((number, type, data, prev, digest))
        prev = digest
    match.last_event_number, match.last_event_hash = number, prev
    return chained


def coach_of(match: Match, actor: str) -> int:
    """The user id of a TEAM:SIDE's coach (the captain holds the rival's side until a rival
    joins)."""
    team_key, _sep, side = actor.partition(":")
    team = match.home_team if team_key == "home" else match.away_team
    if side == "captain" or team.rival_id is None:
        return team.captain_id
    return team.rival_id
