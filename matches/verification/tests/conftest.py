"""Exported matches that went through what the verifier must follow: a GM's rulings and the
pre- and post-match sequence. The cast is the GM tests' own: alice and bob coach the home
Reavers, carol and erin the away Raiders, gm runs the league.

Each match is played once per test module (it takes seconds) in a transaction rolled back
afterwards; the tests read its export, a plain document."""

import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from bbweb.roles import make_game_master
from matches.models import Match, MatchEvent
from matches.tests.people import split_team
from matches.verification.exports import export_match
from teams.models import League, Team
from teams.tests.conftest import REAVERS, starting_plan

Doc = dict[str, Any]


@dataclass(frozen=True)
class Cast:
    users: dict[str, User]
    league: League
    home: Team
    away: Team

    @property
    def coaches(self) -> dict[str, User]:
        names = {"home:captain": "alice", "home:rival": "bob"}
        names |= {"away:captain": "carol", "away:rival": "erin"}
        return {actor: self.users[name] for actor, name in names.items()}


def new_cast() -> Cast:
    users = {name: User.objects.create_user(name) for name in ("alice", "bob", "carol", "erin")}
    users["gm"] = User.objects.create_user("gm")
    make_game_master(users["gm"])
    league = League.objects.create(name="Liga del Foro", gm=users["gm"])
    home = split_team(users["alice"], users["bob"], REAVERS, "Reikland Reavers", league)
    away = split_team(
        users["carol"], users["erin"], starting_plan("orc"), "Orcland Raiders", league
    )
    return Cast(users, league, home, away)


def played_once[T](django_db_blocker: Any, play: Callable[[], T]) -> Iterator[T]:
    """What ``play`` returns, its database work rolled back once the module's tests are done
    (the body of a module-scoped fixture)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield play()
        transaction.set_rollback(True)


def exported(match: Match) -> Doc:
    """The export as a file holds it (through JSON)."""
    match.refresh_from_db()
    doc: Doc = json.loads(json.dumps(export_match(match), default=str))
    return doc


def rechained(doc: Doc) -> Doc:
    """The document with every event's hashes computed again, as a forger would."""
    prev = doc["events"][0]["prev_hash"]
    for event in doc["events"]:
        event["prev_hash"] = prev
        event["hash"] = prev = MatchEvent.chain_hash(
            prev, event["number"], event["type"], event["data"]
        )
    return doc


def event_of(doc: Doc, number: int) -> Doc:
    found: Doc = next(e for e in doc["events"] if e["number"] == number)
    return found


def forged(doc: Doc) -> Doc:
    return copy.deepcopy(doc)


def verify_command(doc: Doc, path: Path, *options: str) -> tuple[str, str, CommandError | None]:
    """verify_match on the document saved to ``path``: its output, its errors and the error
    it exits with (None when it exits 0)."""
    path.write_text(json.dumps(doc))
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_match", str(path), *options, stdout=out, stderr=err)
    except CommandError as error:
        return out.getvalue(), err.getvalue(), error
    return out.getvalue(), err.getvalue(), None


@pytest.fixture
def tmp_file(tmp_path: Path) -> Path:
    return tmp_path / "match.json"
