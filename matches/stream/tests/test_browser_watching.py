"""In the browser, under uvicorn: the match page says who is watching it now, and the list
follows without a reload as people arrive and leave (alice in English, erin in Spanish on a
phone, a guest)."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from matches.models import Match
from matches.play.tests.test_browser_match import PASSWORD
from matches.stream import presence

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PUSHED = 2_000  # ms: pushed by the stream (nothing polls the list)


@pytest.fixture(autouse=True)
def nobody_watching() -> None:
    presence.in_process.clear()


def _to_the_match(page: Page, server: LiveServer, match: Match) -> None:
    """From the home page, by the list of public matches, to the match."""
    page.goto(f"{server.url}/")
    page.locator('a[href="/matches/"]').first.click()
    page.locator(f'a[href="/matches/{match.pk}/"]').first.click()
    expect(page.get_by_test_id("markers")).to_be_visible()


def _watcher(browser: Browser, server: LiveServer, user: User | None, **context: object) -> Page:
    page = browser.new_context(**context).new_page()  # type: ignore[arg-type]
    if user is not None:
        user.set_password(PASSWORD)
        user.save()
        page.goto(f"{server.url}/accounts/login/")
        page.locator("input[name=login]").fill(user.username)
        page.locator("input[name=password]").fill(PASSWORD)
        page.locator("input[name=password]").press("Enter")
        page.wait_for_url(f"{server.url}/**")
    return page


def test_who_is_watching_follows_arrivals_and_departures_in_two_languages(
    asgi_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    alice = _watcher(browser, asgi_server, cast["alice"], viewport={"width": 1280, "height": 900})
    _to_the_match(alice, asgi_server, match)
    watching = alice.get_by_test_id("watching")
    expect(watching).to_have_text("Watching now: alice", timeout=PUSHED)

    erin = _watcher(
        browser,
        asgi_server,
        cast["erin"],
        locale="es-ES",
        viewport={"width": 390, "height": 844},
    )
    _to_the_match(erin, asgi_server, match)
    expect(watching).to_have_text("Watching now: alice, erin", timeout=PUSHED)
    expect(erin.get_by_test_id("watching")).to_have_text("Viendo ahora: alice, erin")
    assert erin.get_by_test_id("watching").is_visible()

    guest = _watcher(browser, asgi_server, None)
    _to_the_match(guest, asgi_server, match)
    expect(watching).to_have_text("Watching now: alice, erin (and 1 guest)", timeout=PUSHED)
    expect(erin.get_by_test_id("watching")).to_have_text(
        "Viendo ahora: alice, erin (y 1 invitado)", timeout=PUSHED
    )

    erin.goto(f"{asgi_server.url}/")  # erin leaves the match page
    expect(watching).to_have_text("Watching now: alice (and 1 guest)", timeout=PUSHED)
    guest.context.close()  # the guest closes the browser
    expect(watching).to_have_text("Watching now: alice", timeout=PUSHED)
    alice.reload()  # a reload is the same person still: counted once
    expect(alice.get_by_test_id("watching")).to_have_text("Watching now: alice")
