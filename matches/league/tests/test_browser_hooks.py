"""In the browser: a GM goes from the home page to the league's webhooks, adds a signed JSON
hook pointed at a receiver the test starts, schedules a fixture, and reads in the hook's
delivery log that the receiver took the event; in English and in Spanish."""

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from bbweb import outbox
from matches.league.tests.receiver import Receiver
from matches.league.tests.test_hooks import verified
from matches.models import LeagueHook
from teams.models import League, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {
        "leagues": "Leagues",
        "on": "Switched on.",
        "empty": "Nothing sent yet.",
        "event": "a fixture is scheduled",
        "delivered": "delivered",
    },
    "es": {
        "leagues": "Ligas",
        "on": "Activado.",
        "empty": "Todavía no se ha enviado nada.",
        "event": "se programa un emparejamiento",
        "delivered": "entregado",
    },
}


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    started = Receiver().start()
    yield started
    started.stop()


def _logged_in(page: Page, server: LiveServer, user: User) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": server.url}]
    )


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_gm_adds_a_hook_and_reads_its_delivery_log(
    live_server: LiveServer,
    page: Page,
    gm: User,
    league: League,
    home: Team,
    away: Team,
    receiver: Receiver,
    language: str,
    settings: Any,
) -> None:
    settings.HOOKS_ALLOW_PRIVATE = True
    words = WORDS[language]
    _logged_in(page, live_server, gm)
    page.goto(live_server.url + "/")
    if language != "en":
        page.get_by_test_id("lang-menu").locator("summary").click()
        page.get_by_test_id(f"lang-{language}").click()
        expect(page.locator("html")).to_have_attribute("lang", language)

    page.get_by_role("link", name=words["leagues"], exact=True).click()
    page.get_by_role("link", name=league.name).click()
    page.get_by_test_id("hooks").click()
    page.locator("select[name=kind]").select_option("json")
    page.locator("input[name=url]").fill(receiver.url)
    page.get_by_test_id("add-hook").click()
    card = page.get_by_test_id("hook")
    expect(card.get_by_test_id("hook-state")).to_contain_text(words["on"])
    expect(card.get_by_test_id("hook-log")).to_contain_text(words["empty"])
    hook = LeagueHook.objects.get()
    expect(card.get_by_test_id("hook-secret")).to_have_text(hook.secret)
    assert hook.events == list(LeagueHook.Event.values)  # every event, unless unticked

    page.locator(f"main a[href='/leagues/{league.pk}/']").first.click()
    page.get_by_test_id("schedule").click()
    page.locator("input[name=round]").fill("1")
    page.locator("select[name=home]").select_option(str(home.pk))
    page.locator("select[name=away]").select_option(str(away.pk))
    page.get_by_test_id("add-fixture").click()
    outbox.relay()  # what beat runs every few seconds

    page.locator(f"main a[href='/leagues/{league.pk}/']").first.click()
    page.get_by_test_id("hooks").click()
    log = page.get_by_test_id("hook-log")
    expect(log).to_contain_text(words["event"])
    expect(log).to_contain_text(words["delivered"])
    expect(log).to_contain_text("204")
    (request,) = receiver.received
    assert request.json()["fixture"]["home"] == home.name
    assert verified(hook.secret, request.headers, request.body, time.time())
