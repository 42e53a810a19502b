"""In the browser: a coach whose browser is in New York reads their deadline in New York's time
from the first page on; from the home page they open "My matches", then the notification
preferences (the browser's zone already chosen there), choose Tokyo and a daily digest at 7 for
their turns, and the deadline reads in Tokyo's time with the zone named, and their turn's mail
waits for 7 in Tokyo; in English and in Finnish."""

from collections.abc import Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import formats, timezone, translation
from playwright.sync_api import Browser, BrowserContext, expect
from pytest_django.live_server_helper import LiveServer

from matches.models import CoachPreferences, Match
from matches.notices import emails as notifications
from matches.notices.digest import send_digests

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"mine": "My matches", "preferences": "Notification preferences", "save": "Save"},
    "fi": {"mine": "Omat ottelut", "preferences": "Ilmoitusasetukset", "save": "Tallenna"},
}


@pytest.fixture
def new_york(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(timezone_id="America/New_York")
    yield context
    context.close()


def _shown(match: Match, zone: str, language: str) -> str:
    with translation.override(language):
        moment = timezone.localtime(match.turn_deadline_at, ZoneInfo(zone))
        return formats.date_format(moment, "DATETIME_FORMAT")


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_coach_chooses_a_time_zone_and_the_pages_follow(
    live_server: LiveServer,
    new_york: BrowserContext,
    in_play: Match,
    alice: User,
    language: str,
) -> None:
    words = WORDS[language]
    client = Client()
    client.force_login(alice)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    cookies = [
        {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url},
        {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url},
    ]
    new_york.add_cookies(cookies)  # type: ignore[arg-type]
    page = new_york.new_page()
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", language)

    page.get_by_test_id("my-matches").click()
    awaiting = page.get_by_test_id("awaiting")
    new_york_time = _shown(in_play, "America/New_York", language)
    assert new_york_time.endswith(" EST")
    expect(awaiting).to_contain_text(new_york_time)

    page.get_by_role("link", name=words["preferences"]).click()
    zone = page.locator("select[name=time_zone]")
    expect(zone).to_have_value("America/New_York")  # guessed from the browser
    zone.select_option("Asia/Tokyo")
    page.locator("input[name=digest_kinds][value=turn]").check()
    page.locator("select[name=digest_hour]").select_option("7")
    page.get_by_role("button", name=words["save"]).click()
    page.get_by_test_id("my-matches").click()
    tokyo_time = _shown(in_play, "Asia/Tokyo", language)
    assert tokyo_time.endswith(" JST")
    expect(page.get_by_test_id("awaiting")).to_contain_text(tokyo_time)
    saved = CoachPreferences.objects.get(user=alice)
    assert (saved.time_zone, saved.digest_kinds, saved.digest_hour) == ("Asia/Tokyo", ["turn"], 7)

    # The mails follow: her turn's notice waits for the digest, at 7 in Tokyo.
    mail.outbox.clear()
    notifications.send("turn", in_play.pk, ["home:captain"], f"turn:{in_play.pk}:test", {})
    assert mail.outbox == []
    tokyo = ZoneInfo("Asia/Tokyo")
    assert send_digests(datetime(2026, 12, 4, 6, 59, tzinfo=tokyo)) == 0
    assert send_digests(datetime(2026, 12, 4, 7, 1, tzinfo=tokyo)) == 1
    assert mail.outbox[0].to == ["alice@example.org"]
