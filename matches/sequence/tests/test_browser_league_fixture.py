"""In the browser, a league fixture from the GM's first click to the standings: the GM opens a
league (VE 160 by default) and its round robin, both captains bring their teams in, the GM
opens the fixture at its pre-match; the weather is rolled first, both captains move petty cash
and buy inducements (the Halflings, the lower team value, get handicap money and spend it on a
Master Chef), the teams set up, kick off and play a turn each, the GM ends the match as it
stands, each captain gives the opposing team's awards; then the league page's standings and
leaders show the result. Pages only: every step is a click or a typed field."""

import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from bbweb.roles import make_game_master
from matches.models import Match, TeamMatchRecord
from matches.sequence.tests.driving import ConstantDice
from matches.tests.dice import use_dice
from teams import services as team_services
from teams.models import Team
from teams.tests.conftest import starting_plan

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-browser-passphrase"
LATER = 12_000  # ms: another coach's page catches up by polling

# Grasshoppers at home (the round robin's first pair, by name), Reavers away; 11 squares each:
# three on the line of scrimmage, the rest behind it, none in the wide zones.
HOME_SQUARES = ["M6", "M7", "M8", "K5", "K6", "K7", "K8", "K9", "K10", "K11", "J7"]
AWAY_SQUARES = ["N6", "N7", "N8", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "Q7"]


@pytest.fixture
def people(db: None) -> dict[str, User]:
    users = {}
    for name in ("gm", "alice", "carol"):
        user = User.objects.create_user(name, password=PASSWORD)
        users[name] = user
    make_game_master(users["gm"])
    return users


