"""In Chromium, from the home page: the GM runs two short seasons by clicking (two divisions
each, the round robin generated, every fixture opened, a four-team knockout seeded, the season
closed and the next opened with every team carried over); a player who scored in the first
season's final and was hurt in it misses his team's next match, in the second season; then a
reader, in Spanish on a phone (390 px), goes from the home page to the first season, its
standings, its knockout, the champion, the champion's roster and that player's career.

The matches themselves are played through the services (matches/league/tests/scoring.py, the
season tests' driving helpers) to keep the test short: the GM's work and the reader's way
through the pages are what this test is about."""

import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.league.tests.scoring import run_in_a_touchdown
from matches.models import Fixture, Match, PlayerMatchRecord, Season
from matches.sequence.tests.driving import (
    ConstantDice,
    finish_now,
    name_the_awards,
    through_the_pre_match,
)
from matches.tests.dice import use_dice
from teams import services as team_services
from teams.models import League, Player, Team
from teams.tests.conftest import starting_plan
from tools.demo_matches import concede, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DIVISIONS = ("North", "North", "South", "South")  # the teams in the season page's order


@pytest.fixture(autouse=True)
def known_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every die shows 3 (a D3 shows 2), in the test's thread and the live server's alike:
    every match plays the same way every run."""
    use_dice(monkeypatch, lambda match: ConstantDice(3))


@pytest.fixture
def four(cast: dict[str, User], teams: tuple[Team, Team], league: League) -> list[Team]:
    """The league's two teams and two more, each coached by people of its own (a coach of two
    teams that meet in the knockout would play both sides of the match)."""
    more = []
    for captain, rival, race, name in (
        ("erin", "frank", "dwarf", "Erin's Dwarfs"),
        ("gina", "hal", "human", "Gina's Humans"),
    ):
        coaches = {who: cast.get(who) or User.objects.create_user(who) for who in (captain, rival)}
        team = team_services.create_team(
            coaches[captain], starting_plan(race), name=name, league=league, rival_username=rival
        )
        team_services.accept_invitation(coaches[rival], team.invitations.get())
        more.append(team)
    return [*teams, *more]


def logged_in(page: Page, server: LiveServer, user: User) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": server.url}]
    )


def to_the_league(page: Page, server: LiveServer, leagues: str, name: str) -> None:
    page.goto(server.url)
    page.get_by_role("navigation").get_by_role("link", name=leagues).click()
    page.get_by_role("link", name=name).click()


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    client = page.evaluate("document.documentElement.clientWidth")
    assert width <= client, (page.url, width, client)


def season_step(page: Page, server: LiveServer, league: League, button: str, said: str) -> None:
    """From the league's page to its season page, one button there, and what it answers."""
    to_the_league(page, server, "Leagues", league.name)
    page.get_by_test_id("manage-season").click()
    page.get_by_test_id(button).click()
    expect(page.get_by_text(said)).to_be_visible()


def open_every_fixture(page: Page, server: LiveServer, league: League) -> list[Match]:
    """The schedule's "Open the match" buttons, one after the other; the matches opened."""
    before = set(Match.objects.values_list("pk", flat=True))
    to_the_league(page, server, "Leagues", league.name)
    page.get_by_test_id("schedule").click()
    fixtures = page.get_by_test_id("fixtures")
    opened = fixtures.get_by_role("link", name="Match", exact=True)
    buttons = fixtures.get_by_role("button", name="Open the match")
    already, waiting = opened.count(), buttons.count()
    for number in range(1, waiting + 1):
        buttons.first.click()
        expect(opened).to_have_count(already + number)
    assert waiting
    return list(Match.objects.exclude(pk__in=before).order_by("pk"))


def play_round(matches: list[Match], *, seed: int) -> None:
    """The round's matches played through the services, each from its pre-match: a few turns,
    a concession, the awards, then the improvements drawn when their deadline passes. The
    deadlines are passed once every match is in its post-match: passing them earlier would
    take the defaults of the pre-match steps of a match not yet played."""
    for match in matches:
        through_the_pre_match(match)
    for number, match in enumerate(matches):
        play(match, random.Random(seed + number), turns=2)
        concede(match)
    settled(matches)


def settled(matches: list[Match]) -> None:
    for match in matches:
        name_the_awards(Match.objects.select_related("home_team", "away_team").get(pk=match.pk))
    services.expire_sequence_deadlines(timezone.now() + timedelta(days=30))
    statuses = Match.objects.filter(pk__in=[m.pk for m in matches]).values_list("status", flat=True)
    assert set(statuses) == {Match.Status.FINISHED}


