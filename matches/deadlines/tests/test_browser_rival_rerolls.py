"""In the browser: the league's GM opens the league's settings from its page and lets either
side use the team rerolls freely (seed 000 taken literally); the league page says so. In a
match of the league, bob (the home rival) fails a dodge, clicks the team reroll and it is used
at once: alice, his captain, is asked nothing."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.models import Decision, Match
from matches.tests.positions import mid_turn, script_dice
from teams.models import League, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-passphrase"


def _signed_in(browser: Browser, server: LiveServer, user: User, path: str) -> Page:
    user.set_password(PASSWORD)
    user.save()
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.goto(f"{server.url}/accounts/login/?next={path}")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    return page


def test_with_free_rerolls_a_rivals_reroll_is_used_without_asking_the_captain(
    live_server: LiveServer,
    browser: Browser,
    league: League,
    teams: tuple[Team, Team],
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gm = _signed_in(browser, live_server, cast["gm"], f"/leagues/{league.pk}/")
    expect(gm.get_by_test_id("league-rerolls")).to_contain_text("The captain approves each")
    gm.get_by_role("link", name="Settings").click()
    gm.get_by_label("The rival's team rerolls").select_option("free")
    gm.get_by_test_id("save-league").click()
    expect(gm.get_by_test_id("league-rerolls")).to_contain_text("Either side uses them freely")

    home, away = teams
    league.refresh_from_db()
    match = services.create_match(home=home, away=away, gm=cast["gm"], league=league)
    mid_turn(match)
    script_dice(monkeypatch)  # the dodge fails (1), the reroll succeeds (5)
    bob = _signed_in(browser, live_server, cast["bob"], f"/matches/{match.pk}/")
    bob.get_by_test_id("token-h7").click()
    bob.locator('#pitch .cell[data-square="J8"]').click()
    bob.get_by_test_id("post-declaration").click()
    expect(bob.get_by_test_id("decision")).to_contain_text("Reroll?")
    bob.get_by_test_id("choice-team").click()
    expect(bob.get_by_test_id("token-h7")).to_have_attribute("data-square", "J8")
    expect(bob.locator("#thread")).to_contain_text("Reroll (Team reroll) used")
    assert not Decision.objects.filter(match=match, kind="reroll_approval").exists()
    match.refresh_from_db()
    assert services.load_state(match).teams["home"].rerolls == home.rerolls - 1
    assert match.status == Match.Status.IN_PLAY
