"""The cast of a match: alice captains the home Reavers with bob on their rival's side, carol
captains the away Raiders with erin on theirs, gm runs the league and the match, otto is
another game master, and dave only watches."""

import random
import secrets
from typing import Any

import pytest
from django.contrib.auth.models import User

from bbweb.roles import make_game_master
from matches import services
from matches.folding import undone_numbers
from matches.models import Match
from rules.engine.randomplay import _choose
from teams import rosters
from teams import services as team_services
from teams.models import League, Team
from teams.tests.conftest import REAVERS, starting_plan


def _user(name: str) -> User:
    return User.objects.create_user(name)


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
def erin(db: None) -> User:
    return _user("erin")


@pytest.fixture
def dave(db: None) -> User:
    return _user("dave")


@pytest.fixture
def gm(db: None) -> User:
    user = _user("gm")
    make_game_master(user)
    return user


@pytest.fixture
def otto(db: None) -> User:
    user = _user("otto")
    make_game_master(user)
    return user


@pytest.fixture
def league(gm: User) -> League:
    return League.objects.create(name="Liga del Foro", gm=gm)


def split_team(
    captain: User, rival: User, plan: rosters.TeamPlan, name: str, league: League
) -> Team:
    team = team_services.create_team(
        captain, plan, name=name, league=league, rival_username=rival.username
    )
    team_services.accept_invitation(rival, team.invitations.get())
    team.refresh_from_db()
    return team


@pytest.fixture
def home(alice: User, bob: User, league: League) -> Team:
    return split_team(alice, bob, REAVERS, "Reikland Reavers", league)


@pytest.fixture
def away(carol: User, erin: User, league: League) -> Team:
    return split_team(carol, erin, starting_plan("orc"), "Orcland Raiders", league)


@pytest.fixture
def match(
    home: Team, away: Team, gm: User, league: League, monkeypatch: pytest.MonkeyPatch
) -> Match:
    # A fixed dice seed: the tests play random legal moves and look for a question or a roll
    # to dispute; with a new seed each run, a match could end before one came up.
    monkeypatch.setattr(secrets, "token_bytes", lambda n: bytes(range(7, 7 + n)))
    return services.create_match(home=home, away=away, gm=gm, league=league)


@pytest.fixture
def coaches(alice: User, bob: User, carol: User, erin: User) -> dict[str, User]:
    return {"home:captain": alice, "home:rival": bob, "away:captain": carol, "away:rival": erin}


def play(
    match: Match, coaches: dict[str, User], rng: random.Random, steps: int
) -> list[tuple[int, dict[str, Any]]]:
    """Random legal play through the services; returns the number of the last event and the
    stored state after each call."""
    seen = []
    for _ in range(steps):
        match.refresh_from_db()
        state = services.load_state(match)
        if state.phase == "finished" or match.status != Match.Status.IN_PLAY:
            break
        if state.pending is not None:
            choice = rng.choice(state.pending.options)
            services.answer(match.pk, coaches[state.pending.to], choice)
        else:
            actor, decl = _choose(state, rng, whole=True)
            services.declare(match.pk, coaches[str(actor)], decl.to_json(), side=actor.side)
        match.refresh_from_db()
        seen.append(
            (match.events.order_by("-number").values_list("number", flat=True)[0], match.state)
        )
    return seen


def first_roll(match: Match, after: int = 0) -> int:
    """The number of the first live event with dice after event ``after``."""
    events = list(match.events.order_by("number"))
    gone = undone_numbers(events)
    return next(
        e.number
        for e in events
        if e.number > after and e.data.get("faces") and e.number not in gone
    )
