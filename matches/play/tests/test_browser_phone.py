"""A coach plays on a phone (390x844, touch): the pitch stands upright with squares big enough
for a thumb and starts on the first screen, and the action panel stays on the screen while the
pitch scrolls under it, never over its last rows."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, FloatRect, Locator, Page, ViewportSize, expect
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
    _the_pitch_starts_on_the_first_screen(page)
    _the_sheet_lets_the_last_rows_be_seen(page)
    # the match's facts and links are folded away, one tap from the top
    expect(page.get_by_test_id("match-nav")).to_be_hidden()
    page.get_by_test_id("about-toggle").tap()
    expect(page.get_by_test_id("match-nav")).to_be_visible()
    expect(page.get_by_test_id("receipt")).to_be_visible()

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
    # the server's preview of the path has landed: a tap while it swaps the panel can be lost
    expect(page.get_by_test_id("plan")).to_contain_text("J8")
    page.get_by_test_id("post-declaration").tap()
    expect(page.get_by_test_id("token-h7")).to_have_attribute("data-square", "J8")
    expect(page.locator("#thread")).to_contain_text("Max Steiner")


FIRST_ROWS = 4  # rows of the pitch a coach sees on load, above the sheet


def _the_pitch_starts_on_the_first_screen(page: Page) -> None:
    """On load, without scrolling, the pitch's first rows stand between the header and the
    sheet: the title, scoreboards and "waiting for" line take less than a screen."""
    assert page.evaluate("window.scrollY") == 0
    pitch = page.locator("svg#pitch").bounding_box()
    panel = page.locator("aside.panel").bounding_box()
    assert pitch is not None and panel is not None
    print(f"phone: the pitch starts at {pitch['y']:.0f} px, the sheet at {panel['y']:.0f} px")
    row = pitch["width"] / 15  # upright: 15 squares across
    assert pitch["y"] >= 0 and pitch["y"] + FIRST_ROWS * row <= panel["y"]


def _the_sheet_lets_the_last_rows_be_seen(page: Page) -> None:
    """Scrolled to the end of the pitch, its last row stands above the sheet, not under it."""
    last_row = page.locator('#pitch .cell[data-square="Z8"]')
    page.evaluate(
        "(cell) => window.scrollBy(0, cell.getBoundingClientRect().bottom - innerHeight + 1)",
        last_row.element_handle(),
    )
    cell, panel = _boxes(page, last_row)
    for _step in range(4):  # then on, as far as the page goes, until the row clears the sheet
        if cell["y"] + cell["height"] <= panel["y"]:
            break
        page.evaluate("window.scrollBy(0, 150)")
        cell, panel = _boxes(page, last_row)
    bottom = cell["y"] + cell["height"]
    print(f"phone: last row bottom {bottom:.0f} px, sheet top {panel['y']:.0f} px")
    assert bottom <= panel["y"] + 1
    page.evaluate("window.scrollTo(0, 0)")


def _boxes(page: Page, cell: Locator) -> tuple[FloatRect, FloatRect]:
    cell_box = cell.bounding_box()
    panel_box = page.locator("aside.panel").bounding_box()
    assert cell_box is not None and panel_box is not None
    return cell_box, panel_box
