"""A coach plays with the keyboard alone: from the top of the match page, a one-square move
and the end of the turn in at most 15 keystrokes, focus where the coach is after every swap
(the plan's preview, the post, the end of the turn); and a screen reader hears what the other
coach did, with the tokens named by team, square and state."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.models import Match
from matches.tests.axe import context_for
from matches.tests.positions import mid_turn, script_dice
from rules.engine.board import NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
MOST_KEYSTROKES = 15
LATER = 12_000  # ms: a page learns of another coach's post by polling every 4 s


class Keyboard:
    """The page's keyboard, counting each key pressed."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1


def _focused(page: Page) -> str:
    return str(
        page.evaluate(
            "() => { const el = document.activeElement;"
            " return el ? (el.dataset.testid || el.dataset.square || el.id || el.tagName) : ''; }"
        )
    )


def _coach_page(browser: Browser, server: LiveServer, user: User, match: Match, lang: str) -> Page:
    page = context_for(browser, server.url, user, phone=False, language=lang).new_page()
    page.goto(f"{server.url}/matches/{match.pk}/")
    expect(page.get_by_test_id("markers")).to_be_visible()
    return page


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_coach_moves_a_player_and_ends_the_turn_by_keyboard_alone(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User], language: str
) -> None:
    # bob's side of the Reavers: Max (h7) on K8 and Ulrich (h10) on M9, nobody near them
    mid_turn(match, {"h7": "K8", "h10": "M9", "h1": "F5", "a1": "T8"})
    page = _coach_page(browser, live_server, cast["bob"], match, language)
    keys = Keyboard(page)

    keys.press("Tab")  # the first stop of the page: the skip link to the pitch
    expect(page.get_by_test_id("skip-pitch")).to_be_focused()
    keys.press("Enter")  # the pitch's entry: the first of bob's players who can act
    expect(page.get_by_test_id("token-h7")).to_be_focused()
    keys.press("n")  # the next one, and back
    expect(page.get_by_test_id("token-h10")).to_be_focused()
    keys.press("Shift+N")
    expect(page.get_by_test_id("token-h7")).to_be_focused()

    keys.press("Enter")  # Max chosen: the panel is swapped in, focus stays on him
    expect(page.get_by_test_id("action-move")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("token-h7")).to_be_focused()
    keys.press("ArrowLeft")  # J8
    assert _focused(page) == "J8"
    # the square is named with what the overlay draws on it: its chance, not only a colour
    expect(page.locator('#pitch .cell[data-square="J8"]')).to_have_attribute(
        "aria-label", re.compile(r"^J8, .*\d+%")
    )
    keys.press("Enter")  # his path: J8; the preview is swapped in, focus stays on J8
    expect(page.locator('#plan input[name="path"]')).to_have_value("J8")
    expect(page.get_by_test_id("plan")).to_contain_text("J8")
    assert _focused(page) == "J8"

    keys.press("p")  # posted: the whole live part is swapped, focus follows Max to J8
    expect(page.get_by_test_id("token-h7")).to_have_attribute("data-square", "J8")
    expect(page.get_by_test_id("token-h7")).to_be_focused()
    # the pitch's one tab stop is now the next of bob's players who can act
    expect(page.get_by_test_id("token-h10")).to_have_attribute("tabindex", "0")

    keys.press("e")  # to the End turn button, then press it
    expect(page.get_by_test_id("end_turn-rival")).to_be_focused()
    keys.press("Enter")
    expect(page.get_by_test_id("end_turn-rival")).to_have_count(0)
    expect(page.locator("#panel")).to_be_focused()  # the panel says what comes next

    print(f"keyboard: a one-square move and the end of the turn in {keys.count} keystrokes")
    assert keys.count <= MOST_KEYSTROKES
    match.refresh_from_db()
    state = services.load_state(match)
    at = state.players["h7"].at
    assert at is not None and NAMES[at] == "J8" and "rival" in state.teams["home"].ended


