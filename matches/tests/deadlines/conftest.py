"""The cast: alice captains the Reikland Reavers (home) and bob coaches their rival's side;
carol captains the Orcland Raiders (away) and dave their rival's side; gm runs the league.
Shirt numbers 1-6 are captain's-side players, 7-11 rival's-side, on both teams, so the engine
ids are h1..h6 / h7..h11 and a1..a6 / a7..a11."""

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from bbweb.roles import make_game_master
from matches import services
from matches.models import Match
from rules.engine import MatchState, ScriptedDice
from teams import rosters
from teams import services as team_services
from teams.demo import ORCLAND, REIKLAND
from teams.models import League, Team

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


def _user(name: str) -> User:
    return User.objects.create_user(name, email=f"{name}@example.org")


@pytest.fixture
def alice(db: None) -> User:
    return _user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return _user("bob")


@pytest.fixture
def carol(db: None) -> User:
    return _user("carol")


@pytest.fixture
def dave(db: None) -> User:
    return _user("dave")


@pytest.fixture
def gm(db: None) -> User:
    user = _user("gm")
    make_game_master(user)
    return user


@pytest.fixture
def league(gm: User) -> League:
    return League.objects.create(name="Liga del Foro", gm=gm)


def _split_team(
    captain: User, rival: User, plan: rosters.TeamPlan, name: str, league: League
) -> Team:
    team = team_services.create_team(
        captain, plan, name=name, league=league, rival_username=rival.username
    )
    team_services.accept_invitation(rival, team.invitations.get())
    team.refresh_from_db()
    return team


@pytest.fixture
def reavers(alice: User, bob: User, league: League) -> Team:
    return _split_team(alice, bob, _plan("human", REIKLAND), "Reikland Reavers", league)


@pytest.fixture
def raiders(carol: User, dave: User, league: League) -> Team:
    return _split_team(carol, dave, _plan("orc", ORCLAND), "Orcland Raiders", league)


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
    match.turn_deadline_at = services._now() + timedelta(hours=48)
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
    monkeypatch.setattr(services, "_now", stopped)
    return stopped


@pytest.fixture
def in_play(match: Match, clock: Clock) -> Match:
    return put(match, STANDARD)


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The faces the engine reads from the position's first roll on; extend the list."""
    faces: list[int] = []
    monkeypatch.setattr(services, "dice_for", lambda match: ScriptedDice(faces))
    return faces


@pytest.fixture
def on_commit(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> Callable[..., Any]:
    """Run the on-commit callbacks (tasks run eagerly in tests) of what the block does."""
    return lambda: django_capture_on_commit_callbacks(execute=True)
