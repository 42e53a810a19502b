import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from teams import services
from teams.models import Invitation, Team

pytestmark = pytest.mark.django_db


def test_the_invited_coach_sees_the_invitation_and_accepts(
    client: Client, solo_team: Team, alice: User, dave: User
) -> None:
    client.force_login(alice)
    response = client.post(
        reverse("teams:invite", args=[solo_team.pk]), {"username": "Dave"}, follow=True
    )
    assert "dave is invited to coach the rival&#x27;s side." in response.content.decode()
    assert "dave (invited)" in response.content.decode()
    client.force_login(dave)
    page = client.get(reverse("teams:mine")).content.decode()
    assert "alice invites you to coach the rival's side of Solo Reavers." in page
    invitation = Invitation.objects.get()
    client.post(reverse("teams:accept_invitation", args=[invitation.pk]))
    solo_team.refresh_from_db()
    assert solo_team.rival == dave
    assert solo_team.controls(dave, "rival") and not solo_team.controls(alice, "rival")


def test_a_declined_invitation_leaves_the_captain_with_both_sides(
    solo_team: Team, alice: User, dave: User
) -> None:
    invitation = services.invite_rival(alice, solo_team, "dave")
    services.decline_invitation(dave, invitation)
    solo_team.refresh_from_db()
    assert solo_team.rival is None and solo_team.controls(alice, "rival")
    with pytest.raises(services.AlreadyAnswered):
        services.accept_invitation(dave, invitation)


def test_a_new_invitation_replaces_the_pending_one(
    solo_team: Team, alice: User, bob: User, dave: User
) -> None:
    first = services.invite_rival(alice, solo_team, "dave")
    services.invite_rival(alice, solo_team, "bob")
    first.refresh_from_db()
    assert first.status == "withdrawn"
    with pytest.raises(services.AlreadyAnswered):
        services.accept_invitation(dave, first)
    assert Invitation.objects.get(status="pending").user == bob


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("nobody", "There is no coach called “nobody”."),
        ("alice", "The captain cannot also be the rival coach."),
        ("", "This field is required."),
    ],
)
def test_a_bad_invitation_is_refused(
    client: Client, solo_team: Team, alice: User, username: str, message: str
) -> None:
    client.force_login(alice)
    response = client.post(
        reverse("teams:invite", args=[solo_team.pk]), {"username": username}, follow=True
    )
    assert message in response.content.decode()
    assert not Invitation.objects.exists()


def test_a_team_with_a_rival_invites_nobody(team: Team, alice: User, dave: User) -> None:
    with pytest.raises(services.RuleBroken, match="already has a rival coach"):
        services.invite_rival(alice, team, "dave")


def test_the_navigation_tells_the_invited_coach_an_answer_waits(
    client: Client, solo_team: Team, alice: User, dave: User
) -> None:
    client.force_login(dave)
    assert 'title="Waiting for your answer"' not in client.get("/").content.decode()
    services.invite_rival(alice, solo_team, "dave")
    page = client.get("/").content.decode()
    assert 'My teams <span class="badge" title="Waiting for your answer">1</span>' in page
