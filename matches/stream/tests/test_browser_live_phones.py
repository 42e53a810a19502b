"""In the browser, under uvicorn, at phone size: a player throws while his phone is offline and
the other player throws meanwhile; when the network is back the kept throw is sent once, and the
reveal reaches both phones, pushed."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, expect
from pytest_django.live_server_helper import LiveServer

from matches.live.models import LiveMatch
from matches.live.tests.test_browser_live import PHONE, referee_page, start, to_bash
from teams.models import Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SOON = 8_000  # ms: the kept throw goes as the network returns; the reveal is pushed


def test_a_throw_made_offline_arrives_once_and_the_reveal_reaches_both_phones(
    asgi_server: LiveServer, browser: Browser, teams: tuple[Team, Team], gm: User
) -> None:
    referee = referee_page(browser, asgi_server, gm, teams[0].league_id)
    start(referee, teams)
    to_bash(referee)
    referee.get_by_test_id("purpose-bash").check()
    referee.get_by_test_id("attacker-a1").check()
    referee.get_by_test_id("defender-h1").check()
    referee.get_by_test_id("phones").check()
    referee.get_by_test_id("start-challenge").click()
    expect(referee.get_by_test_id("challenge")).to_be_visible()

    match = LiveMatch.objects.get()
    phones = {}
    for pid in ("a1", "h1"):
        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(
            f"{asgi_server.url}/live/{match.pk}/phone/{match.state['players'][pid]['token']}/"
        )
        expect(phone.get_by_test_id("my-challenge")).to_be_visible()
        expect(phone.locator("body")).to_have_attribute("data-streaming", "open")
        phones[pid] = phone

    phones["a1"].context.set_offline(True)
    phones["a1"].get_by_test_id("my-throw-paper").click()
    expect(phones["a1"].get_by_test_id("offline")).to_be_visible()
    phones["h1"].get_by_test_id("my-throw-rock").click()
    expect(phones["h1"].get_by_test_id("waiting-others")).to_be_visible()
    phones["a1"].context.set_offline(False)

    for phone in phones.values():
        expect(phone.get_by_test_id("last")).to_contain_text(
            "#1 Gorbag: Paper · #1 Karl Fleischer: Rock", timeout=SOON
        )
    expect(phones["a1"].get_by_test_id("offline")).to_be_hidden()
    thrown = match.events.filter(type="throw_committed").values_list("data", flat=True)
    assert sorted(d["player"] for d in thrown) == ["a1", "h1"]
