"""What pitch.js does in a real Chromium: a pass thrown to an empty square by clicking it,
text typed in the declaration box kept while polls refresh the page, and earlier posts
loaded above the thread."""

import random
import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.models import Match
from matches.play.tests.test_browser_match import LATER, click_square, coach
from matches.play.tests.test_views_gaps import with_ball
from matches.tests.positions import mid_turn, script_dice
from tools import autoplay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _name(match: Match, pid: str) -> str:
    """A player as the page names it: its number and its name, not the engine's id."""
    facts = match.lineup[pid]
    return f"#{facts['number']} {facts['name']}"


def test_a_pass_is_thrown_to_an_empty_square_and_typed_text_survives_a_poll(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_ball(match)
    script_dice(monkeypatch, [6] * 20)  # Karl (h1) holds the ball on F5
    alice = coach(browser, live_server, cast["alice"], match)
    alice.get_by_test_id("token-h1").click()
    expect(alice.get_by_test_id("selected")).to_have_text(_name(match, "h1"))
    alice.get_by_test_id("action-pass").click()
    click_square(alice, "E5")  # one step: the move before the pass
    click_square(alice, "J6")  # out of a step's reach: the throw
    expect(alice.get_by_test_id("plan")).to_contain_text("Path: E5")
    expect(alice.get_by_test_id("plan")).to_contain_text("Target: J6")
    expect(alice.locator('#overlay [data-mark="J6"]')).to_have_count(1)

    alice.get_by_text("Type the declaration or add text").click()
    alice.get_by_test_id("notation").fill("#1 move E5")
    alice.locator("#id_plan_text").fill("Catch it, *Otto*!")
    services.write_post(match.pk, cast["carol"], kind="ooc", text="Nice weather today")
    expect(alice.locator("#thread")).to_contain_text("Nice weather today", timeout=LATER)
    expect(alice.get_by_test_id("notation")).to_have_value("#1 move E5")
    expect(alice.locator("#id_plan_text")).to_have_value("Catch it, *Otto*!")
    expect(alice.get_by_test_id("notation")).to_be_visible()  # the box is still open
    expect(alice.get_by_test_id("plan")).to_contain_text("Target: J6")  # and the plan kept

    alice.get_by_test_id("post-typed").click()
    expect(alice.locator("#thread")).to_contain_text("Catch it, Otto!")
    expect(alice.get_by_test_id("token-h1")).to_have_attribute("data-square", "E5")
    expect(alice.get_by_test_id("notation")).to_have_value("")  # posted: the box is emptied
    expect(alice.locator("#id_plan_text")).to_have_value("")


def test_earlier_posts_load_above_the_thread_and_stay_through_a_poll(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    rng = random.Random(2)
    for _ in range(45):
        autoplay.chat(match.pk, rng)
    erin = coach(browser, live_server, cast["erin"], match)
    expect(erin.locator("#post-1")).to_have_count(0)
    erin.get_by_test_id("earlier-posts").click()
    expect(erin.locator("#post-1")).to_be_focused()  # reading goes on from the first loaded
    expect(erin.get_by_test_id("earlier-posts")).to_have_count(0)
    titles = erin.locator("#thread > .turn > h3").all_inner_texts()
    assert len(titles) == len(set(titles))  # the turn the page break cut is one group again
    services.write_post(match.pk, cast["carol"], kind="ooc", text="Still here?")
    expect(erin.locator("#thread")).to_contain_text("Still here?", timeout=LATER)
    expect(erin.locator("#post-1")).to_have_count(1)


def test_a_selected_player_shows_its_squares_by_risk_and_its_block_dice(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    mid_turn(match)  # bob's h7 on K8 in the tackle zone of a10 on L8
    bob = coach(browser, live_server, cast["bob"], match)
    bob.get_by_test_id("token-h7").click()
    expect(bob.get_by_test_id("selected")).to_have_text(_name(match, "h7"))
    # leaving a10's zone is a dodge (4/6 into J8): shaded as even; beyond MA, Going For It
    expect(bob.locator('#overlay .mark-reach[data-mark="J8"]')).to_have_class(re.compile("even"))
    expect(bob.locator('#overlay .mark-reach[data-mark="K8"]')).to_have_count(0)  # its own
    assert bob.locator("#overlay .mark-reach").count() > 30
    click_square(bob, "J8")  # a click: the path is drawn instead of the shading
    expect(bob.locator("#overlay .mark-reach")).to_have_count(0)
    expect(bob.locator('#overlay [data-mark="J8"]')).to_have_count(1)

    bob.get_by_test_id("action-block").click()
    dice = bob.locator('#overlay .mark-dice[data-mark="L8"] .dice')
    expect(dice).to_have_text(re.compile(r"^-?[123]D$"))
