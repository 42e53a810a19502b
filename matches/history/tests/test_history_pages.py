"""A player's career, a team's history and the league's records agree with the records the
post-match left of a season played through the services (the same events, through
matches.record.spp)."""

import html
import re
from collections import Counter, defaultdict

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match, PlayerMatchRecord, TeamMatchRecord
from matches.record import careers
from teams.models import Player, Team
from teams.templatetags.teams_tags import gp

pytestmark = pytest.mark.django_db


def _text(page: str, testid: str) -> str:
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)<', page, re.S)
    assert found, testid
    return html.unescape(found.group(1)).strip()


def _expected(season: list[Match]) -> dict[int, Counter[str]]:
    out: dict[int, Counter[str]] = defaultdict(Counter)
    for record in PlayerMatchRecord.objects.filter(match__in=season, player__isnull=False):
        line = out[record.player_id]  # type: ignore[index]
        line["matches"] += 1
        for what in ("touchdowns", "casualties", "completions", "interceptions", "spp"):
            line[what] += getattr(record, what)
        line["mvps"] += record.award == "mje"
        line["suffered"] += bool(record.injury)
    return out


def test_every_player_page_shows_the_career_the_post_match_recorded(
    season: list[Match],
) -> None:
    expected = _expected(season)
    assert sum(line["spp"] for line in expected.values()) > 0
    client = Client()
    for pk, line in expected.items():
        player = Player.objects.get(pk=pk)
        career = careers.player_career(player)
        assert career.matches == line["matches"]
        assert career.spp == line["spp"]
        assert sum(career.spp_by_kind().values()) == line["spp"]
        page = client.get(reverse("history:player", args=[pk])).content.decode()
        for testid in ("matches", "touchdowns", "casualties", "completions", "interceptions"):
            assert int(_text(page, testid)) == line[testid], (player.name, testid)
        assert int(_text(page, "spp")) == line["spp"]
        assert int(_text(page, "mvps")) == line["mvps"]
        assert int(_text(page, "suffered")) == line["suffered"]
        assert _text(page, "status") == player.get_status_display()


def test_a_skill_gained_names_the_match_it_came_from(season: list[Match]) -> None:
    chosen = [
        adv
        for match in season
        for adv in match.advancements.exclude(choice="").select_related("player")
    ]
    for adv in chosen:
        page = Client().get(reverse("history:player", args=[adv.player.pk])).content.decode()
        block = page.split('data-testid="skills-gained"')[1].split("</section>")[0]
        assert reverse("matches:detail", args=[adv.match_id]) in block


def test_a_team_history_lists_every_match_with_its_result_and_the_head_to_head(
    season: list[Match],
) -> None:
    client = Client()
    for team in Team.objects.filter(league=season[0].league):
        records = TeamMatchRecord.objects.filter(team=team).select_related("match")
        page = client.get(reverse("history:team", args=[team.pk])).content.decode()
        h2h: dict[int, Counter[str]] = defaultdict(Counter)
        for record in records:
            row = page.split(f'data-testid="game-{record.match_id}"')[1].split("</tr>")[0]
            label = {"win": "Win", "draw": "Draw", "loss": "Loss"}[record.result]
            shown = html.unescape(re.sub(r"<[^>]+>", "", row))
            assert f"{label} {record.score_for}\u2013{record.score_against}" in shown
            assert reverse("matches:detail", args=[record.match_id]) in row
            other = record.match.away_team_id if record.key == "home" else record.match.home_team_id
            banked = re.search(r'data-testid="treasury">([^<]*)<', row)
            assert banked and record.treasury_after is not None
            assert banked.group(1) == gp(record.treasury_after)
            h2h[other][record.result] += 1
            h2h[other]["for"] += record.score_for
        assert len(records) == 2
        for opponent, line in h2h.items():
            row = page.split(f'data-testid="h2h-{opponent}"')[1].split("</tr>")[0]
            cells = [c for c in re.findall(r'<td class="num">(\d+)</td>', row)]
            assert [int(c) for c in cells[:5]] == [
                line["win"] + line["draw"] + line["loss"],
                line["win"],
                line["draw"],
                line["loss"],
                line["for"],
            ]
        # The chart is drawn on the server, named for a screen reader, its figures in the table.
        chart = page.split('data-testid="chart-value"')[1].split("</figure>")[0]
        assert "<title" in chart and "<desc" in chart and chart.count("<circle") == 2
        treasury = page.split('data-testid="chart-treasury"')[1].split("</figure>")[0]
        assert treasury.count("<circle") == 2


