import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from teams import services
from teams.models import Team
from teams.tests.conftest import starting_plan

pytestmark = pytest.mark.django_db


@pytest.fixture
def rich(team: Team) -> Team:
    Team.objects.filter(pk=team.pk).update(captain_treasury=1_000_000)
    team.refresh_from_db()
    return team


def test_a_reroll_costs_double_after_creation(client: Client, rich: Team, alice: User) -> None:
    client.force_login(alice)
    response = client.post(reverse("teams:buy", args=[rich.pk]), {"item": "reroll"}, follow=True)
    assert "Bought for 100,000 gp." in response.content.decode()
    rich.refresh_from_db()
    assert (rich.rerolls, rich.captain_treasury, rich.rival_treasury) == (3, 900_000, 74_000)
    # The team value counts the reroll at its roster price.
    assert rich.value == 830_000 + 50_000


def test_an_orc_reroll_costs_120000(carol: User, other_team: Team) -> None:
    Team.objects.filter(pk=other_team.pk).update(captain_treasury=200_000)
    assert services.buy_reroll(carol, other_team) == 120_000


def test_a_team_has_eight_rerolls_at_most(rich: Team, alice: User) -> None:
    for _ in range(6):
        services.buy_reroll(alice, rich)
    with pytest.raises(services.RuleBroken, match="at most 8 team rerolls"):
        services.buy_reroll(alice, rich)
    rich.refresh_from_db()
    assert (rich.rerolls, rich.captain_treasury) == (8, 400_000)


def test_staff_is_bought_from_the_captains_treasury(rich: Team, alice: User) -> None:
    assert services.buy_staff(alice, rich, "assistant_coach") == 10_000
    assert services.buy_staff(alice, rich, "cheerleader") == 10_000
    assert services.buy_staff(alice, rich, "apothecary") == 50_000
    rich.refresh_from_db()
    assert (rich.assistant_coaches, rich.cheerleaders, rich.apothecary) == (1, 1, True)
    assert rich.captain_treasury == 930_000
    with pytest.raises(services.RuleBroken, match="already has its apothecary"):
        services.buy_staff(alice, rich, "apothecary")


def test_a_team_without_an_apothecary_race_cannot_buy_one(alice: User) -> None:
    khemri = services.create_team(alice, starting_plan("khemri"), name="Tomb Kings")
    with pytest.raises(services.RuleBroken, match="Khemri teams may not have an apothecary"):
        services.buy_staff(alice, khemri, "apothecary")


def test_a_purchase_without_the_gold_changes_nothing(
    client: Client, team: Team, alice: User
) -> None:
    client.force_login(alice)
    response = client.post(reverse("teams:buy", args=[team.pk]), {"item": "reroll"}, follow=True)
    assert "Not enough gold: that costs 100,000 gp" in response.content.decode()
    team.refresh_from_db()
    assert (team.rerolls, team.captain_treasury) == (2, 96_000)


def test_an_unknown_purchase_is_refused(client: Client, rich: Team, alice: User) -> None:
    client.force_login(alice)
    response = client.post(reverse("teams:buy", args=[rich.pk]), {"item": "wizard"}, follow=True)
    assert "Unknown purchase “wizard”." in response.content.decode()
    assert Team.objects.get(pk=rich.pk).captain_treasury == 1_000_000


def test_the_rival_side_pays_nothing_for_team_purchases(rich: Team, alice: User) -> None:
    Team.objects.filter(pk=rich.pk).update(captain_treasury=0, rival_treasury=900_000)
    with pytest.raises(services.NotEnoughGold):
        services.buy_staff(alice, rich, "cheerleader")
    assert Team.objects.get(pk=rich.pk).rival_treasury == 900_000