def score_and_get_hurt(match: Match) -> Player:
    """The final: a touchdown played through the services, then the final whistle with its
    scorer carried off seriously hurt (the post-match tests' shortcut, driving.finish_now,
    since no die of 3 breaks armour); his team wins the final."""
    through_the_pre_match(match)
    scorer = run_in_a_touchdown(match)
    winner = "home" if scorer.startswith("h") else "away"
    finish_now(match, winner=winner, casualties={scorer: "miss_next_game"})
    settled([match])
    match.refresh_from_db()
    return Player.objects.get(pk=match.lineup[scorer]["pk"])


def divide_and_schedule(page: Page, server: LiveServer, league: League) -> list[Match]:
    to_the_league(page, server, "Leagues", league.name)
    page.get_by_test_id("manage-season").click()
    for number, name in enumerate(DIVISIONS, start=1):
        page.get_by_test_id(f"division-{number}").fill(name)
    page.get_by_test_id("set-divisions").click()
    expect(page.get_by_text("The divisions are set.")).to_be_visible()
    page.get_by_test_id("schedule").click()
    page.get_by_test_id("generate").click()
    return open_every_fixture(page, server, league)


def knockout(page: Page, server: LiveServer, league: League) -> list[Match]:
    season_step(page, server, league, "seed-playoff", "The knockout is seeded.")
    return open_every_fixture(page, server, league)


def test_a_league_plays_two_seasons_and_a_reader_finds_the_champion_and_a_career(
    live_server: LiveServer,
    browser: Browser,
    league: League,
    four: list[Team],
    gm: User,
) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    logged_in(page, live_server, gm)

    play_round(divide_and_schedule(page, live_server, league), seed=0)
    play_round(knockout(page, live_server, league), seed=10)
    (final,) = open_every_fixture(page, live_server, league)
    hurt = score_and_get_hurt(final)
    assert hurt.miss_next_game
    champion = hurt.team
    season_step(page, live_server, league, "close-season", "The season is closed.")
    expect(page.get_by_test_id("season-status")).to_contain_text(f"Champion: {champion.name}")
    page.get_by_test_id("open-season").click()
    expect(page.get_by_text("The next season is open.")).to_be_visible()

    second = divide_and_schedule(page, live_server, league)
    (next_match,) = [m for m in second if champion.pk in (m.home_team_id, m.away_team_id)]
    assert hurt.pk not in {facts.get("pk") for facts in next_match.lineup.values()}
    play_round(second, seed=20)
    hurt.refresh_from_db()
    assert not hurt.miss_next_game  # he missed that match: the injury is served
    play_round(knockout(page, live_server, league), seed=30)
    play_round(open_every_fixture(page, live_server, league), seed=40)
    season_step(page, live_server, league, "close-season", "The season is closed.")
    seasons = Season.objects.filter(league=league).order_by("number")
    assert [s.champion is not None and s.closed_at is not None for s in seasons] == [True, True]
    assert Fixture.objects.filter(season=seasons[1], knockout=True).count() == 3
    page.context.close()

    records = PlayerMatchRecord.objects.filter(player=hurt)
    played = records.count()
    team_matches = Match.objects.filter(Q(home_team=champion) | Q(away_team=champion))
    assert played == team_matches.count() - 1  # every match of his team but the one he missed
    assert sum(r.touchdowns for r in records) == 1

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.add_cookies([{"name": "django_language", "value": "es", "url": live_server.url}])
    page = phone.new_page()
    to_the_league(page, live_server, "Ligas", league.name)
    page.get_by_test_id("seasons").get_by_role("link", name="1", exact=True).click()
    expect(page.get_by_test_id("season-status")).to_contain_text("Temporada 1")
    standings = page.get_by_test_id("standings")
    expect(standings.get_by_test_id("division")).to_have_text(["North", "South"])
    no_sideways_scroll(page)
    final_round = page.get_by_test_id(f"bracket-{final.fixture.round}")
    expect(final_round).to_contain_text(champion.name)
    expect(page.get_by_role("heading", name="Eliminatoria")).to_have_count(2)
    page.get_by_test_id("champion").get_by_role("link").click()
    expect(page.get_by_role("heading", name=champion.name)).to_be_visible()
    no_sideways_scroll(page)
    page.get_by_role("link", name=hurt.name, exact=True).first.click()
    expect(page.get_by_role("heading", name=f"#{hurt.number} {hurt.name}")).to_be_visible()
    expect(page.get_by_test_id("matches")).to_have_text(str(played))
    expect(page.get_by_test_id("touchdowns")).to_have_text("1")
    expect(page.get_by_test_id("suffered")).to_have_text("1")
    expect(page.get_by_test_id("injuries").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("injuries")).to_contain_text(final.home_team.name)
    no_sideways_scroll(page)
    phone.close()
