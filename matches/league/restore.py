"""A league's export (matches.league.archive) imported into this bbweb, all of it or nothing.

The rows are written with the ids they had (a match's dice are derived from its id), so the
league imports where its ids are free; its people are found by username, or made without a
password or an e-mail (the operator lets them in). Once every row is written, the database
checks that they hold together, and every match's record must verify and be the one its rows
give: a file edited by hand anywhere in a match does not import. Whatever is wrong refuses the
whole file in one sentence, and nothing is written.
"""

import hashlib
import json
from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, models, transaction

from bbweb.roles import make_game_master
from matches.league.archive import FORMAT, TABLES, Row, Table, names_a_person
from matches.models import Match
from matches.verification.exports import export_match, verify
from teams.models import League

USERNAME_MAX = 150


class Refused(Exception):
    """The file is not imported; the message says why in one sentence."""


def _normal(value: Any) -> Any:
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Refused(f"{what} is not a JSON object")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise Refused(f"{what} is not a list")
    return value


def _shape(doc: Any) -> tuple[list[Any], dict[str, list[Row]], list[Any]]:
    """The document's people, tables and records, once its outline is the format's."""
    doc = _object(doc, "the file")
    if doc.get("format") != FORMAT:
        raise Refused(f"the file is not a {FORMAT} document")
    tables = _object(doc.get("tables"), "tables")
    unknown = set(tables) - {table.key for table in TABLES}
    if unknown:
        raise Refused(f"the file holds tables this bbweb does not know: {sorted(unknown)}")
    rows = {table.key: _list(tables.get(table.key, []), table.key) for table in TABLES}
    for table in TABLES:
        for row in rows[table.key]:
            _object(row, f"a row of {table.key}")
            if not isinstance(row.get("id"), int):
                raise Refused(f"a row of {table.key} has no id")
    if len(rows["leagues"]) != 1:
        raise Refused("the file holds no league, or more than one")
    return _list(doc.get("people"), "people"), rows, _list(doc.get("records"), "records")


def _refuse_what_is_here(rows: dict[str, list[Row]]) -> None:
    name = rows["leagues"][0].get("name")
    if League.objects.filter(name=name).exists():
        raise Refused(f"the league {name} is already here")
    for table in TABLES:
        ids = [row["id"] for row in rows[table.key]]
        taken = table.model._default_manager.filter(pk__in=ids).order_by("pk").first()
        if taken is not None:
            raise Refused(
                f"this database already holds {table.key} {taken.pk}: a league keeps its ids "
                "(its matches' dice are derived from them), so it imports where they are free"
            )


def _people(people: list[Any]) -> dict[str, int]:
    """The id of every person the file names: found by username, or made without a password
    or an e-mail (a game master in the file is made one here too)."""
    valid = UnicodeUsernameValidator()
    found: dict[str, int] = {}
    for person in people:
        person = _object(person, "a person")
        name = person.get("username")
        if not isinstance(name, str) or not 0 < len(name) <= USERNAME_MAX:
            raise Refused(f"{name!r} is not a username")
        try:
            valid(name)
        except ValidationError:
            raise Refused(f"{name!r} is not a username") from None
        user = User.objects.filter(username=name).first()
        if user is None:
            user = User(username=name)
            user.set_unusable_password()
            user.save()
            if person.get("game_master") is True:
                make_game_master(user)
        found[name] = user.pk
    return found


def _person(name: Any, people: dict[str, int], where: str) -> int:
    if name not in people:
        raise Refused(f"{where} names {name!r}, who is not among the file's people")
    return people[name]


def _instance(table: Table, row: Row, people: dict[str, int]) -> models.Model:
    """The row as a model instance, each value read and checked as its column reads it."""
    where = f"{table.key} {row['id']}"
    fields: dict[str, models.Field[Any, Any]] = {}
    for field in table.model._meta.concrete_fields:
        fields[field.name if names_a_person(field) else field.attname] = field
    unknown = set(row) - set(fields)
    if unknown:
        raise Refused(f"{where} has columns this bbweb does not know: {sorted(unknown)}")
    values: dict[str, Any] = {}
    for key, value in row.items():
        field = fields[key]
        try:
            if value is None or isinstance(field, models.JSONField):
                values[field.attname] = value
            elif names_a_person(field):
                values[field.attname] = _person(value, people, where)
            else:
                values[field.attname] = field.to_python(value)
        except ValidationError as error:
            raise Refused(f"{where}: {key}: {' '.join(error.messages)}") from None
    instance = table.model(**values)
    blank = [f.name for f in fields.values() if getattr(instance, f.attname) in f.empty_values]
    relations = [f.name for f in fields.values() if f.is_relation]
    try:
        instance.clean_fields(exclude=[*blank, *relations])
    except ValidationError as error:
        field_name, messages = next(iter(error.message_dict.items()))
        raise Refused(f"{where}: {field_name}: {' '.join(messages)}") from None
    return instance


