"""A season built through the services as a league plays it: the GM's round robin, each
fixture opened at its pre-match, a few turns of real play, a concession, the post-match awards,
each match finished before the next opens; then every number of the league page is compared
with the records the matches left."""

import html
import random
import re
from collections import Counter, defaultdict
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches import services
from matches.models import Match, PlayerMatchRecord, TeamMatchRecord
from matches.record import season as leagues
from matches.sequence.tests.driving import name_the_awards, through_the_pre_match
from teams import services as team_services
from teams.models import Team
from teams.tests.conftest import starting_plan
from tools.demo_matches import concede, play

pytestmark = pytest.mark.django_db

POINTS = {"win": 3, "draw": 1, "loss": 0}


@pytest.fixture
def season(demo: tuple[Team, Team], cast: dict[str, User]) -> list[Match]:
    reavers, _raiders = demo
    league = reavers.league
    assert league is not None
    team_services.create_team(
        cast["erin"], starting_plan("dwarf"), name="Erin's Dwarfs", league=league
    )
    fixtures = services.generate_round_robin(league.pk, cast["gm"])
    played = []
    for number, fixture in enumerate(fixtures):
        match = services.start_fixture(fixture.pk, cast["gm"])
        assert match.status == Match.Status.PRE_MATCH
        through_the_pre_match(match)
        play(match, random.Random(number), turns=6)
        concede(match)
        match = Match.objects.select_related("home_team", "away_team").get(pk=match.pk)
        assert match.status == Match.Status.POST_MATCH
        name_the_awards(match)
        # A team plays one match at a time: the improvements still open are drawn, and the
        # match finishes before the next fixture opens.
        services.expire_sequence_deadlines(timezone.now() + timedelta(days=30))
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        played.append(match)
    return played


def _cells(row: str) -> list[str]:
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    return [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells]


def test_the_league_page_agrees_with_every_record_of_the_season(
    season: list[Match], cast: dict[str, User]
) -> None:
    league = season[0].league
    assert league is not None
    page = Client().get(reverse("gm:league", args=[league.pk])).content.decode()
    assert "Nothing scheduled yet." not in page

    expected: dict[str, Counter[str]] = defaultdict(Counter)
    for record in TeamMatchRecord.objects.filter(match__in=season).select_related("team"):
        line = expected[record.team.name]
        line["played"] += 1
        line[record.result] += 1
        line["td_for"] += record.score_for
        line["td_against"] += record.score_against
        line["points"] += POINTS[record.result]
    for match in season:
        inflicted = leagues.tally(match.events.all()).casualties
        expected[match.home_team.name]["cas"] += inflicted["home"]
        expected[match.away_team.name]["cas"] += inflicted["away"]
    assert len(expected) == 3 and sum(line["played"] for line in expected.values()) == 6

    rows = re.findall(r'<tr data-testid="standing-\d+">(.*?)</tr>', page, re.S)
    shown = {}
    for row in rows:
        cells = _cells(row)
        shown[cells[1]] = [int(c) for c in cells[2:]]
    assert shown == {
        name: [
            line["played"],
            line["win"],
            line["draw"],
            line["loss"],
            line["td_for"],
            line["td_against"],
            line["cas"],
            line["points"],
        ]
        for name, line in expected.items()
    }
    points_in_order = [shown[_cells(row)[1]][-1] for row in rows]
    assert points_in_order == sorted(points_in_order, reverse=True)

    # Every fixture shows its match's score, as the match's records have it.
    for match in season:
        home = TeamMatchRecord.objects.get(match=match, key="home")
        item = page.split(f'data-testid="fixture-{match.fixture.pk}"')[1].split("</li>")[0]
        assert f"{home.score_for} \u2013 {home.score_against}" in item

    # The leaders: each player's season from the post-match records (SPP with the awards).
    by_player: dict[str, Counter[str]] = defaultdict(Counter)
    players = PlayerMatchRecord.objects.filter(match__in=season, player__isnull=False)
    for played in players.select_related("player__team"):
        player = played.player
        assert player is not None
        mine = by_player[f"{player.name} ({player.team.name})"]
        mine["touchdowns"] += played.touchdowns
        mine["casualties"] += played.casualties
        mine["spp"] += played.spp
    assert sum(line["spp"] for line in by_player.values()) >= 6 * (5 + 4)  # two awards a team
    leaders = page.split('data-testid="leaders"')[1].split("</section>")[0]
    for column, heading in (
        ("touchdowns", "Touchdowns"),
        ("casualties", "Casualties"),
        ("spp", "SPP"),
    ):
        block = leaders.split(f"<h3>{heading}</h3>")[1].split("</ol>")[0]
        listed = re.findall(r"<li>(.*?) <strong>(\d+)</strong></li>", block)
        values = {name: line[column] for name, line in by_player.items() if line[column]}
        assert len(listed) == min(5, len(values)), column
        listed = [(html.unescape(re.sub(r"<[^>]+>", "", n)), v) for n, v in listed]
        for name, value in listed:
            assert values[name] == int(value), (column, name)
        numbers = [int(v) for _n, v in listed]
        assert numbers == sorted(numbers, reverse=True)
        left_out = set(values) - {n for n, _v in listed}
        assert all(values[name] <= numbers[-1] for name in left_out)
        if not values:
            assert '<li class="muted">' in block
