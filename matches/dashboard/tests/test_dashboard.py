"""The pages that lead somewhere: the home page as a dashboard for each role (an introduction
for a visitor), "My matches" with waiting, live, upcoming, finished and refereed matches, the
match page's links and its GM panel (for the match's GM only), the verification page and the
favicon."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.models import Decision, Fixture, Match
from matches.tests.positions import mid_turn, script_dice
from teams import services as team_services
from teams.models import League, Team
from teams.tests.conftest import REAVERS

pytestmark = pytest.mark.django_db


def _live(match: Match) -> Match:
    mid_turn(match)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.IN_PLAY)
    match.refresh_from_db()
    return match


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_a_visitor_s_home_is_the_introduction(clients: dict[str, Client]) -> None:
    page = _page(clients["anonymous"], "/")
    assert "Blood Bowl leagues, played by web" in page
    assert 'data-testid="dashboard"' not in page


def test_each_role_s_dashboard_says_what_awaits_it(
    match: Match, clients: dict[str, Client], cast: dict[str, User]
) -> None:
    _live(match)
    alice = _page(clients["alice"], "/")
    assert 'data-testid="dashboard"' in alice
    assert 'data-testid="your-turns"' in alice and f"/matches/{match.pk}/" in alice
    carol = _page(clients["carol"], "/")
    assert 'data-testid="your-turns-none"' in carol  # the home team plays
    assert 'data-testid="live"' in carol and "Orcland Raiders (captain)" in carol
    gm = _page(clients["gm"], "/")
    assert 'data-testid="refereed"' in gm and "game master" in gm
    erin = _page(clients["erin"], "/")
    assert 'data-testid="live-none"' in erin and 'data-testid="your-turns-none"' in erin


def test_a_decision_waits_on_the_dashboard_of_the_coach_it_asks(
    match: Match,
    clients: dict[str, Client],
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _live(match)
    script_dice(monkeypatch)
    services.declare(match.pk, cast["bob"], {"player": "h7", "action": "move", "path": ["J8"]})
    asked = Decision.objects.get(match=match, answered_at__isnull=True).to
    coach = {"home:captain": "alice", "home:rival": "bob"}[asked]
    page = _page(clients[coach], "/")
    assert 'data-testid="your-decisions"' in page
    assert "a decision" in page


def test_my_matches_lists_upcoming_finished_and_refereed_matches_and_fixtures(
    match: Match, teams: tuple[Team, Team], league: League, clients: dict[str, Client]
) -> None:
    home, away = teams
    Fixture.objects.create(league=league, round=2, home=away, away=home)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.PRE_MATCH)
    page = _page(clients["bob"], "/matches/mine/")
    assert 'data-testid="upcoming"' in page and "Reikland Reavers (rival)" in page
    assert 'data-testid="fixtures"' in page and "round 2" in page
    assert 'data-testid="refereed"' not in page  # bob runs no match
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    page = _page(clients["bob"], "/matches/mine/")
    assert 'data-testid="finished"' in page and 'data-testid="upcoming-none"' in page
    gm = _page(clients["gm"], "/matches/mine/")
    assert 'data-testid="refereed-none"' in gm  # a closed match leaves the GM's list


def test_the_gm_s_lists_count_its_open_disputes(
    match: Match, clients: dict[str, Client], cast: dict[str, User]
) -> None:
    _live(match)
    services.raise_dispute(match.pk, cast["alice"], reason="Look.", post_number=1)
    for url in ("/", "/matches/mine/"):
        assert "1 open dispute" in _page(clients["gm"], url)
    assert "open dispute" not in _page(clients["alice"], "/matches/mine/")


def test_the_match_page_links_its_teams_league_sequence_download_and_verification(
    match: Match, clients: dict[str, Client]
) -> None:
    page = _page(clients["erin"], f"/matches/{match.pk}/")
    for link in (
        f"/teams/{match.home_team_id}/",
        f"/teams/{match.away_team_id}/",
        f"/leagues/{match.league_id}/",
        f"/matches/{match.pk}/prematch/",
        f"/matches/{match.pk}/export.json",
        f"/matches/{match.pk}/verify/",
        f"/matches/{match.pk}/forum/",
    ):
        assert f'href="{link}"' in page, link
    assert f"/matches/{match.pk}/postmatch/" not in page  # not over yet
    verify = _page(clients["anonymous"], f"/matches/{match.pk}/verify/")
    assert "verify_match" in verify and 'data-testid="verify-receipt"' in verify


def test_only_the_match_s_gm_sees_its_panel_and_it_controls_the_match(
    match: Match, clients: dict[str, Client], cast: dict[str, User]
) -> None:
    _live(match)
    other_gm = User.objects.create_user("otto")
    from bbweb.roles import make_game_master

    make_game_master(other_gm)
    otto = Client()
    otto.force_login(other_gm)
    url = f"/matches/{match.pk}/"
    for name, client in {**clients, "otto": otto}.items():
        page = _page(client, url)
        assert ('data-testid="gm-panel"' in page) == (name == "gm"), name
        assert page.count('data-testid="match-control"') == (name == "gm"), name
    response = clients["gm"].post(f"/matches/{match.pk}/control/pause/", {"next": url})
    assert response.status_code == 302 and response["Location"] == url
    assert 'data-testid="gm-paused"' in _page(clients["gm"], url)
    refused = clients["alice"].post(f"/matches/{match.pk}/control/resume/", {"next": url})
    assert refused.status_code == 403
    match.refresh_from_db()
    assert match.paused


def test_a_private_match_s_links_stay_private(match: Match, clients: dict[str, Client]) -> None:
    Match.objects.filter(pk=match.pk).update(is_public=False)
    assert clients["erin"].get(f"/matches/{match.pk}/verify/").status_code == 404
    assert clients["erin"].get(f"/matches/{match.pk}/forum/").status_code == 404
    assert clients["anonymous"].get(f"/matches/{match.pk}/forum/").status_code == 302
    assert clients["alice"].get(f"/matches/{match.pk}/forum/").status_code == 200


def test_the_favicon_is_linked_and_answered(clients: dict[str, Client]) -> None:
    assert 'rel="icon"' in _page(clients["anonymous"], "/")
    response = clients["anonymous"].get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")


def test_a_substitute_the_gm_seats_finds_the_match_and_the_coach_replaced_no_longer_does(
    match: Match, clients: dict[str, Client], cast: dict[str, User]
) -> None:
    _live(match)
    services.replace_coach(match.pk, cast["gm"], "home:captain", "erin", note="Away for a week.")
    erin = _page(clients["erin"], "/")
    assert 'data-testid="your-turns"' in erin and f"/matches/{match.pk}/" in erin
    assert "Reikland Reavers (captain)" in erin
    alice = _page(clients["alice"], "/matches/mine/")
    assert f"/matches/{match.pk}/" not in alice  # her seat is erin's now, and she holds no other
    bob = _page(clients["bob"], "/matches/mine/")
    assert "Reikland Reavers (rival)" in bob  # the rival keeps his own seat


def test_an_invitation_is_answered_from_the_home_page(
    clients: dict[str, Client], cast: dict[str, User]
) -> None:
    team = team_services.create_team(
        cast["erin"], REAVERS, name="Invited Reavers", rival_username="alice"
    )
    declined = team_services.create_team(
        cast["erin"], REAVERS, name="Declined Reavers", rival_username="carol"
    )
    invitation = team.invitations.get()
    home = _page(clients["alice"], "/")
    assert 'data-testid="invitations"' in home
    assert "erin invites you to coach the rival" in home and "Invited Reavers" in home
    accept = f"/teams/invitations/{invitation.pk}/accept/"
    assert f'action="{accept}"' in home
    assert 'data-testid="invitations"' not in _page(clients["bob"], "/")
    assert clients["bob"].post(accept).status_code == 403  # only the invited coach answers
    assert clients["alice"].post(accept).status_code == 302
    team.refresh_from_db()
    assert team.rival == cast["alice"]
    assert 'data-testid="invitations"' not in _page(clients["alice"], "/")
    carol_home = _page(clients["carol"], "/")
    decline = f"/teams/invitations/{declined.invitations.get().pk}/decline/"
    assert f'action="{decline}"' in carol_home
    assert clients["carol"].post(decline).status_code == 302
    declined.refresh_from_db()
    assert declined.rival is None
    assert 'data-testid="invitations"' not in _page(clients["carol"], "/")