def _substitutes_by_id(row: Row, people: dict[str, int]) -> Row:
    where = f"matches {row['id']}"
    substitutes = _object(row.get("substitutes", {}), f"{where}: substitutes")
    ids = {actor: _person(name, people, where) for actor, name in substitutes.items()}
    return {**row, "substitutes": ids}


def _write(table: Table, instances: list[models.Model]) -> None:
    """The rows as they were, their creation and change times included (which a plain insert
    would set to now)."""
    stamped = [
        f.attname
        for f in table.model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    kept = [{name: getattr(i, name) for name in stamped} for i in instances]
    table.model._default_manager.bulk_create(instances)
    if stamped and instances:
        for instance, times in zip(instances, kept, strict=True):
            for name, value in times.items():
                setattr(instance, name, value)
        table.model._default_manager.bulk_update(instances, stamped, batch_size=500)


def _reset_id_sequences() -> None:
    """The next row made here takes an id after the imported ones."""
    statements = connection.ops.sequence_reset_sql(no_style(), [t.model for t in TABLES])
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def _check_match(match: Match, record: dict[str, Any]) -> None:
    """The record verifies, and it is the one the imported rows give."""
    where = f"match {match.pk}"
    try:
        result = verify(record)
    except (AttributeError, KeyError, TypeError, ValueError, RecursionError) as error:
        raise Refused(f"{where}: its record is not a match export ({error!r})") from None
    if result.problems:
        raise Refused(f"{where}: its record does not verify: {result.problems[0]}")
    if match.status == Match.Status.FINISHED and not result.ok:
        raise Refused(f"{where} is finished, but its record does not reveal its seed")
    if match.status != Match.Status.FINISHED:
        if not match.dice_seed:
            raise Refused(
                f"{where} is not finished and the file holds no seed for its dice to come (the "
                "GM's download leaves it out): export the league with manage.py export_league"
            )
        if hashlib.sha256(bytes.fromhex(match.dice_seed)).hexdigest() != match.dice_commitment:
            raise Refused(f"{where}: its seed is not the one its dice commitment was made from")
    try:
        given = _normal(export_match(match))
    except ValueError as error:
        raise Refused(f"{where}: its rows are not the record of a match: {error}") from None
    for key, value in _normal(record).items():
        if given.get(key) != value:
            raise Refused(f"{where}: its rows do not give the {key!r} its record holds")


def _check_records(records: list[Any], match_ids: set[int]) -> None:
    by_match: dict[Any, dict[str, Any]] = {}
    for record in records:
        record = _object(record, "a match's record")
        by_match[_object(record.get("match"), "a record's match").get("id")] = record
    if set(by_match) != match_ids:
        raise Refused("the file's records are not those of its matches, one each")
    matches = Match.objects.select_related("gm", "league", "home_team", "away_team")
    for match in matches.filter(pk__in=match_ids).order_by("pk"):
        _check_match(match, by_match[match.pk])


def import_league(doc: Any) -> League:
    """Write the league the document holds, or refuse it (``Refused``) and write nothing."""
    people_json, rows, records = _shape(doc)
    try:
        with transaction.atomic():
            _refuse_what_is_here(rows)
            people = _people(people_json)
            rows["matches"] = [_substitutes_by_id(row, people) for row in rows["matches"]]
            for table in TABLES:
                _write(table, [_instance(table, row, people) for row in rows[table.key]])
            _reset_id_sequences()
            connection.check_constraints()
            _check_records(records, {row["id"] for row in rows["matches"]})
            return League.objects.get(pk=rows["leagues"][0]["id"])
    except DatabaseError as error:
        raise Refused(f"the file's rows do not hold together: {_database_says(error)}") from None


def _database_says(error: DatabaseError) -> str:
    """The database's complaint in a line: what it refused, and which key when it names one
    (not the whole row it quotes for a check)."""
    lines = str(error).splitlines() or [type(error).__name__]
    keys = [line.removeprefix("DETAIL:").strip() for line in lines if "Key (" in line]
    return " ".join([lines[0].strip(), *keys[:1]])
