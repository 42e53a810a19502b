"""A GM opens a league, schedules its season and the league page shows fixtures, results,
standings, leaders and (to its coaches) the audit log."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import AuditEntry, Fixture, Match
from teams import services as team_services
from teams.models import League, Team
from teams.tests.conftest import starting_plan

pytestmark = pytest.mark.django_db

SETTINGS = {
    "name": "Liga Nueva",
    "starting_treasury": "1600000",
    "turn_deadline_hours": "36",
    "decision_deadline_hours": "8",
    "blitz_claim_window_hours": "4",
    "clock": "deadlines",
    "bank_hours": "72",
    "bank_increment_hours": "12",
    "bank_run_out": "defaults",
    "rival_rerolls": "approved",
    "reroll_approval_default": "refuse",
    "vacation_days": "10",
    "points_win": "3",
    "points_draw": "1",
    "points_loss": "0",
}


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def six(league: League) -> list[Team]:
    races = ["human", "orc", "dwarf", "skaven", "chaos", "undead"]
    return [
        team_services.create_team(
            User.objects.create_user(f"coach{i}"),
            starting_plan(race),
            name=f"Team {race}",
            league=league,
        )
        for i, race in enumerate(races)
    ]


def test_a_gm_opens_a_league_with_its_settings(gm: User) -> None:
    response = _client(gm).post(reverse("gm:league_create"), SETTINGS)
    league = League.objects.get(name="Liga Nueva")
    assert response.status_code == 302 and response["Location"] == reverse(
        "gm:league", args=[league.pk]
    )
    assert league.gm == gm
    assert (league.starting_treasury, league.turn_deadline_hours, league.vacation_days) == (
        1_600_000,
        36,
        10,
    )
    assert league.reroll_approval_default == "refuse"
    assert AuditEntry.objects.filter(league=league, action="league_created", gm=gm).exists()


@pytest.mark.parametrize("who", ["alice", "anonymous"])
def test_only_game_masters_open_leagues(who: str, alice: User) -> None:
    client = _client(alice if who == "alice" else None)
    assert client.get(reverse("gm:league_create")).status_code == (403 if who == "alice" else 302)
    client.post(reverse("gm:league_create"), SETTINGS)
    assert not League.objects.filter(name="Liga Nueva").exists()


def test_the_league_gm_changes_the_settings_and_another_gm_cannot(
    league: League, gm: User, otto: User
) -> None:
    url = reverse("gm:league_edit", args=[league.pk])
    assert _client(otto).post(url, {**SETTINGS, "name": league.name}).status_code == 403
    response = _client(gm).post(url, {**SETTINGS, "name": league.name, "points_win": "2"})
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.points_win == 2 and league.turn_deadline_hours == 36
    assert AuditEntry.objects.filter(league=league, action="league_updated").exists()


def test_the_gm_generates_a_round_robin_season(
    league: League, six: list[Team], gm: User, alice: User
) -> None:
    url = reverse("gm:round_robin", args=[league.pk])
    assert _client(alice).post(url, {"days_between": "7"}).status_code == 403
    assert not Fixture.objects.exists()
    response = _client(gm).post(url, {"first_date": "2025-03-01", "days_between": "7"})
    assert response.status_code == 302
    fixtures = list(Fixture.objects.filter(league=league))
    assert len(fixtures) == 15 and {f.round for f in fixtures} == {1, 2, 3, 4, 5}
    assert {str(f.scheduled_for) for f in fixtures if f.round == 2} == {"2025-03-08"}
    pairs = {frozenset((f.home_id, f.away_id)) for f in fixtures}
    assert len(pairs) == 15
    for r in range(1, 6):
        playing = [t for f in fixtures if f.round == r for t in (f.home_id, f.away_id)]
        assert len(playing) == len(set(playing)) == 6


def test_the_gm_schedules_a_fixture_by_hand_and_opens_its_match(
    league: League, six: list[Team], gm: User
) -> None:
    url = reverse("gm:schedule", args=[league.pk])
    data: dict[str, Any] = {"round": "1", "home": six[0].pk, "away": six[1].pk}
    assert _client(gm).post(url, data).status_code == 302
    fixture = Fixture.objects.get()
    busy = {"round": "1", "home": six[2].pk, "away": six[0].pk}
    _client(gm).post(url, busy)
    assert Fixture.objects.count() == 1  # six[0] already plays in round 1
    _client(gm).post(reverse("gm:fixture_start", args=[fixture.pk]))
    fixture.refresh_from_db()
    assert fixture.match is not None and fixture.match.gm == gm
    assert fixture.match.league == league
    assert fixture.match.status == Match.Status.PRE_MATCH  # seed 003's sequence comes first


def test_the_league_page_shows_results_standings_and_the_audit_to_coaches(
    league: League, match: Match, gm: User, alice: User, carol: User, dave: User
) -> None:
    Fixture.objects.create(
        league=league, round=1, home=match.home_team, away=match.away_team, match=match
    )
    dispute = services.raise_dispute(match.pk, carol, reason="They never came.", post_number=1)
    services.rule_on_dispute(
        match.pk,
        gm,
        dispute.pk,
        "award",
        winner="away",
        score={"home": 0, "away": 2},
        note="Forfeit.",
    )
    url = reverse("gm:league", args=[league.pk])
    page = _client(alice).get(url).content.decode()
    assert "0 \u2013 2" in page
    first = page.index('data-testid="standing-1"')
    assert page.index("Orcland Raiders", first) < page.index("Reikland Reavers", first)
    assert 'data-testid="audit"' in page and "Forfeit." in page
    for outsider in (dave, None):
        assert 'data-testid="audit"' not in _client(outsider).get(url).content.decode()


def test_a_captain_brings_a_team_into_a_league(league: League, dave: User) -> None:
    team = team_services.create_team(dave, starting_plan("orc"), name="Free Agents")
    response = _client(dave).post(reverse("gm:league_join", args=[league.pk]), {"team": team.pk})
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.league == league


def test_a_coach_cannot_bring_someone_elses_team(league: League, dave: User, alice: User) -> None:
    team = team_services.create_team(dave, starting_plan("orc"), name="Free Agents")
    response = _client(alice).post(reverse("gm:league_join", args=[league.pk]), {"team": team.pk})
    assert response.status_code == 403
    team.refresh_from_db()
    assert team.league is None


def test_the_league_list_offers_a_new_league_to_game_masters(gm: User, alice: User) -> None:
    League.objects.create(name="Old League", gm=gm)
    assert b"new-league" in _client(gm).get(reverse("gm:leagues")).content
    page = _client(alice).get(reverse("gm:leagues")).content
    assert b"Old League" in page and b"new-league" not in page


def test_the_settings_form_says_whether_live_matches_count_in_the_standings(
    league: League, gm: User
) -> None:
    url = reverse("gm:league_edit", args=[league.pk])
    client = _client(gm)

    def box() -> str:
        page = client.get(url).content.decode()
        return re.search(r'<input[^>]*name="live_matches_count"[^>]*>', page)[0]  # type: ignore[index]

    assert "checked" not in box()
    client.post(url, {**SETTINGS, "name": league.name, "live_matches_count": "on"})
    league.refresh_from_db()
    assert league.live_matches_count
    entry = AuditEntry.objects.filter(league=league, action="league_updated").latest("pk")
    assert "live_matches_count" in entry.data["changed"]
    assert "checked" in box()
    client.post(url, {**SETTINGS, "name": league.name})  # the box unticked
    league.refresh_from_db()
    assert not league.live_matches_count


def test_a_league_match_outside_the_fixtures_shows_on_the_league_page(
    league: League, match: Match, alice: User
) -> None:
    page = _client(alice).get(reverse("gm:league", args=[league.pk])).content.decode()
    assert "Nothing scheduled yet." not in page
    others = page.split('data-testid="other-matches"')[1].split("</ul>")[0]
    assert reverse("matches:detail", args=[match.pk]) in others
    assert "Reikland Reavers" in others and "(In play)" in others


def test_a_league_with_no_match_says_nothing_is_scheduled(league: League, alice: User) -> None:
    page = _client(alice).get(reverse("gm:league", args=[league.pk])).content.decode()
    assert "Nothing scheduled yet." in page


def test_a_new_league_starts_at_ve_160_unless_the_gm_says_otherwise(gm: User) -> None:
    form = _client(gm).get(reverse("gm:league_create")).content.decode()
    assert 'name="starting_treasury" value="1600000"' in form
    league = services.create_league(gm, {"name": "Liga VE 160"})
    assert league.starting_treasury == 1_600_000
    _client(gm).post(reverse("gm:league_create"), {**SETTINGS, "starting_treasury": "1000000"})
    assert League.objects.get(name="Liga Nueva").starting_treasury == 1_000_000


def test_a_time_bank_of_no_hours_is_refused_and_changes_nothing(league: League, gm: User) -> None:
    url = reverse("gm:league_edit", args=[league.pk])
    data = {**SETTINGS, "name": league.name, "clock": "bank", "bank_hours": "0"}
    response = _client(gm).post(url, data)
    assert response.status_code == 200
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()
    league.refresh_from_db()
    assert league.clock == League.Clock.DEADLINES
