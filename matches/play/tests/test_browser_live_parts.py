"""In the browser: every live part of the match page follows the match without a reload (the
fouls of the turn as well as the thread), and the plan panel names players, not ids."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.models import Match
from matches.play.tests.test_browser_match import LATER, coach
from matches.tests.positions import mid_turn, script_dice
from rules.engine import MatchState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _knock_down(match: Match, pid: str) -> None:
    data = services.load_state(match).to_json()
    data["players"][pid]["state"] = "prone"
    match.state = MatchState.from_json(data).to_json(compact=True)
    match.version += 1
    match.save()


def _name(match: Match, pid: str) -> str:
    facts = match.lineup[pid]
    return f"#{facts['number']} {facts['name']}"


def test_the_fouls_of_the_turn_follow_a_foul_without_a_reload(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mid_turn(match)  # bob's h7 on K8 beside a10 on L8
    _knock_down(match, "a10")
    script_dice(monkeypatch, [1, 2, 3, 3, 3, 3])  # the armour holds, no double
    alice = coach(browser, live_server, cast["alice"], match)
    rival = alice.locator('[data-testid="fouls"] [data-side="rival"]')
    expect(rival).to_contain_text("0/1")

    services.declare(match.pk, cast["bob"], {"player": "h7", "action": "foul", "target": "a10"})
    expect(rival).to_contain_text("1/1", timeout=LATER)
    expect(alice.locator("#thread")).to_contain_text(_name(match, "h7"))


def test_the_plan_panel_names_the_selected_player_and_its_target_and_warns_of_a_sending_off(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    cast: dict[str, User],
) -> None:
    mid_turn(match)  # bob's h7 on K8 beside a10 on L8, h10 on M9
    _knock_down(match, "a10")
    bob = coach(browser, live_server, cast["bob"], match)
    bob.get_by_test_id("token-h7").click()
    expect(bob.get_by_test_id("selected")).to_have_text(_name(match, "h7"))
    bob.get_by_test_id("action-foul").click()
    bob.get_by_test_id("token-a10").click()
    expect(bob.get_by_test_id("target")).to_have_text(f"Target: {_name(match, 'a10')}")
    rolls = bob.get_by_test_id("rolls")
    expect(rolls).to_contain_text("vs AV")
    expect(bob.get_by_test_id("sent-off-risk")).to_contain_text("Risk of the fouler being sent off")
