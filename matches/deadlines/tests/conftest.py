"""The cast: alice captains the Reikland Reavers (home) and bob coaches their rival's side;
carol captains the Orcland Raiders (away) and dave their rival's side; gm runs the league.
Shirt numbers 1-6 are captain's-side players, 7-11 rival's-side, on both teams, so the engine
ids are h1..h6 / h7..h11 and a1..a6 / a7..a11."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from bbweb import outbox
from matches import services
from matches.models import Match
from matches.services import core
from matches.tests.dice import use_dice
from matches.tests.people import alice, bob, carol, dave, gm, league, split_team
from rules.engine import MatchState, ScriptedDice
from teams import rosters
from teams.models import League, Team
from tools.demo_teams import ORCLAND, REIKLAND

C, R = rosters.CAPTAIN, rosters.RIVAL


def _plan(race: str, players: list[tuple[str, str, str]]) -> rosters.TeamPlan:
    return rosters.TeamPlan(
        race=race,
        players=tuple(
            rosters.PlannedPlayer(position, side, number, name)
            for number, (position, side, name) in enumerate(players, start=1)
        ),
        rerolls=2,
    )


@pytest.fixture
def reavers(alice: User, bob: User, league: League) -> Team:
    return split_team(alice, bob, _plan("human", REIKLAND), "Reikland Reavers", league)


@pytest.fixture
def raiders(carol: User, dave: User, league: League) -> Team:
    return split_team(carol, dave, _plan("orc", ORCLAND), "Orcland Raiders", league)


@pytest.fixture
def match(reavers: Team, raiders: Team, gm: User, league: League) -> Match:
    return services.create_match(home=reavers, away=raiders, gm=gm, league=league)


def player(pid: str, at: str, **stats: Any) -> dict[str, Any]:
    side = C if int(pid[1:]) <= 6 else R
    team = "home" if pid[0] == "h" else "away"
    return {
        "id": pid,
        "team": team,
        "side": side,
        "ma": 6,
        "st": 3,
        "ag": 3,
        "av": 8,
        "at": at,
    } | stats


def put(match: Match, players: list[dict[str, Any]], **setup: Any) -> Match:
    """The match in the middle of a team turn: home's turn 3, two rerolls each, the players
    given, the turn's clock just started."""
    state = MatchState.from_setup(
        {
            "half": 1,
            "active": "home",
            "turn": {"home": 3, "away": 2},
            "teams": {"home": {"rerolls": 2}, "away": {"rerolls": 2}},
            "players": players,
        }
        | setup
    )
    match.decisions.all().delete()
    match.state = state.to_json(compact=True)
    match.turn_deadline_at = core.now() + timedelta(hours=48)
    match.turn_time_left = None
    match.turn_warnings_sent = 0
    match.save()
    return match


# A standard position: Karl (h1, captain's side) and Max (h7, rival's side) beside Gorbag (a1);
# Shagrat (a7) far away.
STANDARD = [
    player("h1", "K8"),
    player("h7", "K9"),
    player("a1", "L8"),
    player("a7", "T3"),
]


class Clock:
    """The services' clock, stopped; tests move it forward."""

    def __init__(self) -> None:
        self.at = timezone.now()

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **delta: float) -> datetime:
        self.at += timedelta(**delta)
        return self.at


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    stopped = Clock()
    monkeypatch.setattr(core, "now", stopped)
    return stopped


@pytest.fixture
def in_play(match: Match, clock: Clock) -> Match:
    return put(match, STANDARD)


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The faces the engine reads from the position's first roll on; extend the list."""
    faces: list[int] = []
    use_dice(monkeypatch, lambda match: ScriptedDice(faces))
    return faces


@pytest.fixture
def on_commit(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> Callable[..., Any]:
    """Send what the block's commits queue, as production does (tasks run eagerly in tests):
    its on-commit callbacks, then the outbox's relay, which beat runs every few seconds."""

    @contextmanager
    def committed() -> Iterator[None]:
        with django_capture_on_commit_callbacks(execute=True):
            yield
        outbox.relay()

    return committed