@pytest.fixture
def teams(people: dict[str, User]) -> dict[str, Team]:
    """Two teams in no league yet, each coached by its captain alone (both sides)."""
    reavers = team_services.create_team(
        people["alice"], starting_plan("human"), name="Reikland Reavers"
    )
    grasshoppers = team_services.create_team(
        people["carol"], starting_plan("halfling"), name="Greenfield Grasshoppers"
    )
    # A season's savings on the Reavers' captain's side, for the petty cash.
    Team.objects.filter(pk=reavers.pk).update(captain_treasury=150_000)
    return {"reavers": reavers, "grasshoppers": grasshoppers}


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Each person's browser, closed at the end (their pages poll the server until then)."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def _browser_for(
    browser: Browser, contexts: list[BrowserContext], server: LiveServer, user: User
) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    contexts.append(context)
    # No server-sent events: the pages poll instead, their fallback. This test is about the
    # fixture's way through the pages; under the live server's WSGI each person's streams hold
    # a thread and renew their presence in Redis for as long as the test runs, which on a busy
    # machine starved the post-match page's requests (the push has tests of its own).
    context.route("**/stream/**", lambda route: route.abort())
    page = context.new_page()
    page.goto(f"{server.url}/accounts/login/?next=/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("profile")).to_be_visible()
    return page


def _to_the_league(page: Page, name: str) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Leagues").click()
    page.get_by_role("link", name=name).click()


def _to_the_match(page: Page) -> None:
    page.get_by_test_id("fixtures").get_by_role("link", name="match").click()
    expect(page.get_by_test_id("markers")).to_be_visible()


def _transfer(page: Page, side: str, amount: int) -> None:
    page.locator(f"#amount-{side}").fill(str(amount))
    page.get_by_test_id("petty-cash").locator("form").filter(
        has=page.locator(f"#amount-{side}")
    ).get_by_role("button", name="Transfer").click()
    expect(page.get_by_text("Done.")).to_be_visible()


def _set_up(page: Page, squares: list[str]) -> None:
    """Each side of the team posts its set-up: a reserve picked, its square clicked; the
    captain's side first (it puts three on the line of scrimmage), then the rival's."""
    page.reload()
    left = list(squares)
    for _side in ("captain", "rival"):
        expect(page.locator('#plan[data-mode="setup"]')).to_be_visible(timeout=LATER)
        panel = page.locator("#plan-panel")
        for placed in range(1, 7):
            if not left:
                break
            page.locator('[data-testid^="reserve-"]').first.click()
            expect(panel).to_contain_text("in hand")
            page.locator(f'#pitch .cell[data-square="{left.pop(0)}"]').click()
            expect(panel).to_contain_text(re.compile(rf"\b{placed} players? placed"))
            expect(panel).not_to_contain_text("in hand")
        expect(page.get_by_test_id("post-declaration")).to_be_enabled()
        page.get_by_test_id("post-declaration").click()
        expect(page.get_by_text(re.compile(r"\b[1-9]\d* players? placed"))).to_have_count(0)


def test_a_league_fixture_is_played_through_the_pages_from_the_league_to_the_standings(
    live_server: LiveServer,
    browser: Browser,
    contexts: list[BrowserContext],
    people: dict[str, User],
    teams: dict[str, Team],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    use_dice(monkeypatch, lambda match: ConstantDice(3))  # the match's dice; the sequence's fair
    gm = _browser_for(browser, contexts, live_server, people["gm"])
    alice = _browser_for(browser, contexts, live_server, people["alice"])
    carol = _browser_for(browser, contexts, live_server, people["carol"])

    # The GM opens a league: VE 160 is the default starting treasury.
    gm.get_by_role("navigation", name="Main").get_by_role("link", name="Leagues").click()
    gm.get_by_test_id("new-league").click()
    expect(gm.get_by_label("Starting treasury (gp)")).to_have_value("1600000")
    gm.get_by_label("Name").fill("Liga de la Prueba")
    gm.get_by_test_id("save-league").click()
    expect(gm.get_by_text("The league Liga de la Prueba is open.")).to_be_visible()
    expect(gm.get_by_test_id("fixtures")).to_contain_text("Nothing scheduled yet.")

    # Both captains bring their teams in from the league page.
    for page, team in ((alice, "Reikland Reavers"), (carol, "Greenfield Grasshoppers")):
        _to_the_league(page, "Liga de la Prueba")
        page.get_by_role("combobox").select_option(label=team)
        page.get_by_test_id("join").click()
        expect(page.get_by_text("Your team joined the league.")).to_be_visible()

    # The GM schedules the season and opens its fixture: the match waits in its pre-match.
    gm.reload()
    gm.get_by_test_id("schedule").click()
    gm.get_by_test_id("generate").click()
    expect(gm.get_by_text("The season is scheduled.")).to_be_visible()
    gm.get_by_role("button", name="Open the match").click()
    expect(gm.get_by_text("The match is open.")).to_be_visible()
    match = Match.objects.get()
    assert match.status == Match.Status.PRE_MATCH
    assert (match.home_team.name, match.away_team.name) == (
        "Greenfield Grasshoppers",
        "Reikland Reavers",
    )

    # The Reavers (the higher team value) decide first; the weather is already rolled.
    _to_the_league(alice, "Liga de la Prueba")
    _to_the_match(alice)
    alice.get_by_test_id("prematch-link").click()
    steps = alice.get_by_test_id("steps").locator("li")
    expect(steps.first).to_have_attribute("data-step", "weather")
    expect(steps.first).to_contain_text("Weather:")
    _transfer(alice, "captain", 100_000)
    _transfer(alice, "rival", 0)
    _to_the_league(carol, "Liga de la Prueba")
    _to_the_match(carol)
    carol.get_by_test_id("prematch-link").click()
    _transfer(carol, "captain", 0)
    _transfer(carol, "rival", 0)
    expect(carol.get_by_test_id("steps")).to_contain_text("Handicap money")

    # Inducements: the Reavers first, with their petty cash; the Halflings with the handicap.
    alice.reload()
    alice.locator('input[name="count_extra_training"]').fill("1")
    alice.get_by_test_id("inducements").get_by_role("button", name="Buy").click()
    expect(alice.get_by_text("Done.")).to_be_visible()
    carol.reload()
    underdog = TeamMatchRecord.objects.get(match=match, key="home")
    assert underdog.handicap >= 100_000
    expect(carol.get_by_test_id("inducements")).to_contain_text("You may spend")
    carol.locator('input[name="count_halfling_master_chef"]').fill("1")
    carol.get_by_test_id("inducements").get_by_role("button", name="Buy").click()
    expect(carol.get_by_text("Done.")).to_be_visible()
    expect(carol.get_by_test_id("steps")).to_contain_text("Master Chef")
    expect(carol.get_by_test_id("steps").locator('li[data-step="kick_off"]')).to_have_count(1)
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY

    # The toss (a 3: the away team wins it): the Reavers receive; the Halflings set up first.
    alice.goto(f"{live_server.url}/matches/{match.pk}/")
    alice.get_by_test_id("choice-receive").click()
    carol.goto(f"{live_server.url}/matches/{match.pk}/")
    _set_up(carol, HOME_SQUARES)
    _set_up(alice, AWAY_SQUARES)
    carol.reload()
    expect(carol.locator('#plan[data-mode="kick"]')).to_be_visible(timeout=LATER)
    carol.locator('#pitch .cell[data-square="S8"]').click()
    carol.get_by_test_id("post-declaration").click()

    # Two turns each: every side ends its part of the team turn.
    for page in (alice, carol, alice, carol):
        page.reload()
        for side in ("rival", "captain"):
            expect(page.get_by_test_id(f"end_turn-{side}")).to_be_visible(timeout=LATER)
            page.get_by_test_id(f"end_turn-{side}").click()
            expect(page.get_by_test_id(f"end_turn-{side}")).to_have_count(0)

    # The GM ends the match as it stands: the post-match sequence opens.
    gm.goto(f"{live_server.url}/matches/{match.pk}/")
    gm.get_by_test_id("match-control").locator("summary").click()
    gm.get_by_test_id("end-match").click()
    expect(gm.get_by_test_id("postmatch-link")).to_be_visible(timeout=LATER)
    assert Match.objects.get(pk=match.pk).state["turn"] == {"home": 2, "away": 3}

    # Each captain gives the opposing team's awards on the post-match page.
    for page, team in ((alice, "home"), (carol, "away")):
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.get_by_test_id("postmatch-link").click()
        form = page.get_by_test_id(f"mvp-{team}")
        options = form.locator('select[name="mje"] option')
        form.locator('select[name="mje"]').select_option(index=0)
        form.locator('select[name="pje"]').select_option(index=1)
        assert options.count() >= 11
        form.get_by_role("button").click()
        expect(page.get_by_text("Done.")).to_be_visible()
    match.refresh_from_db()
    assert match.status in (Match.Status.POST_MATCH, Match.Status.FINISHED)

    # The league page: a 0-0 draw in the standings, the four awards among the SPP leaders.
    _to_the_league(gm, "Liga de la Prueba")
    expect(gm.get_by_test_id("fixtures").get_by_test_id("result")).to_have_text("0 \u2013 0")
    for row in ("standing-1", "standing-2"):
        cells = gm.get_by_test_id(row).locator("td")
        expect(cells.nth(2)).to_have_text("1")  # played
        expect(cells.nth(4)).to_have_text("1")  # drawn
        expect(cells.nth(9)).to_have_text("1")  # a point for the draw
    spp = gm.get_by_test_id("leaders").locator("div").filter(has_text=re.compile("^SPP"))
    expect(spp.locator("li strong")).to_have_text(["5", "5", "4", "4"])
