"""A quick roster typed at the field, for a team that is not on bbweb."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches.live import services
from matches.live import standings as live_standings
from matches.live.models import LiveMatch
from matches.live.quick import QuickPlayer, QuickRosterError, parse
from teams.models import Team


def test_a_line_is_number_name_then_stats_and_skills() -> None:
    roster = parse(" Kumpula Kurmut ", "7 Grom, ST 4, AG 2, block\n\n#12 Pikku Myy, dodge, Stunty")
    assert roster.name == "Kumpula Kurmut"
    assert roster.players == (
        QuickPlayer(7, "Grom", 4, 2, ("Block",)),
        QuickPlayer(12, "Pikku Myy", 3, 3, ("Dodge", "Stunty")),
    )


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("", "1 A", "team name"),
        ("T", "", "1 to 16"),
        ("T", "A without number", "Line 1"),
        ("T", "1 A\n1 B", "own number"),
        ("T", "1 A, Flying", "unknown skill"),
    ],
)
def test_a_wrong_roster_says_what_is_wrong(name: str, text: str, message: str) -> None:
    with pytest.raises(QuickRosterError, match=message):
        parse(name, text)


@pytest.mark.django_db
def test_the_referee_starts_a_match_against_a_quick_roster_that_stays_out_of_the_standings(
    teams: tuple[Team, Team], gm: User
) -> None:
    home = teams[0]
    client = Client()
    client.force_login(gm)
    response = client.post(
        f"/leagues/{home.league_id}/live/new/",
        {
            "home": home.pk,
            "away": "quick",
            "away_name": "Kumpula Kurmut",
            "away_roster": "7 Grom, ST 4, Block\n8 Myy, AG 4, Dodge",
        },
    )
    match = LiveMatch.objects.get()
    assert response["Location"] == f"/live/{match.pk}/"
    assert (match.away_team, match.away_name) == (None, "Kumpula Kurmut")
    assert match.state["players"]["a7"]["levels"]["bash"] == 2
    assert match.state["players"]["a8"]["levels"]["dodge"] == 2
    page = client.get(f"/live/{match.pk}/").content.decode()
    assert "#7 Grom" in page
    services.do_kick_off(match.pk, gm, "away")
    services.do_finish(match.pk, gm)
    league = services.set_live_matches_count(home.league_id or 0, gm, True)
    assert all(row.played == 0 for row in live_standings.league_season(league).table)


@pytest.mark.django_db
def test_a_wrong_quick_roster_is_refused_with_the_reason(
    teams: tuple[Team, Team], gm: User
) -> None:
    client = Client()
    client.force_login(gm)
    response = client.post(
        f"/leagues/{teams[0].league_id}/live/new/",
        {"home": "quick", "home_name": "X", "home_roster": "1 A, Flying", "away": teams[1].pk},
    )
    assert response.status_code == 200
    assert "unknown skill" in response.content.decode()
    assert not LiveMatch.objects.exists()
