"""In Chromium, from the home page and by clicking: a season played through the services, then
a reader goes to the league, the SPP leader's career page (the figures the post-match
recorded), the player's team, its history with the chart and the head-to-head; in Spanish,
from the league to the records and on to a player's career; and at phone size (390 px) the
standings, the post-match page, a player page and the team's chart scroll no page sideways; in
French on a phone and in Japanese, from a match of the league to its post-match page, where the
players its steps name are links to their careers."""

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches.models import Match, PlayerMatchRecord
from teams.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _spp_leader(season: list[Match]) -> tuple[Player, int, int]:
    """The player with the most SPP over the season, its SPP and its matches."""
    totals: dict[int, list[int]] = {}
    for record in PlayerMatchRecord.objects.filter(match__in=season, player__isnull=False):
        line = totals.setdefault(record.player_id, [0, 0])  # type: ignore[arg-type]
        line[0] += record.spp
        line[1] += 1
    pk, (spp, matches) = max(totals.items(), key=lambda item: item[1][0])
    return Player.objects.select_related("team").get(pk=pk), spp, matches


def _to_the_league(page: Page, server: LiveServer, leagues: str, name: str) -> None:
    page.goto(server.url)
    page.get_by_role("navigation").get_by_role("link", name=leagues).click()
    page.get_by_role("link", name=name).click()


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    client = page.evaluate("document.documentElement.clientWidth")
    assert width <= client, (page.url, width, client)


def test_a_reader_goes_from_the_home_page_to_a_career_and_a_team_history(
    live_server: LiveServer, browser: Browser, season: list[Match], cast: dict[str, User]
) -> None:
    league = season[0].league
    assert league is not None
    player, spp, matches = _spp_leader(season)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    _to_the_league(page, live_server, "Leagues", league.name)
    expect(page.get_by_test_id("standings")).to_be_visible()
    page.get_by_test_id("leaders").get_by_role("link", name=player.name).first.click()
    expect(page.get_by_role("heading", name=f"#{player.number} {player.name}")).to_be_visible()
    expect(page.get_by_test_id("spp")).to_have_text(str(spp))
    expect(page.get_by_test_id("matches")).to_have_text(str(matches))
    page.get_by_test_id("player-facts").get_by_role("link", name=player.team.name).click()
    page.get_by_test_id("history").click()
    expect(page.get_by_role("heading", name=f"{player.team.name}: history")).to_be_visible()
    expect(page.get_by_test_id("matches").locator("tbody tr")).to_have_count(2)
    chart = page.get_by_test_id("chart-value").locator("svg")
    expect(chart).to_have_attribute("role", "img")
    expect(chart.locator("circle")).to_have_count(2)
    expect(page.get_by_test_id("head-to-head").locator("tbody tr")).to_have_count(2)
    page.context.close()

    spanish = browser.new_context(viewport={"width": 1280, "height": 900})
    spanish.add_cookies([{"name": "django_language", "value": "es", "url": live_server.url}])
    page = spanish.new_page()
    _to_the_league(page, live_server, "Ligas", league.name)
    page.get_by_test_id("records").click()
    expect(page.get_by_role("heading", name=f"{league.name}: récords")).to_be_visible()
    page.get_by_test_id("record-career-spp").get_by_role("link").first.click()
    expect(page.get_by_role("heading", name="Carrera")).to_be_visible()
    expect(page.get_by_test_id("spp")).to_have_text(str(spp))
    spanish.close()


def test_at_phone_size_no_table_or_chart_scrolls_the_page_sideways(
    live_server: LiveServer,
    browser: Browser,
    season: list[Match],
    cast: dict[str, User],
    tmp_path: Path,
) -> None:
    league = season[0].league
    assert league is not None
    player, _spp, _matches = _spp_leader(season)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = phone.new_page()
    _to_the_league(page, live_server, "Leagues", league.name)
    points = page.get_by_test_id("standings").get_by_role("columnheader", name="Points")
    expect(points).to_be_in_viewport()
    _no_sideways_scroll(page)
    page.screenshot(path=tmp_path / "standings.png", full_page=True)
    for name, url in (
        ("postmatch", f"/matches/{season[0].pk}/postmatch/"),
        ("player", f"/players/{player.pk}/"),
        ("team", f"/teams/{player.team_id}/history/"),
    ):
        page.goto(live_server.url + url)
        expect(page.locator("h1")).to_be_visible()
        _no_sideways_scroll(page)
        page.screenshot(path=tmp_path / f"{name}.png", full_page=True)
    box = page.get_by_test_id("chart-value").locator("svg").bounding_box()
    assert box is not None and 0 < box["width"] <= 390
    # The axes' labels read at phone size: the values with their unit, the match numbers.
    ticks = page.get_by_test_id("chart-value").get_by_test_id("value-tick")
    expect(ticks.first).to_contain_text("gp")
    for tick in (
        ticks.first,
        page.get_by_test_id("chart-value").get_by_test_id("match-tick").first,
    ):
        label = tick.bounding_box()
        assert label is not None and label["height"] >= 10, label
    page.get_by_test_id("figures-value").locator("summary").click()
    expect(page.get_by_test_id("figures-value").locator("tbody tr")).to_have_count(2)
    _no_sideways_scroll(page)
    phone.close()


@pytest.mark.parametrize(
    ("language", "leagues", "viewport"),
    [
        ("fr", "Ligues", {"width": 390, "height": 844}),
        ("ja", "リーグ", {"width": 1280, "height": 900}),
    ],
)
def test_from_a_match_of_the_league_the_post_match_names_lead_to_the_careers(
    live_server: LiveServer,
    browser: Browser,
    season: list[Match],
    language: str,
    leagues: str,
    viewport: dict[str, int],
) -> None:
    league = season[0].league
    assert league is not None
    context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 500)  # type: ignore[arg-type]
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    _to_the_league(page, live_server, leagues, league.name)
    fixture = page.locator('[data-testid^="fixture-"]').first
    fixture.get_by_role("link", name=_MATCH[language], exact=True).click()
    page.get_by_test_id("postmatch-link").click()
    awards = page.locator('li[data-step="mvp"]').first.get_by_role("link")
    expect(awards).to_have_count(2)  # the MVP and the second award
    mvp = awards.first.inner_text()
    assert re.fullmatch(r"#\d+ .+", mvp), mvp
    _no_sideways_scroll(page)
    awards.first.click()
    expect(page.get_by_role("heading", name=mvp, exact=True)).to_be_visible()
    expect(page.get_by_test_id("matches")).not_to_have_text("0")
    context.close()


_MATCH = {"fr": "match", "ja": "試合"}
