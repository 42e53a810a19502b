import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from teams import services
from teams.models import MoveProposal, Team
from teams.templatetags.teams_tags import waiting_answers

pytestmark = pytest.mark.django_db


def test_the_captain_proposes_and_the_rival_accepts(
    client: Client, team: Team, alice: User, bob: User
) -> None:
    karl = team.players.get(number=1)
    client.force_login(alice)
    response = client.post(reverse("teams:move", args=[team.pk, karl.pk]), follow=True)
    assert "The move of Karl waits for the rival coach." in response.content.decode()
    karl.refresh_from_db()
    assert karl.side == "captain"
    client.force_login(bob)
    page = client.get(reverse("teams:mine")).content.decode()
    assert "Reikland Reavers: #1 Karl to the rival's side" in page
    proposal = MoveProposal.objects.get()
    client.post(reverse("teams:accept_move", args=[proposal.pk]))
    karl.refresh_from_db()
    assert karl.side == "rival"
    assert team.side_value("rival") == 310_000 + 90_000


def test_the_rival_refuses_and_nothing_moves(team: Team, alice: User, bob: User) -> None:
    proposal = services.propose_move(alice, team.players.get(number=7))
    assert proposal is not None and proposal.to_side == "captain"
    services.refuse_move(bob, proposal)
    assert team.players.get(number=7).side == "rival"
    with pytest.raises(services.AlreadyAnswered):
        services.accept_move(bob, proposal)
    assert team.players.get(number=7).side == "rival"


def test_one_pending_move_per_player(team: Team, alice: User) -> None:
    player = team.players.get(number=3)
    services.propose_move(alice, player)
    with pytest.raises(services.RuleBroken, match="already waits"):
        services.propose_move(alice, player)
    assert MoveProposal.objects.count() == 1


def test_without_a_rival_the_captain_moves_players_at_once(solo_team: Team, alice: User) -> None:
    assert services.propose_move(alice, solo_team.players.get(number=1)) is None
    assert solo_team.players.get(number=1).side == "rival"
    assert not MoveProposal.objects.exists()


def test_firing_a_player_drops_its_pending_move(team: Team, alice: User, bob: User) -> None:
    proposal = services.propose_move(alice, team.players.get(number=2))
    assert proposal is not None
    services.fire_player(alice, team.players.get(number=2))
    proposal.refresh_from_db()
    assert proposal.status == "refused"


def test_the_navigation_counts_the_invitations_and_moves_waiting_for_the_user(
    team: Team, other_team: Team, alice: User, bob: User, carol: User
) -> None:
    assert waiting_answers(bob) == 0
    services.propose_move(alice, team.players.get(number=1))
    services.propose_move(alice, team.players.get(number=2))
    services.invite_rival(carol, other_team, "bob")
    assert waiting_answers(bob) == 3
    assert waiting_answers(alice) == 0