def test_the_records_page_holds_the_best_of_the_season(season: list[Match]) -> None:
    league = season[0].league
    assert league is not None
    page = Client().get(reverse("history:records", args=[league.pk])).content.decode()
    records = PlayerMatchRecord.objects.filter(match__in=season, player__isnull=False)
    best_match_spp = max(r.spp for r in records)
    block = page.split('data-testid="record-match-spp"')[1].split("</ol>")[0]
    assert f"<strong>{best_match_spp}</strong>" in block
    career = _expected(season)
    best_career = max(line["spp"] for line in career.values())
    block = page.split('data-testid="record-career-spp"')[1].split("</ol>")[0]
    assert re.findall(r"<strong>(\d+)</strong>", block)[0] == str(best_career)
    margins = [
        r.score_for - r.score_against
        for r in TeamMatchRecord.objects.filter(match__in=season, result="win")
        if r.score_for > r.score_against  # a conceded match may be won without a lead
    ]
    block = page.split('data-testid="record-biggest-wins"')[1].split("</ol>")[0]
    if margins:
        assert re.findall(r"<strong>(\d+)</strong>", block)[0] == str(max(margins))
    else:
        assert '<li class="muted">' in block
    league_page = Client().get(reverse("gm:league", args=[league.pk])).content.decode()
    assert reverse("history:records", args=[league.pk]) in league_page


def test_the_post_match_lists_each_team_apart_by_shirt_number_as_a_number(
    season: list[Match],
) -> None:
    match = season[0]
    page = Client().get(reverse("sequence:postmatch", args=[match.pk])).content.decode()
    for team in (match.home_team, match.away_team):
        table = page.split(f'data-testid="players-{team.pk}"')[1].split("</table>")[0]
        assert f"<caption>{html.escape(team.name)}</caption>" in table
        numbers = [int(n) for n in re.findall(r'data-testid="record-[ha](\d+)"', table)]
        assert len(numbers) > 10 and numbers == sorted(numbers)
        record = PlayerMatchRecord.objects.filter(match=match, team=team).first()
        assert record is not None and record.player_id is not None
        assert reverse("history:player", args=[record.player_id]) in table


def test_a_player_named_in_the_thread_links_to_its_career(season: list[Match]) -> None:
    match = season[0]
    page = Client().get(reverse("matches:detail", args=[match.pk])).content.decode()
    headlines = re.findall(r'<p class="headline">(.*?)</p>', page, re.S)
    linked = [
        (href, name)
        for line in headlines
        for href, name in re.findall(r'<a href="(/players/\d+/)">(#\d+ [^<]+)</a>', line)
    ]
    assert linked
    for href, name in linked:
        pk = int(href.split("/")[2])
        player = Player.objects.get(pk=pk)
        assert html.unescape(name) == f"#{player.number} {player.name}"
        assert player.team_id in (match.home_team_id, match.away_team_id)


@pytest.mark.parametrize(
    ("status", "shown"), [("active", "Active"), ("dead", "Dead"), ("fired", "Fired")]
)
def test_a_player_page_says_whether_the_player_is_active_dead_retired_or_fired(
    demo: tuple[Team, Team], status: str, shown: str
) -> None:
    player = demo[0].players.get(number=3)
    Player.objects.filter(pk=player.pk).update(status=status)
    page = Client().get(reverse("history:player", args=[player.pk])).content.decode()
    assert _text(page, "status") == shown
    assert int(_text(page, "matches")) == 0
    assert "No match played yet." in page
