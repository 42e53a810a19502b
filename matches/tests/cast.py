"""The cast of a match: alice captains the home Reavers and bob coaches their rival's side;
carol captains the away Raiders and dave their rival's side; erin only watches; gm referees."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bbweb.roles import make_game_master
from matches import services
from matches.models import Match
from teams import services as team_services
from teams.models import League, Team
from tools.demo_teams import DEMO_TEAMS

ROLES = ("anonymous", "erin", "alice", "bob", "carol", "gm")


@pytest.fixture
def gm(db: None) -> User:
    user = User.objects.create_user("gm", email="gm@bbweb.local")
    make_game_master(user)
    return user


@pytest.fixture
def cast(gm: User) -> dict[str, User]:
    users = {"gm": gm}
    for name in ("alice", "bob", "carol", "dave", "erin"):
        users[name] = User.objects.create_user(name, email=f"{name}@bbweb.local")
    return users


@pytest.fixture
def league(gm: User) -> League:
    return League.objects.create(name="Liga del Foro", gm=gm)


@pytest.fixture
def teams(cast: dict[str, User], league: League) -> tuple[Team, Team]:
    made = []
    for name, captain, rival, plan in DEMO_TEAMS:
        team = team_services.create_team(
            cast[captain], plan, name=name, league=league, rival_username=rival
        )
        team_services.accept_invitation(cast[rival], team.invitations.get())
        made.append(team)
    return made[0], made[1]


@pytest.fixture
def match(teams: tuple[Team, Team], gm: User) -> Match:
    home, away = teams
    return services.create_match(home=home, away=away, gm=gm, league=home.league)


@pytest.fixture
def clients(cast: dict[str, User]) -> dict[str, Client]:
    out = {"anonymous": Client()}
    for name, user in cast.items():
        out[name] = Client()
        out[name].force_login(user)
    return out
