"""In the browser: the league's GM opens the league's settings from its page and chooses the
time bank; the league page says so. In a match of the league, alice (the home captain) sees
every side's bank on the match page, hers and bob's counting down without a reload while the
away sides' stand; carol reads the same panel in Spanish on a phone, counting down too, and
the panel fits the screen."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.services.clocks import start_turn_clock
from matches.tests.positions import mid_turn
from teams.models import League, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-passphrase"
PHONE: ViewportSize = {"width": 390, "height": 844}


def _signed_in(
    browser: Browser,
    server: LiveServer,
    user: User,
    path: str,
    *,
    language: str = "en",
    viewport: ViewportSize | None = None,
) -> Page:
    user.set_password(PASSWORD)
    user.save()
    context = browser.new_context(
        viewport=viewport or {"width": 1280, "height": 1000}, is_mobile=viewport == PHONE
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page = context.new_page()
    page.goto(f"{server.url}/accounts/login/?next={path}")
    page.locator("input[name=login]").fill(user.username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[name=password]").press("Enter")
    page.wait_for_url(f"**{path}")
    return page


def _seconds(bank: Locator) -> int:
    hours, minutes, seconds = (int(part) for part in bank.inner_text().split(":"))
    return hours * 3600 + minutes * 60 + seconds


def _counts_down(bank: Locator) -> None:
    """The bank's figure goes down while the page stays as it is."""
    first = bank.inner_text()
    before = _seconds(bank)
    expect(bank).not_to_have_text(first, timeout=5000)
    assert _seconds(bank) < before


def test_the_gm_chooses_the_time_bank_and_the_match_page_counts_every_bank_down(
    live_server: LiveServer,
    browser: Browser,
    league: League,
    teams: tuple[Team, Team],
    cast: dict[str, User],
) -> None:
    gm = _signed_in(browser, live_server, cast["gm"], f"/leagues/{league.pk}/")
    expect(gm.get_by_test_id("league-clock")).to_have_text("48 h a turn")
    gm.get_by_role("link", name="Settings").click()
    gm.get_by_label("Clock").select_option(label="A time bank for each side")
    gm.get_by_label("Time bank of each side for a match (hours)").fill("72")
    gm.get_by_label("When a time bank runs out").select_option("gm")
    gm.get_by_test_id("save-league").click()
    expect(gm.get_by_test_id("league-clock")).to_have_text(
        "time bank: 72 h a side, 12 h more a turn"
    )
    gm.context.close()

    home, away = teams
    league.refresh_from_db()
    assert league.bank_run_out == League.BankRunOut.GM
    match = services.create_match(home=home, away=away, gm=cast["gm"], league=league)
    state = mid_turn(match)
    match.banks = {}  # the kick-or-receive question ran a bank: the position starts afresh
    start_turn_clock(match, state)  # the home team's first turn begins
    match.save()

    alice = _signed_in(browser, live_server, cast["alice"], f"/matches/{match.pk}/")
    banks = alice.get_by_test_id("banks")
    expect(banks).to_contain_text("Time banks")
    expect(banks.locator("tr")).to_have_count(4)
    captain = alice.get_by_test_id("bank-home-captain")
    expect(captain).to_contain_text("running")
    expect(alice.get_by_test_id("bank-away-captain")).to_contain_text("72:00:00")
    expect(alice.get_by_test_id("bank-away-captain")).to_contain_text("stopped")
    _counts_down(captain.get_by_test_id("bank-left"))
    _counts_down(alice.get_by_test_id("bank-home-rival").get_by_test_id("bank-left"))
    expect(alice.get_by_test_id("bank-away-rival").get_by_test_id("bank-left")).to_have_text(
        "72:00:00"
    )
    alice.context.close()

    carol = _signed_in(
        browser, live_server, cast["carol"], f"/matches/{match.pk}/", language="es", viewport=PHONE
    )
    banks = carol.get_by_test_id("banks")
    expect(banks).to_contain_text("Bancos de tiempo")
    expect(carol.get_by_test_id("bank-home-captain")).to_contain_text("en marcha")
    expect(carol.get_by_test_id("bank-away-captain")).to_contain_text("parado")
    banks.scroll_into_view_if_needed()
    _counts_down(carol.get_by_test_id("bank-home-captain").get_by_test_id("bank-left"))
    box = banks.bounding_box()
    assert box is not None and 0 < box["width"] <= PHONE["width"]
    width = carol.evaluate("document.documentElement.scrollWidth")
    assert width <= carol.evaluate("document.documentElement.clientWidth")
    carol.context.close()
