"""In the browser: a coach opens the match from the home page, another coach takes their turn,
and on the coach's next visit the page says how many posts are new since then, links to the
first of them and marks it; the coach who played opens the replay at their own last action.
In English and in Spanish, and once on a phone."""

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from matches.models import Match
from matches.tests.replays import recorded_position, walk_and_score

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW = {"en": "2 new posts since your last visit", "es": "2 mensajes nuevos desde tu última visita"}
DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)


def _signed_in(
    browser: Browser, live_server: LiveServer, user: User, language: str, viewport: ViewportSize
) -> BrowserContext:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            },
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
        ]
    )
    return context


def _open_match(page: Page, live_server: LiveServer, match: Match) -> None:
    page.goto(live_server.url + "/")
    page.get_by_test_id("nav-matches").click()
    page.locator(f'a[href="{reverse("matches:detail", args=[match.pk])}"]').first.click()
    expect(page.locator("#thread")).to_be_visible()


@pytest.mark.parametrize(
    ("language", "viewport"), [("en", DESKTOP), ("es", DESKTOP), ("en", PHONE)]
)
def test_the_match_page_marks_what_is_new_after_another_coachs_turn(
    live_server: LiveServer,
    browser: Browser,
    match: Match,
    cast: dict[str, User],
    language: str,
    viewport: ViewportSize,
) -> None:
    recorded_position(match)
    page = _signed_in(browser, live_server, cast["carol"], language, viewport).new_page()
    _open_match(page, live_server, match)
    expect(page.get_by_test_id("catch-up")).to_have_count(0)
    seen = match.posts.order_by("-number").values_list("number", flat=True).first() or 0
    page.close()

    walk_and_score(match, cast)  # the home team's coaches play

    page = _signed_in(browser, live_server, cast["carol"], language, viewport).new_page()
    _open_match(page, live_server, match)
    link = page.get_by_test_id("catch-up-link")
    expect(link).to_have_text(NEW[language])
    link.click()
    first = match.posts.filter(number__gt=seen).order_by("number").first()
    assert first is not None
    assert page.url.endswith(f"#post-{first.number}")
    marked = page.get_by_test_id(f"post-{first.number}")
    expect(marked).to_have_class(f"post kind-{first.kind} unseen")
    expect(marked.get_by_test_id("unseen-mark")).to_be_visible()
    expect(page.locator("article.unseen")).to_have_count(1)

    # bob, who walked h7, opens the replay at his last action
    page = _signed_in(browser, live_server, cast["bob"], language, viewport).new_page()
    _open_match(page, live_server, match)
    page.get_by_test_id("replay-from-mine").click()
    expect(page.get_by_test_id("token-h7")).to_have_attribute("data-square", "K8")
    expect(page.get_by_test_id("replay-position")).to_contain_text("2")
