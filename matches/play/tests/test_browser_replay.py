"""A spectator watches a match again: from the home page to the match, its replay, and the
keys that step through it event by event and post by post."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches.models import Match
from matches.tests.replays import recorded_position, walk_and_score

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _where(page: Page, player: str, square: str, home: str) -> None:
    expect(page.get_by_test_id(f"token-{player}")).to_have_attribute("data-square", square)
    expect(page.get_by_test_id("replay-score-home")).to_have_text(home)


def test_a_spectator_steps_through_a_replay_with_the_keyboard(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    recorded_position(match)
    walk_and_score(match, cast)
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.goto(f"{live_server.url}/")
    page.get_by_test_id("nav-matches").click()
    page.get_by_role("link", name="Reikland Reavers v Orcland Raiders").first.click()
    page.get_by_test_id("replay-link").click()

    # the record's first event: everybody where the match stood, nothing scored
    _where(page, "h7", "K8", "0")
    expect(page.get_by_test_id("replay-position")).to_contain_text("Event 1 of")
    # down: bob's whole post, h7's walk
    page.keyboard.press("ArrowDown")
    _where(page, "h7", "J8", "0")
    expect(page.get_by_test_id("replay-text")).to_have_text("#7 Max Steiner moves from K8 to J8")
    # right, event by event through alice's post: her declaration, Karl's action begins, his
    # first step
    page.keyboard.press("ArrowRight")
    _where(page, "h1", "X8", "0")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("replay-text")).to_have_text("#1 Karl Fleischer begins: Move")
    page.keyboard.press("ArrowRight")
    _where(page, "h1", "Y8", "0")
    expect(page.get_by_test_id("replay-text")).to_have_text("#1 Karl Fleischer moves from X8 to Y8")
    # shift+right: the rest of her post, the touchdown
    page.keyboard.press("Shift+ArrowRight")
    expect(page.get_by_test_id("replay-score-home")).to_have_text("1")
    # left steps back one event at a time; Home and End go to the ends
    page.keyboard.press("Home")
    _where(page, "h1", "X8", "0")
    _where(page, "h7", "K8", "0")
    page.keyboard.press("End")
    expect(page.get_by_test_id("replay-score-home")).to_have_text("1")
    page.keyboard.press("ArrowUp")
    _where(page, "h7", "J8", "0")
    page.get_by_test_id("replay-prev").click()
    page.get_by_test_id("replay-first").click()
    _where(page, "h7", "K8", "0")
    page.get_by_test_id("replay-next-post").click()
    _where(page, "h7", "J8", "0")
