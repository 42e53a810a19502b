"""In the browser, under uvicorn: a dispute opened on a match reaches its GM at once, on the
dispute queue (by the GM's person stream) and in the GM panel of the match page (by the
match's stream), without a reload; nothing polls fast enough to explain it."""

import time

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.models import Match
from matches.play.tests.test_browser_match import coach
from matches.tests.positions import mid_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
AT_ONCE = 1_000  # ms: pushed (the queue polls every 20 s, the match page every 4 s)


def test_a_dispute_opened_reaches_the_gms_queue_and_panel_without_a_reload(
    asgi_server: LiveServer, browser: Browser, match: Match, cast: dict[str, User]
) -> None:
    mid_turn(match)
    match.refresh_from_db()
    on_match = coach(browser, asgi_server, cast["gm"], match)
    expect(on_match.locator("body")).to_have_attribute("data-streaming", "open")
    panel = on_match.get_by_test_id("gm-disputes")
    expect(panel).to_have_text("0 open disputes on this match")
    queue = on_match.context.new_page()
    queue.goto(f"{asgi_server.url}/matches/{match.pk}/")
    queue.get_by_test_id("gm-queue-link").click()
    expect(queue.get_by_test_id("dispute-queue")).to_contain_text("No open disputes")
    expect(queue.locator("body")).to_have_attribute("data-streaming", "open")

    started = time.monotonic()
    dispute = services.raise_dispute(
        match.pk, cast["alice"], reason="That was out of turn.", post_number=1
    )
    expect(queue.get_by_test_id(f"queued-{dispute.pk}")).to_contain_text(
        "That was out of turn.", timeout=AT_ONCE
    )
    print(f"dispute queue updated after {1000 * (time.monotonic() - started):.0f} ms")
    expect(panel).to_have_text("1 open dispute on this match", timeout=AT_ONCE)
    print(f"GM panel updated after {1000 * (time.monotonic() - started):.0f} ms")
