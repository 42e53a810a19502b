"""The coaches, game masters and league that the deadline, GM and verification tests share,
and a split team made the way coaches make one (captain creates, rival accepts). Each
folder's conftest imports the fixtures it uses from here."""

import pytest
from django.contrib.auth.models import User

from bbweb.roles import make_game_master
from teams import rosters
from teams import services as team_services
from teams.models import League, Team


def person(name: str) -> User:
    return User.objects.create_user(name, email=f"{name}@example.org")


def game_master(name: str) -> User:
    user = person(name)
    make_game_master(user)
    return user


@pytest.fixture
def alice(db: None) -> User:
    return person("alice")


@pytest.fixture
def bob(db: None) -> User:
    return person("bob")


@pytest.fixture
def carol(db: None) -> User:
    return person("carol")


@pytest.fixture
def dave(db: None) -> User:
    return person("dave")


@pytest.fixture
def erin(db: None) -> User:
    return person("erin")


@pytest.fixture
def gm(db: None) -> User:
    return game_master("gm")


@pytest.fixture
def otto(db: None) -> User:
    return game_master("otto")


@pytest.fixture
def league(gm: User) -> League:
    # The tests' figures are worked out on plain LRB5's 1,000,000 (a new league's default is VE
    # 160, tested on its own).
    return League.objects.create(name="Liga del Foro", gm=gm, starting_treasury=1_000_000)


def split_team(
    captain: User, rival: User, plan: rosters.TeamPlan, name: str, league: League
) -> Team:
    team = team_services.create_team(
        captain, plan, name=name, league=league, rival_username=rival.username
    )
    team_services.accept_invitation(rival, team.invitations.get())
    team.refresh_from_db()
    return team
