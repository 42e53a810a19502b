"""In Chromium, from the home page and by clicking: each role's dashboard and "My matches"
(the captain, the rival, the other team's captain, the GM, a spectator), the GM panel reached
from the match page, and a turn copied as BBCode from the forum page."""

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.models import Match
from matches.tests.positions import mid_turn, script_dice
from teams import services as team_services
from teams.tests.conftest import REAVERS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-browser-passphrase"
MATCH_TITLE = "Reikland Reavers v Orcland Raiders"


def _live(match: Match) -> None:
    mid_turn(match)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.IN_PLAY)


def _log_in_from_home(browser: Browser, server: LiveServer, user: User) -> Page:
    user.set_password(PASSWORD)
    user.save()
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.goto(server.url)
    expect(page.get_by_role("heading", name="Blood Bowl leagues, played by web")).to_be_visible()
    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("dashboard")).to_be_visible()
    return page


def test_each_role_finds_its_match_from_the_dashboard_and_my_matches(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    _live(match)
    # (who, where the dashboard lists the match, where "My matches" lists it)
    roles = (
        ("alice", "your-turns", "awaiting"),  # the home captain: her team plays
        ("bob", "your-turns", "awaiting"),  # the home rival side plays too
        ("carol", "live", "live"),  # the away captain waits
        ("gm", "refereed", "refereed"),
    )
    for name, on_dashboard, on_mine in roles:
        page = _log_in_from_home(browser, live_server, cast[name])
        expect(page.get_by_test_id(on_dashboard)).to_contain_text(MATCH_TITLE)
        page.get_by_test_id("my-matches").click()
        expect(page.get_by_role("heading", name="My matches")).to_be_visible()
        expect(page.get_by_test_id(on_mine)).to_contain_text(MATCH_TITLE)
        page.get_by_test_id(on_mine).get_by_role("link", name=MATCH_TITLE).click()
        expect(page.get_by_test_id("markers")).to_be_visible()
        expect(page.get_by_test_id("match-nav")).to_be_visible()
        page.context.close()

    erin = _log_in_from_home(browser, live_server, cast["erin"])  # a spectator
    expect(erin.get_by_test_id("your-turns-none")).to_be_visible()
    expect(erin.get_by_test_id("live-none")).to_be_visible()
    erin.get_by_test_id("my-matches").click()
    expect(erin.get_by_test_id("awaiting-none")).to_have_text("Nothing awaits you.")
    expect(erin.get_by_test_id("refereed")).to_have_count(0)


def test_the_gm_pauses_the_match_from_its_panel_on_the_match_page(
    live_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    _live(match)
    gm = _log_in_from_home(browser, live_server, cast["gm"])
    gm.get_by_test_id("refereed").get_by_role("link", name=MATCH_TITLE).click()
    panel = gm.get_by_test_id("gm-panel")
    expect(panel).to_be_visible()
    expect(panel.get_by_test_id("gm-disputes")).to_have_text("0 open disputes on this match")
    panel.get_by_text("Match control").click()
    panel.get_by_test_id("pause").click()
    expect(gm.get_by_text("Done.")).to_be_visible()
    expect(gm.get_by_test_id("gm-paused")).to_be_visible()
    expect(gm.get_by_test_id("gm-panel").get_by_test_id("resume")).to_have_count(1)
    match.refresh_from_db()
    assert match.paused

    alice = _log_in_from_home(browser, live_server, cast["alice"])
    alice.get_by_test_id("live").get_by_role("link", name=MATCH_TITLE).click()
    expect(alice.get_by_test_id("markers")).to_be_visible()
    expect(alice.get_by_test_id("gm-panel")).to_have_count(0)


def test_a_turn_is_copied_as_bbcode_from_the_match_page(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _live(match)
    script_dice(monkeypatch, [6] * 20)
    services.declare(
        match.pk,
        cast["bob"],
        {"player": "h7", "action": "move", "path": ["J8"]},
        text="Off he goes [/quote]",
    )
    erin = _log_in_from_home(browser, live_server, cast["erin"])
    erin.get_by_test_id("nav-matches").click()
    erin.get_by_role("link", name=MATCH_TITLE).first.click()
    erin.get_by_test_id("nav-forum").click()
    erin.get_by_test_id("forum-turns").get_by_role(
        "link", name="Half 1, turn 1 of Reikland Reavers"
    ).click()
    bbcode = erin.get_by_test_id("forum-bbcode")
    expect(bbcode).to_contain_text('[quote="bob"][b]#')
    text = bbcode.input_value()
    assert "[b]Reikland Reavers v Orcland Raiders[/b]\n" in text
    assert "[*]Dodge" in text and "[6]" in text
    assert "Off he goes [\u200b/quote][/quote]" in text  # the coach's tag stays inside
    assert text.rstrip().endswith("[/url]")
    erin.get_by_test_id("copy-bbcode").click()
    expect(erin.get_by_text("Copied.")).to_be_visible()


def test_a_turn_heading_of_the_thread_links_to_that_turn_for_the_forum(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _live(match)
    script_dice(monkeypatch, [6] * 20)
    services.declare(
        match.pk, cast["bob"], {"player": "h7", "action": "move", "path": ["J8"]}, text="Go"
    )
    erin = _log_in_from_home(browser, live_server, cast["erin"])
    erin.get_by_test_id("nav-matches").click()
    erin.get_by_role("link", name=MATCH_TITLE).first.click()
    heading = erin.locator("#thread h3", has_text="Half 1, turn 1 of Reikland Reavers")
    heading.get_by_role("link", name="BBCode / Markdown").click()
    expect(erin.get_by_test_id("forum-text").get_by_role("heading")).to_have_text(
        "Half 1, turn 1 of Reikland Reavers"
    )
    text = erin.get_by_test_id("forum-bbcode").input_value()
    assert "[size=120][b]Half 1, turn 1 of Reikland Reavers[/b][/size]" in text
    assert "[*]Dodge" in text and "Go" in text
    markdown = erin.get_by_test_id("forum-markdown").input_value()
    assert "### Half 1, turn 1 of Reikland Reavers" in markdown


@pytest.mark.parametrize(
    ("language", "width"), [("en", 1366), ("es", 1366), ("fr", 390)], ids=["en", "es", "phone-fr"]
)
def test_an_invited_coach_accepts_from_the_home_page(
    live_server: LiveServer, browser: Browser, cast: dict[str, User], language: str, width: int
) -> None:
    team = team_services.create_team(
        cast["erin"], REAVERS, name="Invited Reavers", rival_username="bob"
    )
    page = _log_in_from_home(browser, live_server, cast["bob"])
    page.set_viewport_size({"width": width, "height": 844})
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.reload()
    with translation.override(language):
        invited = gettext("%(captain)s invites you to coach the rival's side of %(team)s.") % {
            "captain": "erin",
            "team": "Invited Reavers",
        }
        accept, accepted = gettext("Accept"), gettext("You coach the rival's side now.")
    invitations = page.get_by_test_id("invitations")
    expect(invitations).to_contain_text(invited)
    invitations.get_by_role("button", name=accept).click()
    expect(page.get_by_role("status")).to_contain_text(accepted)
    team.refresh_from_db()
    assert team.rival == cast["bob"]
    page.goto(live_server.url)
    expect(page.get_by_test_id("dashboard")).to_be_visible()
    expect(page.get_by_test_id("invitations")).to_have_count(0)
    page.context.close()
