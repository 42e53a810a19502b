"""The cast of the pre- and post-match tests, in the demo league: alice captains the Reikland
Reavers (home) and bob coaches their rival's side; carol captains the Orcland Raiders (away)
and dave coaches their rival's side; erin coaches a team that is not in the match; gm is the
league's game master."""

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User

from bbweb.roles import make_game_master
from matches import services
from matches.models import Match
from matches.sequence.tests.driving import ConstantDice
from matches.tests.dice import use_dice
from rules.engine import ScriptedDice
from teams.models import Team
from tools.demo_teams import load_demo_teams


@pytest.fixture
def cast(db: None) -> dict[str, User]:
    users = {
        name: User.objects.create_user(name)
        for name in ("gm", "alice", "bob", "carol", "dave", "erin")
    }
    make_game_master(users["gm"])
    return users


@pytest.fixture
def demo(cast: dict[str, User]) -> tuple[Team, Team]:
    reavers, raiders = load_demo_teams()
    return reavers, raiders


@pytest.fixture
def constant_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every die of the match shows 3 (a D3 shows 2): the whole match is known in advance."""
    use_dice(monkeypatch, lambda match: ConstantDice(3))


@pytest.fixture
def sequence_faces(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The faces the sequence's own rolls will show, in order (a test fills the list)."""
    faces: list[int] = []
    use_dice(monkeypatch, lambda match: ScriptedDice(faces), sequence=True)
    yield faces


@pytest.fixture
def prematch(demo: tuple[Team, Team], cast: dict[str, User]) -> Match:
    reavers, raiders = demo
    return services.create_match(
        home=reavers, away=raiders, gm=cast["gm"], league=reavers.league, prematch=True
    )
