"""What a newcomer tripped on, tried in Chromium: a click on the centre of the loose ball's
square, players named with their team in the thread and in the GM's correction, and the
console of the match page."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, ConsoleMessage, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.models import Match
from matches.play.tests.test_browser_match import coach
from matches.tests.positions import mid_turn, script_dice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_click_on_the_centre_of_the_loose_balls_square_steps_onto_it(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    mid_turn(match)
    match.refresh_from_db()
    match.state["ball"] = {"at": "F6", "carrier": None}  # beside Karl (h1, on F5)
    match.save()
    alice = coach(browser, live_server, cast["alice"], match)
    alice.get_by_test_id("token-h1").click()
    expect(alice.get_by_test_id("action-move")).to_have_attribute("aria-pressed", "true")
    ball = alice.get_by_test_id("ball").bounding_box()
    assert ball is not None
    alice.mouse.click(ball["x"] + ball["width"] / 2, ball["y"] + ball["height"] / 2)
    expect(alice.get_by_test_id("plan")).to_contain_text("Path: F6")


@pytest.mark.parametrize("reader", ["alice", "gm"])
def test_the_match_page_logs_no_error_in_the_console(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User], reader: str
) -> None:
    mid_turn(match)
    alice = coach(browser, live_server, cast[reader], match)
    errors: list[str] = []

    def keep_errors(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    alice.on("console", keep_errors)
    alice.on("pageerror", lambda error: errors.append(str(error)))
    alice.reload()
    expect(alice.get_by_test_id("markers")).to_be_visible()
    if reader == "alice":
        alice.get_by_test_id("token-h1").click()
        expect(alice.get_by_test_id("selected")).to_be_visible()
    alice.wait_for_timeout(5_000)  # one poll of the live part at least
    assert errors == []


def test_the_thread_and_the_gms_correction_name_each_players_team(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mid_turn(match)
    script_dice(monkeypatch)
    services.declare(match.pk, cast["alice"], {"player": "h1", "action": "block", "target": "a5"})
    services.raise_dispute(match.pk, cast["carol"], reason="Was that a block?", post_number=2)
    gm = coach(browser, live_server, cast["gm"], match)
    expect(gm.get_by_test_id("post-2")).to_contain_text(
        "#1 Karl Fleischer (Reikland Reavers) Block · #5 Muzgash (Orcland Raiders)"
    )
    ruling = gm.get_by_test_id("ruling-choice")
    ruling.select_option("correct")
    players = gm.get_by_test_id("fields-correct").get_by_label("Player")
    expect(players).to_be_visible()
    expect(
        players.locator("option", has_text="#1 Karl Fleischer (Reikland Reavers)")
    ).to_have_count(1)
    expect(players.locator("option", has_text="(Orcland Raiders)")).to_have_count(
        len([pid for pid in match.lineup if pid.startswith("a")])
    )
