"""The referee, on his phone (390x844) in a real Chromium, reaches a bomb from the league page:
he gives a player a bomb, lights and throws it in the move phase, cannot leave the bash phase
before it explodes, ticks the players in the blast and runs its challenges (+1 against
strength only, then the injury tests at +2)."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from matches.live.models import LiveMatch
from matches.live.tests.test_browser_live import give_ruling, referee_page, start, throws, to_bash
from teams.models import Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_referee_throws_a_bomb_and_runs_its_blast(
    live_server: LiveServer, browser: Browser, teams: tuple[Team, Team], gm: User
) -> None:
    page = referee_page(browser, live_server, gm, teams[0].league_id)
    start(page, teams)
    give_ruling(page, "h2", "bomb")
    expect(page.get_by_test_id("bomb-h2")).to_be_visible()
    page.get_by_test_id("rulings-h2").click()
    page.get_by_test_id("light-bomb-h2").click()
    expect(page.get_by_test_id("bomb")).to_contain_text("lights a bomb")
    page.get_by_test_id("throw-bomb").click()
    expect(page.get_by_test_id("bomb")).to_contain_text("A thrown bomb")
    expect(page.get_by_test_id("bomb-h2")).to_have_count(0)
    to_bash(page)
    page.get_by_test_id("next-phase").click()
    expect(page.get_by_test_id("error")).to_contain_text("end of the bash phase")
    expect(page.get_by_test_id("phase")).to_have_text("Bash")

    # Grimgor (a3, Black Orc Blocker, ST 4) and an orc lineman (a5, ST 3) are in the blast.
    page.get_by_test_id("hit-a3").check()
    page.get_by_test_id("hit-a5").check()
    page.get_by_test_id("blast").click()
    expect(page.get_by_test_id("challenge")).to_contain_text("The bomb's blast")
    expect(page.get_by_test_id("level-ref")).to_contain_text("+1")
    expect(page.get_by_test_id("level-a3")).to_contain_text("+1")  # strength only, no Block
    throws(page, ref="paper", a3="rock")
    expect(page.get_by_test_id("challenge")).to_contain_text("Injury test")
    expect(page.get_by_test_id("level-ref")).to_contain_text("+2")
    expect(page.get_by_test_id("state-a3")).to_have_text("stunned")
    panel = page.locator("#live-panel")
    version = panel.get_attribute("data-version") or ""
    throws(page, ref="scissors", a3="rock")  # the bomb lost: at +2 it throws again once
    expect(panel).not_to_have_attribute("data-version", version)
    expect(page.get_by_test_id("challenge")).to_contain_text("Injury test")
    throws(page, ref="scissors", a3="rock")  # lost again: Grimgor is only stunned
    expect(page.get_by_test_id("challenge")).to_contain_text("The bomb's blast")
    expect(page.get_by_test_id("level-a5")).to_contain_text("+0")
    throws(page, ref="rock", a5="paper")
    expect(page.get_by_test_id("controls")).to_be_visible()
    expect(page.get_by_test_id("state-a5")).to_have_text("standing")
    expect(page.get_by_test_id("log")).to_contain_text("The bomb explodes")
    page.get_by_test_id("next-phase").click()
    expect(page.get_by_test_id("phase")).to_have_text("Throw")
    match = LiveMatch.objects.get()
    assert match.state["bomb"] is None
    assert match.state["players"]["h2"]["weapon"] == ""
