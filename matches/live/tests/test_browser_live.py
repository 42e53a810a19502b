"""The referee runs a live match from his phone (390x844) in a real Chromium, starting from the
league page: a bash between different levels, three against one, a dodge, the injury ladder
up to seriously injured, a yellow card, a touchdown, the result in the standings; and two
players throw on their own phones without seeing each other's throw before both are in."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from matches.live.models import LiveMatch
from teams.models import Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-passphrase"
PHONE = ViewportSize(width=390, height=844)
LATER = 12_000  # ms: a phone catches up by polling


def referee_page(browser: Browser, server: LiveServer, gm: User, league_id: int | None) -> Page:
    gm.set_password(PASSWORD)
    gm.save()
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server.url}/accounts/login/?next=/leagues/{league_id}/")
    page.get_by_label("Username").fill(gm.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("live-matches")).to_be_visible()
    return page


def start(page: Page, teams: tuple[Team, Team]) -> None:
    page.get_by_test_id("start-live").click()
    page.get_by_label("Home").select_option(label=teams[0].name)
    page.get_by_label("Away").select_option(label=teams[1].name)
    page.get_by_test_id("live-create").click()
    expect(page.get_by_test_id("score")).to_contain_text("0 \u2013 0")
    page.get_by_test_id("kick-off-away").click()
    expect(page.get_by_test_id("phase")).to_have_text("Move (3 seconds)")


def to_bash(page: Page) -> None:
    for phase in ("Stride", "Bash"):
        page.get_by_test_id("next-phase").click()
        expect(page.get_by_test_id("phase")).to_have_text(phase)


def _challenge(
    page: Page, attackers: list[str], defender: str, *, purpose: str = "bash", **flags: bool
) -> None:
    page.get_by_test_id(f"purpose-{purpose}").check()
    for pid in attackers:
        page.get_by_test_id(f"attacker-{pid}").check()
    page.get_by_test_id(f"defender-{defender}").check()
    for flag, on in flags.items():
        if on:
            page.get_by_test_id(flag).check()
    page.get_by_test_id("start-challenge").click()
    expect(page.get_by_test_id("challenge")).to_be_visible()


def throws(page: Page, **thrown: str) -> None:
    for pid, value in thrown.items():
        page.get_by_test_id(f"throw-{pid}-{value}").check()
    page.get_by_test_id("submit-throws").click()


def give_ruling(page: Page, pid: str, ruling: str) -> None:
    page.get_by_test_id(f"rulings-{pid}").click()
    page.get_by_test_id(f"ruling-{pid}-{ruling}").click()


def test_the_referee_runs_a_short_live_match_that_counts_in_the_standings(
    live_server: LiveServer, browser: Browser, teams: tuple[Team, Team], gm: User
) -> None:
    home = teams[0]
    page = referee_page(browser, live_server, gm, home.league_id)
    start(page, teams)
    to_bash(page)

    # A bash between different levels: Grimgor (+1) on Anna (-1); a tie goes to Grimgor.
    _challenge(page, ["a3"], "h4")
    expect(page.get_by_test_id("level-a3")).to_contain_text("+1")
    expect(page.get_by_test_id("level-h4")).to_contain_text("-1")
    expect(page.get_by_test_id("ties")).to_contain_text(
        "#3 Grimgor wins a tie and throws a lost throw again once; in the redo a tie goes to "
        "#4 Anna Vogel."
    )
    throws(page, a3="rock", h4="rock")
    expect(page.get_by_test_id("last-winners")).to_have_text("#3 Grimgor")
    expect(page.get_by_test_id("challenge")).to_contain_text("Injury test")
    throws(page, a3="rock", h4="rock")  # a tie: no injury
    expect(page.get_by_test_id("state-h4")).to_have_text("stunned")

    # Three against one, each attacker +2; then the injury ladder up to seriously injured.
    _challenge(page, ["a5", "a6", "a10"], "h5")
    for pid in ("a5", "a6", "a10"):
        expect(page.get_by_test_id(f"level-{pid}")).to_contain_text("+2")
    expect(page.get_by_test_id("level-h5")).to_contain_text("+0")
    throws(page, a5="paper", a6="paper", a10="paper", h5="rock")
    # All three won: they choose who tries to injure, the referee taps him.
    expect(page.get_by_test_id("choose-injurer")).to_be_visible()
    page.get_by_test_id("injurer-a5").click()
    expect(page.get_by_test_id("challenge")).to_contain_text("Injury test")
    throws(page, a5="paper", h5="rock")
    expect(page.get_by_test_id("damage-so-far")).to_contain_text("1 damage level")
    throws(page, a5="paper", h5="rock")
    expect(page.get_by_test_id("damage-so-far")).to_contain_text("2 damage levels")
    throws(page, a5="rock", h5="rock")
    expect(page.get_by_test_id("state-h5")).to_have_text("seriously injured")

    # A dodge: Gorbag (+1) on Lena who dodges (+1): she wins and harms nobody.
    _challenge(page, ["a1"], "h9", dodging=True)
    expect(page.get_by_test_id("ties")).to_contain_text("a tie is thrown again")
    throws(page, a1="rock", h9="paper")
    expect(page.get_by_test_id("last-winners")).to_have_text("#9 Lena Fuchs")
    expect(page.get_by_test_id("state-a1")).to_have_text("standing")
    expect(page.get_by_test_id("state-h9")).to_have_text("standing")

    give_ruling(page, "a2", "yellow")
    expect(page.get_by_test_id("state-a2")).to_have_text("yellow card")

    give_ruling(page, "h3", "give_ball")
    expect(page.get_by_test_id("carrier-h3")).to_be_visible()
    page.get_by_test_id("rulings-h3").click()
    page.get_by_test_id("touchdown-h3").click()
    expect(page.get_by_test_id("score")).to_contain_text("1 \u2013 0")
    expect(page.get_by_test_id("state-a2")).to_have_text("standing")  # the stoppage ends it
    expect(page.get_by_test_id("log")).to_contain_text("Touchdown by #3 Johann Weiss! 1-0")

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("finish").click()
    expect(page.get_by_test_id("clock")).to_have_text("Full time")

    page.goto(f"{live_server.url}/leagues/{home.league_id}/")
    expect(page.get_by_test_id("standing-1")).not_to_contain_text("3")
    page.get_by_test_id("live-counts").click()
    expect(page.get_by_test_id("standing-1")).to_contain_text(home.name)
    expect(page.get_by_test_id("standing-1").locator("strong")).to_have_text("3")
    expect(page.get_by_test_id("live-matches")).to_contain_text(f"{home.name} 1 \u2013 0")


def test_two_players_throw_on_their_phones_and_neither_sees_the_other_first(
    live_server: LiveServer, browser: Browser, teams: tuple[Team, Team], gm: User
) -> None:
    home, _ = teams
    referee = referee_page(browser, live_server, gm, home.league_id)
    start(referee, teams)
    to_bash(referee)
    _challenge(referee, ["a1"], "h1", phones=True)
    expect(referee.get_by_test_id("waiting")).to_contain_text("#1 Gorbag: waiting")

    players = LiveMatch.objects.get().state["players"]
    phones = {}
    for pid in ("a1", "h1"):
        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(
            f"{live_server.url}/live/{LiveMatch.objects.get().pk}/phone/{players[pid]['token']}/"
        )
        expect(phone.get_by_test_id("my-challenge")).to_be_visible()
        phones[pid] = phone

    phones["a1"].get_by_test_id("my-throw-paper").click()
    expect(phones["a1"].get_by_test_id("my-throw")).to_contain_text("Paper")
    expect(referee.get_by_test_id("waiting")).to_contain_text("#1 Gorbag: thrown", timeout=LATER)
    # Karl's phone and the referee's page know that Gorbag threw, not what.
    for page in (phones["h1"], referee):
        expect(page.get_by_test_id("last")).to_have_count(0)
        assert "Gorbag: Paper" not in page.content()
    expect(phones["h1"].get_by_test_id("my-throw-rock")).to_be_visible()

    phones["h1"].get_by_test_id("my-throw-rock").click()
    for page in (phones["h1"], phones["a1"], referee):
        expect(page.get_by_test_id("last")).to_contain_text(
            "#1 Gorbag: Paper · #1 Karl Fleischer: Rock", timeout=LATER
        )
    expect(referee.get_by_test_id("last-winners")).to_have_text("#1 Gorbag")


def test_a_button_pressed_while_offline_is_sent_once_when_the_connection_is_back(
    live_server: LiveServer, browser: Browser, teams: tuple[Team, Team], gm: User
) -> None:
    page = referee_page(browser, live_server, gm, teams[0].league_id)
    start(page, teams)
    page.context.set_offline(True)
    page.get_by_test_id("next-phase").click()
    expect(page.get_by_test_id("offline")).to_be_visible()
    page.context.set_offline(False)
    expect(page.get_by_test_id("phase")).to_have_text("Stride", timeout=LATER)
    expect(page.get_by_test_id("offline")).to_be_hidden()
    match = LiveMatch.objects.get()
    assert match.events.filter(type="phase").count() == 1
    assert match.state["phase"] == "stride"
