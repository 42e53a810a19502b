"""A team's roster waits while it has a match under way (pre-match, in play, post-match):
no hire, no firing, no move between the sides, except the journeymen the sequence offers."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services as match_services
from matches.models import Match
from teams import services
from teams.models import MoveProposal, Player, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(team: Team, other_team: Team, gm: User) -> Match:
    return match_services.create_match(home=team, away=other_team, gm=gm, league=team.league)


def _karl(team: Team) -> Player:
    return team.players.get(number=1)


@pytest.mark.parametrize("status", ["pre_match", "in_play", "post_match"])
def test_hiring_firing_and_moving_wait_while_the_team_has_a_match_under_way(
    team: Team, alice: User, bob: User, playing: Match, status: str
) -> None:
    proposal = MoveProposal.objects.create(player=team.players.get(number=7), to_side="captain")
    Match.objects.filter(pk=playing.pk).update(status=status)
    before = (team.players.count(), team.captain_treasury, team.rival_treasury)
    for attempt in (
        lambda: services.hire_player(alice, team, position="human.lineman", side="captain"),
        lambda: services.fire_player(alice, _karl(team)),
        lambda: services.propose_move(alice, _karl(team)),
        lambda: services.accept_move(bob, proposal),
    ):
        with pytest.raises(services.RosterFrozen):
            attempt()
    team.refresh_from_db()
    assert (team.players.count(), team.captain_treasury, team.rival_treasury) == before
    assert _karl(team).status == Player.Status.ACTIVE
    assert MoveProposal.objects.get(pk=proposal.pk).status == MoveProposal.Status.PENDING


def test_the_roster_opens_again_once_the_match_is_over(
    team: Team, alice: User, playing: Match
) -> None:
    Match.objects.filter(pk=playing.pk).update(status="finished")
    services.hire_player(alice, team, position="human.lineman", side="captain", name="Late")
    assert team.players.filter(name="Late").exists()


def test_the_team_page_says_why_the_hire_waits(
    client: Client, team: Team, alice: User, playing: Match
) -> None:
    client.force_login(alice)
    url = reverse("teams:hire", args=[team.pk])
    data = {"position": "human.lineman", "side": "captain", "name": "New"}
    page = client.post(url, data, follow=True).content.decode()
    assert "has a match under way" in page
    assert not team.players.filter(name="New").exists()
