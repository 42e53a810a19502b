"""In the browser: the league's GM goes from the home page to the league and downloads it, in
English and in Finnish; the file is the league's export, without the seed of the match still
in play; the Finnish one on a phone's screen. A coach of the league sees no such link."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from matches.models import Match
from teams.models import League

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"leagues": "Leagues", "download": "Download the league (JSON)"},
    "fi": {"leagues": "Liigat", "download": "Lataa liiga (JSON)"},
}


def logged_in(page: Page, server: LiveServer, user: User) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": server.url}]
    )


SCREENS: dict[str, ViewportSize] = {
    "en": {"width": 1280, "height": 900},
    "fi": {"width": 390, "height": 844},
}


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_gm_downloads_the_league_from_its_page(
    live_server: LiveServer,
    browser: Browser,
    gm: User,
    league: League,
    match: Match,
    tmp_path: Path,
    language: str,
) -> None:
    words = WORDS[language]
    screen = browser.new_context(viewport=SCREENS[language], is_mobile=language == "fi")
    page = screen.new_page()
    logged_in(page, live_server, gm)
    page.goto(live_server.url + "/")
    if language != "en":
        page.get_by_test_id("lang-menu").locator("summary").click()
        page.get_by_test_id(f"lang-{language}").click()
        expect(page.locator("html")).to_have_attribute("lang", language)
    page.get_by_role("link", name=words["leagues"], exact=True).click()
    page.get_by_role("link", name=league.name).click()

    link = page.get_by_test_id("league-export")
    expect(link).to_have_text(words["download"])
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert doc["format"] == "bbweb-league/1"
    assert doc["league"] == league.name
    [row] = doc["tables"]["matches"]
    assert row["id"] == match.pk and row["status"] == Match.Status.IN_PLAY
    assert row["dice_seed"] == ""  # its dice to come stay on the server
    assert [record["match"]["id"] for record in doc["records"]] == [match.pk]
    screen.close()


def test_a_coach_of_the_league_sees_no_download(
    live_server: LiveServer, page: Page, alice: User, league: League, match: Match
) -> None:
    logged_in(page, live_server, alice)
    page.goto(live_server.url + f"/leagues/{league.pk}/")
    expect(page.get_by_role("heading", name=league.name)).to_be_visible()
    expect(page.get_by_test_id("league-export")).to_have_count(0)
