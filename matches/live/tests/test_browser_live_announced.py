"""The live companion heard rather than seen (390 px, as at the field): the referee's page
keeps its focus through the polls that bring the phones' throws and reads each throw out as it
arrives; a player's phone keeps focus on its panel after his throw and reads the reveal."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from matches.live.models import LiveMatch
from matches.live.tests.test_browser_live import PHONE, referee_page, start, to_bash
from teams.models import Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LATER = 12_000  # ms: a page catches up by polling every 2 s


def test_throws_and_the_reveal_are_announced_and_focus_stays_put(
    live_server: LiveServer, browser: Browser, teams: tuple[Team, Team], gm: User
) -> None:
    home, _ = teams
    referee = referee_page(browser, live_server, gm, home.league_id)
    start(referee, teams)
    to_bash(referee)
    referee.get_by_test_id("purpose-bash").check()
    referee.get_by_test_id("attacker-a1").check()
    referee.get_by_test_id("defender-h1").check()
    referee.get_by_test_id("phones").check()
    referee.get_by_test_id("start-challenge").click()
    expect(referee.get_by_test_id("waiting")).to_contain_text("#1 Gorbag: waiting")
    referee_heard = referee.get_by_test_id("live-announcer")
    expect(referee_heard).to_have_attribute("aria-live", "polite")

    match = LiveMatch.objects.get()
    phones = {}
    for pid in ("a1", "h1"):
        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(
            f"{live_server.url}/live/{match.pk}/phone/{match.state['players'][pid]['token']}/"
        )
        expect(phone.get_by_test_id("my-challenge")).to_be_visible()
        phones[pid] = phone

    # the referee waits on his "call off" button while the polls swap his panel
    referee.get_by_test_id("cancel-challenge").focus()
    phones["a1"].get_by_test_id("my-throw-paper").click()
    # the phone's throw buttons are gone: its focus is on its panel, which says what follows
    expect(phones["a1"].get_by_test_id("my-throw")).to_contain_text("Paper")
    expect(phones["a1"].locator("#phone-panel")).to_be_focused()

    expect(referee_heard).to_contain_text("#1 Gorbag: thrown", timeout=LATER)
    assert "Paper" not in (referee_heard.text_content() or "")
    expect(referee.get_by_test_id("cancel-challenge")).to_be_focused()

    phones["h1"].get_by_test_id("my-throw-rock").click()
    reveal = "#1 Gorbag: Paper · #1 Karl Fleischer: Rock"
    expect(phones["a1"].get_by_test_id("live-announcer")).to_contain_text(reveal, timeout=LATER)
    expect(referee_heard).to_contain_text(reveal, timeout=LATER)
    # the tree a screen reader reads holds it in the live region
    assert reveal in phones["a1"].locator("#live-announcer").aria_snapshot()
