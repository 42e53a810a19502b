import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from teams.models import Invitation, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_coach_builds_a_team_in_the_browser_with_the_budget_updating_live(
    live_server: LiveServer, page: Page
) -> None:
    User.objects.create_user("alice", password="a-long-browser-passphrase")
    User.objects.create_user("bob")
    page.goto(live_server.url + "/accounts/login/?next=/teams/new/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("a-long-browser-passphrase")
    page.get_by_role("button", name="Log in").click()

    page.get_by_label("Race").select_option("human")
    expect(page.get_by_role("heading", name="Human players")).to_be_visible()
    expect(page).to_have_url(live_server.url + "/teams/new/?race=human")
    totals = page.get_by_test_id("totals")
    expect(page.get_by_test_id("remaining")).to_have_text("1,000,000 gp")

    # The totals follow each pick even before the form is complete (the name is still empty).
    page.locator("#id_captain__blitzer").select_option("2")
    expect(page.get_by_test_id("remaining")).to_have_text("820,000 gp")
    page.locator("#id_rival__blitzer").select_option("2")
    page.locator("#id_captain__thrower").select_option("1")
    page.locator("#id_rival__catcher").select_option("2")
    page.locator("#id_captain__lineman").select_option("2")
    expect(totals).to_contain_text("Too few players: 9, a new team needs at least 11.")
    page.locator("#id_rival__lineman").select_option("2")
    page.locator("#id_rerolls").select_option("3")
    page.locator("#id_fan_factor").select_option("1")
    page.get_by_label("Apothecary").check()
    # 4 x 90,000 + 70,000 + 2 x 70,000 + 4 x 50,000 = 770,000 of players, 150,000 of
    # rerolls, 10,000 of fan factor, 50,000 for the apothecary.
    expect(page.get_by_test_id("total")).to_have_text("980,000 gp")
    expect(page.get_by_test_id("remaining")).to_have_text("20,000 gp")
    expect(page.get_by_test_id("player-count")).to_contain_text(
        "11 players (captain's side 5, rival's side 6)"
    )
    expect(page.get_by_test_id("legal")).to_be_visible()
    page.locator("#id_rerolls").select_option("4")
    expect(page.get_by_test_id("remaining")).to_have_text("-30,000 gp")
    expect(page.get_by_test_id("problems")).to_contain_text("Over budget")
    page.locator("#id_rerolls").select_option("3")
    expect(page.get_by_test_id("legal")).to_be_visible()

    page.get_by_label("Team name").fill("Altdorf Agitators")
    page.get_by_label("Rival coach").fill("bob")
    page.get_by_test_id("create-team").click()
    expect(page.locator("h1")).to_have_text("Altdorf Agitators")
    expect(page.get_by_test_id("team-value")).to_have_text("980,000 gp")
    team = Team.objects.get()
    assert team.players.count() == 11
    assert Invitation.objects.get().user.username == "bob"
    # 20,000 left, shared 350:420 by side value: exactly 9,091 and 10,909; by largest
    # remainder the last 1,000 goes to the rival's larger fraction.
    assert (team.captain_treasury, team.rival_treasury) == (9_000, 11_000)
