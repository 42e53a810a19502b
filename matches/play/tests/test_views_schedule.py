"""The match list and scheduling a match: a GM schedules, everybody reads the list."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from bbweb.roles import make_game_master
from matches import services
from matches.models import Match
from teams.models import Team

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", ["anonymous", "erin", "alice", "bob", "carol", "gm"])
def test_the_match_list_shows_matches_in_play_and_my_matches(
    match: Match, clients: dict[str, Client], role: str
) -> None:
    html = clients[role].get("/matches/").content.decode()
    in_play = html.split('data-testid="in-play"')[1].split("</section>")[0]
    assert f"/matches/{match.pk}/" in in_play
    if role in ("alice", "bob", "carol", "gm"):
        mine = html.split('data-testid="mine"')[1].split("</section>")[0]
        assert f"/matches/{match.pk}/" in mine
    assert ('data-testid="schedule"' in html) is (role == "gm")


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 302), ("erin", 403), ("alice", 403), ("bob", 403), ("carol", 403), ("gm", 302)],
)
def test_only_a_game_master_schedules_a_match(
    teams: tuple[Team, Team], clients: dict[str, Client], role: str, status: int
) -> None:
    home, away = teams
    data = {"home": home.pk, "away": away.pk, "house_rules": "on"}
    response = clients[role].post("/matches/new/", data)
    assert response.status_code == status
    created = Match.objects.filter(home_team=home, away_team=away)
    assert created.exists() is (role == "gm")
    if role == "gm":
        match = created.get()
        assert response["Location"] == f"/matches/{match.pk}/"
        assert match.gm.username == "gm" and match.state["house_rules"] is True


def test_a_team_cannot_be_scheduled_against_itself(
    teams: tuple[Team, Team], clients: dict[str, Client]
) -> None:
    home, _away = teams
    response = clients["gm"].post("/matches/new/", {"home": home.pk, "away": home.pk})
    assert response.status_code == 200
    assert "A team cannot play itself." in response.content.decode()
    assert not Match.objects.exists()


def test_the_navigation_links_to_the_matches(clients: dict[str, Client]) -> None:
    assert 'href="/matches/"' in clients["anonymous"].get("/").content.decode()


def test_a_game_master_cannot_schedule_the_teams_of_another_game_master_s_league(
    teams: tuple[Team, Team], clients: dict[str, Client]
) -> None:

    otto = User.objects.create_user("otto")
    make_game_master(otto)
    client = Client()
    client.force_login(otto)
    home, away = teams
    form = client.get("/matches/new/").content.decode()
    assert home.name not in form and away.name not in form
    response = client.post("/matches/new/", {"home": home.pk, "away": away.pk})
    assert response.status_code == 200
    assert not Match.objects.exists()
    assert not services.may_schedule(otto, home, away)


def test_a_game_master_schedules_a_friendly_between_teams_in_no_league(
    teams: tuple[Team, Team], clients: dict[str, Client]
) -> None:
    Team.objects.update(league=None)
    home, away = (Team.objects.get(pk=t.pk) for t in teams)
    response = clients["gm"].post("/matches/new/", {"home": home.pk, "away": away.pk})
    assert response.status_code == 302
    assert Match.objects.get().league is None


def test_a_league_match_the_gm_schedules_opens_at_its_pre_match(
    teams: tuple[Team, Team], clients: dict[str, Client]
) -> None:
    home, away = teams
    response = clients["gm"].post("/matches/new/", {"home": home.pk, "away": away.pk})
    match = Match.objects.get()
    assert response["Location"] == f"/matches/{match.pk}/"
    assert match.status == Match.Status.PRE_MATCH and match.league == home.league
    assert match.sequence.step == "petty_cash_favourite"
    page = clients["alice"].get(f"/matches/{match.pk}/").content.decode()
    assert f"/matches/{match.pk}/prematch/" in page


def test_a_league_match_cannot_skip_its_pre_match(
    teams: tuple[Team, Team], clients: dict[str, Client]
) -> None:
    home, away = teams
    data = {"home": home.pk, "away": away.pk, "skip_prematch": "on"}
    response = clients["gm"].post("/matches/new/", data)
    assert response.status_code == 200
    assert "only a friendly may skip it" in response.content.decode()
    assert not Match.objects.exists()


@pytest.mark.parametrize(("skip", "status"), [(False, "pre_match"), (True, "in_play")])
def test_a_friendly_skips_the_pre_match_only_when_the_gm_ticks_the_box(
    teams: tuple[Team, Team], clients: dict[str, Client], skip: bool, status: str
) -> None:
    Team.objects.update(league=None)
    home, away = teams
    form = clients["gm"].get("/matches/new/").content.decode()
    assert 'name="skip_prematch"' in form and 'name="skip_prematch" checked' not in form
    data = {"home": home.pk, "away": away.pk, **({"skip_prematch": "on"} if skip else {})}
    clients["gm"].post("/matches/new/", data)
    assert Match.objects.get().status == status
