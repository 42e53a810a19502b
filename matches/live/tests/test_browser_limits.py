"""The referee meets seed 002's limits on his phone (390x844), from the league page, in English
and in Finnish: a bash in the move phase and a bribe on a yellow card are refused with the
seed's reason; ticking "Overrule seed 002" lets each through, and the overrule is in the log."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches.live.tests.test_browser_live import referee_page, start
from teams.models import Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _bash(page: Page, attacker: str, defender: str) -> None:
    page.get_by_test_id("purpose-bash").check()
    page.get_by_test_id(f"attacker-{attacker}").check()
    page.get_by_test_id(f"defender-{defender}").check()


def test_the_referee_overrules_seed_002_and_the_log_says_so(
    live_server: LiveServer, browser: Browser, teams: tuple[Team, Team], gm: User
) -> None:
    page = referee_page(browser, live_server, gm, teams[0].league_id)
    start(page, teams)

    # The bribe: a yellow card is not lifted, unless the referee overrules the seed.
    page.get_by_test_id("rulings-h1").click()
    page.get_by_test_id("ruling-h1-yellow").click()
    expect(page.get_by_test_id("log")).to_contain_text("Yellow card")
    page.get_by_test_id("rulings-h1").click()
    page.get_by_test_id("ruling-h1-bribe").click()
    expect(page.get_by_test_id("error")).to_contain_text("a bribe lifts a red card only")
    page.get_by_test_id("rulings-h1").click()
    page.get_by_test_id("overrule-h1").check()
    page.get_by_test_id("ruling-h1-bribe").click()
    expect(page.get_by_test_id("log")).to_contain_text("Seed 002 overruled by the referee for #1")
    expect(page.get_by_test_id("log")).to_contain_text("bribes for red cards only")

    # The bash in the move phase: refused, then overruled.
    expect(page.get_by_test_id("phase")).to_have_text("Move (3 seconds)")
    _bash(page, "a3", "h4")
    page.get_by_test_id("start-challenge").click()
    expect(page.get_by_test_id("error")).to_contain_text("a bash is made in the bash phase only")
    expect(page.get_by_test_id("challenge")).to_have_count(0)
    _bash(page, "a3", "h4")
    page.get_by_test_id("overrule-challenge").check()
    page.get_by_test_id("start-challenge").click()
    expect(page.get_by_test_id("challenge")).to_be_visible()
    expect(page.get_by_test_id("log")).to_contain_text("a bash only in the bash phase")


def test_the_refusal_and_the_overrule_read_in_finnish(
    live_server: LiveServer, browser: Browser, teams: tuple[Team, Team], gm: User
) -> None:
    page = referee_page(browser, live_server, gm, teams[0].league_id)
    start(page, teams)
    page.context.add_cookies([{"name": "django_language", "value": "fi", "url": live_server.url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    _bash(page, "a3", "h4")
    page.get_by_test_id("start-challenge").click()
    expect(page.get_by_test_id("error")).to_contain_text(
        "Siemen 002: mätetään vain mättövaiheessa."
    )
    _bash(page, "a3", "h4")
    page.get_by_test_id("overrule-challenge").check()
    page.get_by_test_id("start-challenge").click()
    expect(page.get_by_test_id("challenge")).to_be_visible()
    expect(page.get_by_test_id("log")).to_contain_text("Tuomari ohitti siemenen 002")