def test_a_screen_reader_hears_the_other_coachs_move_and_reads_the_tokens(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    mid_turn(match, {"h7": "K8", "h10": "M9", "h1": "F5", "a1": "T8"})
    page = _coach_page(browser, live_server, cast["alice"], match, "en")
    announcer = page.get_by_test_id("announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_have_text("")  # nothing is news on arrival

    services.declare(match.pk, cast["bob"], {"action": "move", "player": "h7", "path": ["J8"]})
    # the poll brings bob's post: the live region says it once
    expect(announcer).to_contain_text("#7 Max Steiner (Reikland Reavers) Move → J8", timeout=LATER)
    expect(announcer).to_contain_text("bob")
    said = announcer.text_content() or ""
    assert said.count("Max Steiner") == 1

    # the tree a screen reader reads: the tokens are buttons named by player, team, square and
    # state, the loose ball by its square
    max_steiner = page.get_by_role(
        "button", name="#7 Max Steiner, Reikland Reavers, J8, standing", exact=True
    )
    expect(max_steiner).to_have_count(1)
    tree = page.locator("#pitch").aria_snapshot()
    assert 'button "#7 Max Steiner, Reikland Reavers, J8, standing"' in tree
    assert re.search(r'button "#\d+ [^"]+, Orcland Raiders, T8, standing"', tree), tree
    assert 'img "The ball, loose on T9"' in tree
    assert "#7 Max Steiner (Reikland Reavers) Move → J8" in announcer.aria_snapshot()
    # a later poll with no news leaves what was said as it was, not said again
    with page.expect_response(lambda r: "/live/" in r.url, timeout=LATER):
        pass
    assert (announcer.text_content() or "") == said


def test_the_typed_notation_is_reached_first_and_its_errors_are_read_out(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    mid_turn(match, {"h7": "K8", "h10": "M9", "h1": "F5", "a1": "T8"})
    page = _coach_page(browser, live_server, cast["bob"], match, "fi")
    for _skip in ("skip-pitch", "skip-panel", "skip-typed"):
        page.keyboard.press("Tab")
    expect(page.get_by_test_id("skip-typed")).to_be_focused()
    page.keyboard.press("Enter")
    field = page.get_by_test_id("notation")
    expect(field).to_be_focused()
    # its short help, in the reader's language, is the field's description
    expect(field).to_have_accessible_description(re.compile("Nämä sanat kirjoitetaan englanniksi"))
    page.keyboard.type("#7 move A1")  # far out of his reach: refused
    page.keyboard.press("Enter")
    error = page.locator("#flash [role=alert]")
    expect(error).to_be_visible()
    expect(page.locator("#flash")).to_have_attribute("aria-live", "polite")
    # the refusal leaves the live flash in place for the next one
    field.fill("#7 move A2")
    page.keyboard.press("Enter")
    expect(error).to_contain_text("A2")
    expect(field).to_be_focused()
    match.refresh_from_db()
    assert services.load_state(match).players["h7"].at is not None


def test_the_odds_are_written_on_the_squares_and_the_block_dice_said_on_the_target(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    mid_turn(match)  # Max (h7) on K8 beside an orc on L8; Karl (h1) beside a5 with Otto's help
    bob = _coach_page(browser, live_server, cast["bob"], match, "en")
    bob.get_by_test_id("token-h7").click()
    # the odds in words on the pitch, not by colour alone: the dodge to J8 is written there,
    # the same figure its square's name says
    into_j8 = bob.locator('#overlay .mark-reach[data-mark="J8"]')
    written = into_j8.locator(".odds")
    expect(written).to_be_visible()
    expect(written).to_have_text(re.compile(r"^\d+%$"))
    odds = into_j8.get_attribute("data-odds")
    expect(written).to_have_text(odds or "no odds")
    assert odds != "100%"  # a dodge: not sure
    expect(bob.locator('#pitch .cell[data-square="J8"]')).to_have_attribute(
        "aria-label", f"J8, {odds}"
    )
    assert (
        bob.locator("#overlay .mark-reach .odds").count()
        == bob.locator("#overlay .mark-reach").count()
    )

    alice = _coach_page(browser, live_server, cast["alice"], match, "en")
    alice.get_by_test_id("token-h1").click()
    alice.get_by_test_id("action-block").click()
    # the orc Karl can block is named with the dice as the overlay draws them
    target = alice.get_by_test_id("token-a5")
    expect(target).to_have_attribute(
        "aria-label", re.compile(r", G5, standing, 2 dice, attacker chooses$")
    )
    tree = alice.locator("#pitch").aria_snapshot()
    assert re.search(
        r'button "#\d+ [^"]+, Orcland Raiders, G5, standing, 2 dice, attacker chooses"', tree
    ), tree
    # a player who is no target keeps his own name
    expect(alice.get_by_test_id("token-a1")).to_have_attribute(
        "aria-label", re.compile(r"T8, standing$")
    )
    # back to a move: no target, the dice leave the name
    alice.get_by_test_id("action-move").click()
    expect(target).to_have_attribute("aria-label", re.compile(r"G5, standing$"))


def test_the_plans_chance_and_a_decision_waiting_are_announced_once(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mid_turn(match)
    script_dice(monkeypatch)  # Max's dodge fails (1): a reroll is offered
    bob = _coach_page(browser, live_server, cast["bob"], match, "en")
    announcer = bob.get_by_test_id("announcer")
    bob.get_by_test_id("token-h7").click()
    bob.locator('#pitch .cell[data-square="J8"]').click()
    expect(bob.get_by_test_id("overall")).to_have_text("67%")
    # the plan's chance is read out from the live region
    expect(announcer).to_have_text("Overall chance (without rerolls): 67%")

    bob.get_by_test_id("post-declaration").click()
    expect(bob.get_by_test_id("decision")).to_contain_text("Reroll?")
    # the decision waiting is said, with the post of the failed dodge before it
    expect(announcer).to_contain_text("Reroll?")
    assert (announcer.text_content() or "").count("Reroll?") == 1
    said = announcer.text_content()
    # the next poll brings nothing new: nothing is said again
    with bob.expect_response(lambda r: "/live/" in r.url, timeout=LATER):
        pass
    assert announcer.text_content() == said


def test_focus_stays_on_the_pitch_through_the_refresh_that_brings_news(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    mid_turn(match, {"h7": "K8", "h10": "M9", "h1": "F5", "a1": "T8"})
    bob = _coach_page(browser, live_server, cast["bob"], match, "en")
    bob.keyboard.press("Tab")
    bob.keyboard.press("Enter")
    bob.keyboard.press("n")
    expect(bob.get_by_test_id("token-h10")).to_be_focused()
    # alice moves Karl: bob's page learns of it on a 4-second refresh that swaps the pitch
    services.declare(match.pk, cast["alice"], {"action": "move", "player": "h1", "path": ["E5"]})
    expect(bob.get_by_test_id("token-h1")).to_have_attribute("data-square", "E5", timeout=LATER)
    expect(bob.get_by_test_id("announcer")).to_contain_text("Move → E5")
    expect(bob.get_by_test_id("token-h10")).to_be_focused()
