"""The daily digest: the kinds a person chose wait, and go in one mail at the hour they chose in
their own time zone, once; the page sets it; its one-click link turns off what it held."""

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import CoachPreferences, Match, Notice
from matches.notices.digest import send_digests

pytestmark = pytest.mark.django_db
TOKYO = ZoneInfo("Asia/Tokyo")


def _end_home_turn(match: Match, alice: User, bob: User, on_commit: Callable[..., Any]) -> None:
    services.declare(match.pk, alice, {"action": "end_turn"}, side="captain")
    with on_commit():
        services.declare(match.pk, bob, {"action": "end_turn"}, side="rival")


def test_a_kind_in_the_digest_waits_for_the_chosen_hour_in_the_readers_zone(
    in_play: Match,
    alice: User,
    bob: User,
    carol: User,
    on_commit: Callable[..., Any],
) -> None:
    services.save_preferences(carol, digest_kinds=["turn"], digest_hour=9, time_zone="Asia/Tokyo")
    _end_home_turn(in_play, alice, bob, on_commit)
    assert [m.to for m in mail.outbox] == [["dave@example.org"]]  # carol's waits
    held = Notice.objects.get(user=carol)
    assert held.digest and not held.sent

    mail.outbox.clear()
    assert send_digests(datetime(2026, 12, 4, 8, 30, tzinfo=TOKYO)) == 0  # not her hour yet
    assert send_digests(datetime(2026, 12, 4, 9, 5, tzinfo=TOKYO)) == 1
    (digest,) = mail.outbox
    assert digest.to == ["carol@example.org"]
    assert digest.subject == "bbweb: your daily digest, 1 notice"
    assert "your team's turn in" in digest.body
    assert reverse("matches:detail", args=[in_play.pk]) in digest.body
    assert digest.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert send_digests(datetime(2026, 12, 4, 9, 40, tzinfo=TOKYO)) == 0  # once
    assert Notice.objects.get(user=carol).sent

    # Its one-click link turns off the kinds it held.
    link = digest.extra_headers["List-Unsubscribe"][1:-1]
    Client().post("/" + link.split("://", 1)[1].split("/", 1)[1])
    assert CoachPreferences.objects.get(user=carol).email_turn is False


def test_the_digest_is_chosen_on_the_preferences_page(carol: User) -> None:
    client = Client()
    client.force_login(carol)
    page = client.get(reverse("deadlines:preferences")).content.decode()
    assert 'name="digest_kinds"' in page and 'name="digest_hour"' in page
    form = {
        "language": "en",
        "time_zone": "Europe/Helsinki",
        "email_turn": "on",
        "email_warning": "on",
        "digest_kinds": ["warning", "mention"],
        "digest_hour": "19",
    }
    assert client.post(reverse("deadlines:preferences"), form).status_code == 302
    saved = CoachPreferences.objects.get(user=carol)
    assert saved.digest_kinds == ["warning", "mention"] and saved.digest_hour == 19
    bad = {**form, "digest_hour": "24", "digest_kinds": ["warning"]}
    assert client.post(reverse("deadlines:preferences"), bad).status_code == 200
    assert CoachPreferences.objects.get(user=carol).digest_kinds == ["warning", "mention"]
