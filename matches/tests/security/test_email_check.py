"""Sign-up sends a link to the address given; until it is followed, the account joins no team
(creating one or accepting an invitation) and no league."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from teams import services
from teams.models import League, Team
from teams.tests.conftest import starting_plan

pytestmark = pytest.mark.django_db


def _sign_up(client: Client) -> User:
    data = {
        "username": "newcomer",
        "email": "newcomer@example.org",
        "password1": "a-long-and-unusual-passphrase",
        "password2": "a-long-and-unusual-passphrase",
    }
    client.post(reverse("signup"), data)
    return User.objects.get(username="newcomer")


def _link() -> str:
    found = re.search(r"http://testserver(/accounts/confirm-email/\S+/)", str(mail.outbox[-1].body))
    assert found is not None
    return found.group(1)


def test_an_account_joins_no_team_before_its_e_mail_is_confirmed(client: Client) -> None:
    user = _sign_up(client)
    assert mail.outbox[-1].to == ["newcomer@example.org"]
    with pytest.raises(services.EmailNotVerified):
        services.create_team(user, starting_plan("orc"), name="Too Early")
    captain = User.objects.create_user("carol")
    team = services.create_team(captain, starting_plan("human"), name="Waiting")
    invitation = services.invite_rival(captain, team, "newcomer")
    with pytest.raises(services.EmailNotVerified):
        services.accept_invitation(user, invitation)
    assert client.post(_link()).status_code == 302
    assert EmailAddress.objects.get(user=user).verified
    services.accept_invitation(user, invitation)
    services.create_team(user, starting_plan("orc"), name="In Time")


def test_an_account_joins_no_league_before_its_e_mail_is_confirmed(client: Client) -> None:
    user = _sign_up(client)
    client.force_login(user)  # as an account logged in before allauth, its address waiting
    team = services.create_team(User.objects.create_user("carol"), starting_plan("orc"), name="T")
    Team.objects.filter(pk=team.pk).update(captain=user)
    league = League.objects.create(name="Liga", gm=User.objects.create_user("gm"))
    url = reverse("gm:league_join", args=[league.pk])
    response = client.post(url, {"team": team.pk})
    assert response.status_code == 403
    assert "Confirm your e-mail address first" in response.content.decode()
    team.refresh_from_db()
    assert team.league is None


def test_a_forged_or_stale_link_confirms_nothing(client: Client) -> None:
    user = _sign_up(client)
    link = _link()
    page = client.get(link[:-3] + "xx/").content.decode()
    assert "This email confirmation link expired or is invalid." in page
    assert client.post(link[:-3] + "xx/").status_code == 404
    assert not EmailAddress.objects.get(user=user).verified


def test_accounts_made_by_staff_or_commands_need_no_link() -> None:
    user = User.objects.create_user("old", email="old@example.org")
    services.create_team(user, starting_plan("orc"), name="Old Hands")
