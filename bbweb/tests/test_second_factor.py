"""With BBWEB_REQUIRE_GM_MFA on, a GM (or staff) without an authenticator app is sent to turn
one on before ruling, editing a league or opening the admin; a coach is asked nothing."""

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from bbweb.roles import make_game_master
from teams.models import League

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def gm() -> User:
    user = User.objects.create_user("gm", email="gm@example.org")
    make_game_master(user)
    return user


@override_settings(BBWEB_REQUIRE_GM_MFA=True)
def test_a_gm_without_two_factors_cannot_rule_until_they_turn_them_on(gm: User) -> None:
    league = League.objects.create(name="Liga", gm=gm)
    client = Client()
    client.force_login(gm)
    for url in (
        reverse("gm:queue"),
        reverse("gm:league_edit", args=[league.pk]),
        reverse("gm:league_create"),
        "/admin/",
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == reverse("mfa_activate_totp"), url
    edit = client.post(reverse("gm:league_edit", args=[league.pk]), {"name": "Renamed"})
    assert edit["Location"] == reverse("mfa_activate_totp")
    league.refresh_from_db()
    assert league.name == "Liga"
    assert client.get(reverse("home")).status_code == 200  # the rest of the site is open

    TOTP.activate(gm, generate_totp_secret())
    assert client.get(reverse("gm:queue")).status_code == 200
    assert client.get("/admin/").status_code == 200


@override_settings(BBWEB_REQUIRE_GM_MFA=True)
def test_a_coach_is_not_asked_for_two_factors() -> None:
    coach = User.objects.create_user("carol")
    client = Client()
    client.force_login(coach)
    assert client.get(reverse("gm:queue")).status_code == 403
    assert client.get(reverse("home")).status_code == 200


@override_settings(BBWEB_REQUIRE_GM_MFA=False)
def test_with_the_setting_off_a_gm_rules_without_two_factors(gm: User) -> None:
    client = Client()
    client.force_login(gm)
    assert client.get(reverse("gm:queue")).status_code == 200
