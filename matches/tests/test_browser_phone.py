"""A coach plays on a phone (390x844, touch): the pitch stands upright with squares big enough
for a thumb, and the action panel stays on the screen while the pitch scrolls under it."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from matches.models import Match
from matches.tests.positions import mid_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-passphrase"
PHONE = ViewportSize(width=390, height=844)
THUMB = 28  # CSS px: the smallest square a finger hits reliably


def test_a_coach_moves_a_player_by_tapping_the_pitch_on_a_phone(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    mid_turn(match, {"h7": "K8", "h1": "F5", "a1": "T8"})  # nobody near h7: a plain walk
    bob = cast["bob"]
    bob.set_password(PASSWORD)
    bob.save()
    page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Log in").first.tap()
    page.get_by_label("Username").fill(bob.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").tap()
    page.get_by_test_id("nav-matches").tap()
    page.get_by_role("link", name="Reikland Reavers v Orcland Raiders").first.tap()
    expect(page.locator("svg#pitch")).to_have_class("pitch upright")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.get_by_test_id("token-h7").tap()
    expect(page.get_by_test_id("action-move")).to_have_attribute("aria-pressed", "true")
    panel = page.locator("aside.panel").bounding_box()
    assert panel is not None
    assert panel["y"] >= 0 and panel["y"] + panel["height"] <= PHONE["height"]

    square = page.locator('#pitch .cell[data-square="J8"]')
    square.tap()
    expect(page.locator('#plan input[name="path"]')).to_have_value("J8")
    box = square.bounding_box()
    assert box is not None
    assert box["width"] >= THUMB and box["height"] >= THUMB
    page.get_by_test_id("post-declaration").tap()
    expect(page.get_by_test_id("token-h7")).to_have_attribute("data-square", "J8")
    expect(page.locator("#thread")).to_contain_text("Max Steiner")
