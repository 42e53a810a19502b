"""In the browser: the second half ends 1-1; the home team's two coaches end the last turn,
the home captain and then the away captain each click Yes to the agreed draw of seed 000, the
thread says so, the match ends drawn and the league's standings count a draw for both."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.models import Decision, Match
from rules.engine import MatchState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-passphrase"
LATER = 12_000  # ms: another coach's page catches up by polling
ON_PITCH = {"h1": "F5", "h7": "K8", "a1": "T8", "a7": "S5"}


def _coach(browser: Browser, server: LiveServer, user: User, match: Match) -> Page:
    user.set_password(PASSWORD)
    user.save()
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.goto(f"{server.url}/accounts/login/?next=/matches/{match.pk}/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("markers")).to_be_visible()
    return page


def _last_turn_of_the_second_half_tied(match: Match) -> None:
    data: dict[str, Any] = services.load_state(match).to_json()
    for pid, player in data["players"].items():
        square = ON_PITCH.get(pid)
        player["at"], player["state"] = (square, "standing") if square else (None, "reserves")
    data.update(
        phase="play",
        half=2,
        active="home",
        kicking="away",
        turn={"home": 8, "away": 8},
        score={"home": 1, "away": 1},
        pending=None,
        ball={"at": "T9", "carrier": None},
    )
    match.state = MatchState.from_json(data).to_json(compact=True)
    match.version += 1
    match.save()
    Decision.objects.filter(match=match).delete()


def test_both_captains_agree_to_a_draw_by_clicking(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    _last_turn_of_the_second_half_tied(match)
    alice = _coach(browser, live_server, cast["alice"], match)
    bob = _coach(browser, live_server, cast["bob"], match)
    carol = _coach(browser, live_server, cast["carol"], match)

    alice.get_by_test_id("end_turn-captain").click()
    bob.get_by_test_id("end_turn-rival").click()
    # full time, 1-1: the home captain is asked first, with the deadline's default shown
    expect(alice.get_by_test_id("decision")).to_contain_text("agree to a draw?", timeout=LATER)
    expect(alice.get_by_test_id("decision")).to_contain_text("If nobody answers in time: No.")
    expect(bob.get_by_test_id("choice-true")).to_have_count(0)
    alice.get_by_test_id("choice-true").click()
    # then the away captain
    expect(carol.get_by_test_id("choice-true")).to_be_visible(timeout=LATER)
    expect(alice.get_by_test_id("choice-true")).to_have_count(0)
    carol.get_by_test_id("choice-true").click()
    expect(carol.locator("#thread")).to_contain_text("Both captains agree: the match is a draw.")
    expect(carol.locator("#thread")).to_contain_text("Final whistle")

    match.refresh_from_db()
    assert match.status == Match.Status.POST_MATCH
    assert match.state["result"]["by"] == "agreed_draw"
    assert match.state["result"]["winner"] is None
    carol.get_by_test_id("league-link").click()
    standings = carol.get_by_test_id("standings")
    for row in ("standing-1", "standing-2"):
        cells = standings.get_by_test_id(row).locator("td")
        expect(cells.nth(3)).to_have_text("0")  # won
        expect(cells.nth(4)).to_have_text("1")  # drawn
        expect(cells.nth(5)).to_have_text("0")  # lost
