"""Every kind of page at WCAG 2.1 AA: axe-core (see ``matches/tests/axe.py`` for how it runs
under the page's real Content-Security-Policy) finds no violation of any impact on the match in
play, the finished match, the replay, the pre- and post-match, a league, a team, the GM's queue
and a dispute, the live referee's page and a player's phone, the profile, log-in and sign-up,
in the five languages at desktop size, and at 390 px in English and in Spanish. Each page is
seen by who uses it: a coach, the GM, or nobody logged in."""

import random

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.gm.tests.conftest import first_roll, play
from matches.live import services as live_services
from matches.models import Match
from matches.sequence.tests.driving import finish_now
from matches.tests.axe import context_for, violations, visit_with_real_csp
from teams.models import League, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def pages(
    match: Match, teams: tuple[Team, Team], league: League, cast: dict[str, User]
) -> list[tuple[str, str]]:
    """(who, path) for each page of the sweep, the matches made ready for each."""
    home, away = teams
    gm, alice = cast["gm"], cast["alice"]
    coaches = {
        "home:captain": alice,
        "home:rival": cast["bob"],
        "away:captain": cast["carol"],
        "away:rival": cast["dave"],
    }
    play(match, coaches, random.Random(2), 30)
    dispute = services.raise_dispute(
        match.pk, alice, reason="The dodge ignored the tackle zone.", event_number=first_roll(match)
    )
    prematch = services.create_match(home=home, away=away, gm=gm, league=home.league, prematch=True)
    finished = finish_now(services.create_match(home=home, away=away, gm=gm, league=home.league))
    live = live_services.start_live_match(gm, league, home, away)  # referee's page, phones
    token = live.state["players"]["h1"]["token"]
    return [
        ("alice", f"/matches/{match.pk}/"),
        ("anonymous", f"/matches/{match.pk}/replay/"),
        ("alice", f"/matches/{finished.pk}/"),
        ("alice", f"/matches/{finished.pk}/postmatch/"),
        ("alice", f"/matches/{prematch.pk}/prematch/"),
        ("anonymous", f"/leagues/{league.pk}/"),
        ("anonymous", f"/teams/{home.pk}/"),
        ("gm", "/gm/disputes/"),
        ("gm", f"/matches/{match.pk}/disputes/#dispute-{dispute.pk}"),
        ("gm", f"/live/{live.pk}/"),
        ("anonymous", f"/live/{live.pk}/phone/{token}/"),
        ("anonymous", f"/players/{home.players.order_by('number')[0].pk}/"),
        ("anonymous", f"/teams/{home.pk}/history/"),
        ("anonymous", f"/leagues/{league.pk}/records/"),
        ("anonymous", f"/leagues/{league.pk}/all-time/"),
        ("gm", f"/leagues/{league.pk}/season/"),
        ("gm", f"/leagues/{league.pk}/hooks/"),
        ("alice", "/accounts/profile/"),
        ("anonymous", "/accounts/login/"),
        ("anonymous", "/accounts/signup/"),
    ]


SWEEPS = [(lang, False) for lang in ("en", "es", "fr", "ja", "fi")] + [("en", True), ("es", True)]


@pytest.mark.parametrize(
    ("language", "phone"),
    SWEEPS,
    ids=[f"{lang}-{'phone' if p else 'desktop'}" for lang, p in SWEEPS],
)
def test_no_page_has_an_axe_violation(
    live_server: LiveServer,
    browser: Browser,
    cast: dict[str, User],
    pages: list[tuple[str, str]],
    phone: bool,
    language: str,
) -> None:
    found: list[str] = []
    opened = {}
    for who, path in pages:
        if who not in opened:
            user = None if who == "anonymous" else cast[who]
            context = context_for(browser, live_server.url, user, phone=phone, language=language)
            opened[who] = context.new_page()
        page = opened[who]
        visit_with_real_csp(page, f"{live_server.url}{path}")
        assert page.evaluate("document.documentElement.lang") == language
        found += violations(page)
    print(f"axe: {len(pages)} pages, {len(found)} violations")
    assert found == [], "\n".join(found)
