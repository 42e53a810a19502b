"""Journeymen: free players for a team short of 11, hired for good by their side's coach."""

import pytest
from django.contrib.auth.models import AnonymousUser, User

from teams import services
from teams.models import Player, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def short(team: Team) -> Team:
    """The Reavers (11 players) with Karl (#1) and Max (#7) missing the next match."""
    Player.objects.filter(team=team, number__in=(1, 7)).update(miss_next_game=True)
    return team


def test_a_team_short_of_eleven_gets_journeymen_of_its_cheapest_0_16_position(short: Team) -> None:
    added = services.add_journeymen(short)
    assert [(p.position, p.status) for p in added] == [("human.lineman", "journeyman")] * 2
    assert {p.number for p in added} == {12, 13}
    assert services.add_journeymen(short) == []


@pytest.mark.parametrize(
    ("who", "error"),
    [
        ("anonymous", services.NotACoach),
        ("carol", services.NotACoach),
        ("gm", services.NotACoach),
        ("alice_for_the_rival", services.NotYourSide),
    ],
)
def test_only_the_coach_of_the_journeyman_s_side_hires_him(
    short: Team, alice: User, carol: User, gm: User, who: str, error: type[Exception]
) -> None:
    journeymen = services.add_journeymen(short)
    rival_one = next(p for p in journeymen if p.side == "rival")
    users: dict[str, User | AnonymousUser] = {
        "anonymous": AnonymousUser(),
        "carol": carol,
        "gm": gm,
        "alice_for_the_rival": alice,
    }
    with pytest.raises(error):
        services.hire_journeyman(users[who], rival_one)


def test_the_side_s_coach_hires_a_journeyman_from_its_own_treasury(short: Team, bob: User) -> None:
    journeyman = next(p for p in services.add_journeymen(short) if p.side == "rival")
    before = Team.objects.get(pk=short.pk).rival_treasury
    assert services.hire_journeyman(bob, journeyman) == 50_000
    journeyman.refresh_from_db()
    assert journeyman.status == Player.Status.ACTIVE
    assert Team.objects.get(pk=short.pk).rival_treasury == before - 50_000


def test_unhired_journeymen_leave_before_the_next_match(short: Team) -> None:
    services.add_journeymen(short)
    assert services.release_journeymen(short) == 2
    assert not Player.objects.filter(team=short, status=Player.Status.JOURNEYMAN).exists()
