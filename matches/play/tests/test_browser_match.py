"""Three coaches play the home team's turn through the match page, each in its own browser:
bob (the home rival) moves with a dodge and asks for a team reroll, alice (the captain)
approves it and blocks with a choice of die, bob's failed dodge is a turnover, and carol (the
away captain) sees her team's turn begin without reloading."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.models import Match
from matches.tests.positions import mid_turn, script_dice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-passphrase"
LATER = 12_000  # ms: another coach's page catches up by polling


def coach(browser: Browser, server: LiveServer, user: User, match: Match) -> Page:
    user.set_password(PASSWORD)
    user.save()
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.goto(f"{server.url}/accounts/login/?next=/matches/{match.pk}/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("markers")).to_be_visible()
    return page


def click_square(page: Page, square: str) -> None:
    page.locator(f'#pitch .cell[data-square="{square}"]').click()


def test_three_coaches_play_a_turn_through_the_page(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mid_turn(match)
    script_dice(monkeypatch)
    bob = coach(browser, live_server, cast["bob"], match)
    alice = coach(browser, live_server, cast["alice"], match)
    carol = coach(browser, live_server, cast["carol"], match)
    expect(carol.get_by_test_id("plan")).to_have_count(0)

    # bob moves Max (h7) out of a tackle zone: the page shows the dodge and its chance first.
    bob.get_by_test_id("token-h7").click()
    expect(bob.get_by_test_id("action-move")).to_have_attribute("aria-pressed", "true")
    click_square(bob, "J8")
    expect(bob.get_by_test_id("rolls")).to_contain_text("Dodge")
    expect(bob.get_by_test_id("overall")).to_have_text("67%")
    bob.get_by_test_id("post-declaration").click()
    # the dodge fails (1): bob, and only bob, is asked about a reroll; he asks for the team's
    expect(bob.get_by_test_id("decision")).to_contain_text("Reroll?")
    expect(carol.get_by_test_id("decision")).to_have_count(0)
    bob.get_by_test_id("choice-team").click()
    # the captain approves it (her page learns of it by polling)
    expect(alice.get_by_test_id("choice-approve")).to_be_visible(timeout=LATER)
    expect(bob.get_by_test_id("choice-approve")).to_have_count(0)
    alice.get_by_test_id("choice-approve").click()
    expect(alice.get_by_test_id("token-h7")).to_have_attribute("data-square", "J8")
    expect(bob.get_by_test_id("token-h7")).to_have_attribute("data-square", "J8", timeout=LATER)
    expect(bob.locator("#thread")).to_contain_text("Reroll (Team reroll) used")

    # alice blocks with Karl (h1), helped by Otto: two dice, she picks Defender down, pushes
    # the orc to H5 by clicking the highlighted square, and stays put.
    alice.get_by_test_id("token-h1").click()
    alice.get_by_test_id("action-block").click()
    alice.get_by_test_id("token-a5").click()
    expect(alice.get_by_test_id("rolls")).to_contain_text("2 dice, attacker chooses")
    alice.get_by_test_id("post-declaration").click()
    expect(alice.get_by_test_id("choice-2")).to_contain_text("Pushed")
    alice.get_by_test_id("choice-6").click()
    expect(alice.locator('#overlay [data-mark="H5"]')).to_have_count(1)
    click_square(alice, "H5")
    alice.get_by_test_id("choice-false").click()
    expect(alice.get_by_test_id("token-a5")).to_have_attribute("data-square", "H5")
    expect(alice.get_by_test_id("token-a5")).to_have_class(re.compile("state-prone"))

    # bob moves Ulrich (h10) with the keyboard; the dodge fails and no reroll is left.
    bob.reload()
    bob.get_by_test_id("token-h10").focus()
    bob.keyboard.press("Enter")
    expect(bob.get_by_test_id("action-move")).to_be_visible()
    bob.locator('#pitch .cell[data-square="N10"]').focus()
    bob.keyboard.press("Enter")
    expect(bob.get_by_test_id("rolls")).to_contain_text("Dodge")
    bob.get_by_test_id("post-declaration").click()
    expect(bob.locator("#thread")).to_contain_text("Turnover!")

    # the turn goes to the Raiders: carol's page offers her the pitch without a reload
    expect(carol.get_by_test_id("plan")).to_be_visible(timeout=LATER)
    expect(carol.locator("#thread")).to_contain_text("Turnover!")
    # her page kept its squares through the polls, which no longer send them
    expect(carol.locator("#pitch .cell")).to_have_count(26 * 15)
    expect(bob.get_by_test_id("plan")).to_have_count(0)
    match.refresh_from_db()
    assert services.load_state(match).active == "away"


def test_a_poll_with_no_news_does_not_undo_the_squares_clicked_after_it(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    mid_turn(match)
    bob = coach(browser, live_server, cast["bob"], match)
    bob.get_by_test_id("token-h7").click()
    expect(bob.get_by_test_id("action-move")).to_have_attribute("aria-pressed", "true")
    # The page polls every 4 s; nothing changes in the match, so the poll answers 204.
    with bob.expect_response(lambda r: "/live/" in r.url and r.status == 204, timeout=LATER):
        pass
    click_square(bob, "J8")
    expect(bob.get_by_test_id("overall")).to_have_text("67%")
    bob.wait_for_timeout(1_000)  # any settle that could put an older plan back has happened
    expect(bob.locator('#plan input[name="path"]')).to_have_value("J8")
    expect(bob.get_by_test_id("overall")).to_have_text("67%")
