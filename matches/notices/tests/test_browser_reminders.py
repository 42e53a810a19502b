"""In the browser: a coach opens "My matches" from the home page, then the notification
preferences, types the reminders they want before their deadlines (24, 4, 1), and the sweep
mails them at those times in their language, in place of the fixed warnings; a mistyped value
is refused with a clear error. In English and in Finnish, and once on a phone."""

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from playwright.sync_api import Browser, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from matches import services
from matches.deadlines.tests.conftest import Clock
from matches.models import CoachPreferences, Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {
        "preferences": "Notification preferences",
        "save": "Save",
        "bad": "Write whole hours",
        "subject": "is 4 hours away",
    },
    "fi": {
        "preferences": "Ilmoitusasetukset",
        "save": "Tallenna",
        "bad": "Kirjoita kokonaisia tunteja",
        "subject": "4 tunnin päässä",
    },
}
DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)


@pytest.mark.parametrize(
    ("language", "viewport"), [("en", DESKTOP), ("fi", DESKTOP), ("en", PHONE)]
)
def test_a_coach_chooses_reminders_and_the_sweep_mails_them(
    live_server: LiveServer,
    browser: Browser,
    in_play: Match,
    alice: User,
    clock: Clock,
    on_commit: Callable[..., Any],
    language: str,
    viewport: ViewportSize,
) -> None:
    words = WORDS[language]
    client = Client()
    client.force_login(alice)
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
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.get_by_test_id("my-matches").click()
    page.get_by_role("link", name=words["preferences"]).click()
    reminders = page.locator("input[name=reminders]")
    reminders.fill("24, soon")
    page.get_by_role("button", name=words["save"]).click()
    expect(page.get_by_test_id("preferences")).to_contain_text(words["bad"])
    assert not CoachPreferences.objects.filter(user=alice).exclude(reminder_hours=[]).exists()

    page.locator("input[name=reminders]").fill("1, 24, 4")
    page.locator("select[name=language]").select_option(language)
    page.get_by_role("button", name=words["save"]).click()
    expect(page.locator("input[name=reminders]")).to_have_value("24, 4, 1")  # saved, shown again
    assert CoachPreferences.objects.get(user=alice).reminder_hours == [24, 4, 1]

    clock.advance(hours=44, minutes=30)  # 3 h 30 before her turn's deadline
    with on_commit():
        services.sweep()
    [reminder] = [m for m in mail.outbox if m.to == ["alice@example.org"]]
    assert words["subject"] in reminder.subject
