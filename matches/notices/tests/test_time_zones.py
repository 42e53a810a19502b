"""Each reader's time zone: chosen on the notification preferences, guessed from the browser
(its cookie, and saved at the first login), else the server's; the dates of the pages and of
the e-mails are in it, with the zone named."""

from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.contrib.sessions.backends.db import SessionStore
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import formats, timezone

from matches import services
from matches.models import CoachPreferences, Match
from matches.notices.zones import BROWSER_COOKIE

pytestmark = pytest.mark.django_db


def _moment(when: Any, zone: str) -> str:
    return formats.date_format(timezone.localtime(when, ZoneInfo(zone)), "DATETIME_FORMAT")


def _end_home_turn(match: Match, alice: User, bob: User, on_commit: Callable[..., Any]) -> None:
    services.declare(match.pk, alice, {"action": "end_turn"}, side="captain")
    with on_commit():
        services.declare(match.pk, bob, {"action": "end_turn"}, side="rival")
    match.refresh_from_db()


def test_each_coach_reads_the_deadline_of_a_mail_in_its_own_zone(
    in_play: Match,
    alice: User,
    bob: User,
    carol: User,
    on_commit: Callable[..., Any],
) -> None:
    services.save_preferences(carol, time_zone="Asia/Tokyo")
    _end_home_turn(in_play, alice, bob, on_commit)
    bodies = {message.to[0]: message.body for message in mail.outbox}
    deadline = in_play.turn_deadline_at
    tokyo, madrid = _moment(deadline, "Asia/Tokyo"), _moment(deadline, "Europe/Madrid")
    assert tokyo.endswith(" JST") and madrid.endswith((" CET", " CEST"))
    assert tokyo in bodies["carol@example.org"]
    assert madrid in bodies["dave@example.org"]  # no zone chosen: the server's


def test_the_zone_chosen_on_the_preferences_dates_every_page(
    in_play: Match, alice: User, bob: User, carol: User, on_commit: Callable[..., Any]
) -> None:
    _end_home_turn(in_play, alice, bob, on_commit)
    client = Client()
    client.force_login(carol)
    mine = reverse("deadlines:mine")
    deadline = in_play.turn_deadline_at
    assert _moment(deadline, "Europe/Madrid") in client.get(mine).content.decode()

    answer = client.post(
        reverse("deadlines:preferences"), {"language": "en", "time_zone": "Asia/Tokyo"}
    )
    assert answer.status_code == 302
    assert CoachPreferences.objects.get(user=carol).time_zone == "Asia/Tokyo"
    page = client.get(mine).content.decode()
    assert _moment(deadline, "Asia/Tokyo") in page
    assert " CET" not in page and " CEST" not in page


def test_a_zone_that_does_not_exist_is_refused_and_nothing_changes(carol: User) -> None:
    services.save_preferences(carol, time_zone="Europe/Helsinki")
    client = Client()
    client.force_login(carol)
    answer = client.post(
        reverse("deadlines:preferences"), {"language": "en", "time_zone": "Mars/Olympus_Mons"}
    )
    assert answer.status_code == 200
    assert "Mars/Olympus_Mons" in answer.content.decode()  # named in the form's error
    assert CoachPreferences.objects.get(user=carol).time_zone == "Europe/Helsinki"
    with pytest.raises(ValidationError):
        services.save_preferences(carol, time_zone="Mars/Olympus_Mons")
    assert CoachPreferences.objects.get(user=carol).time_zone == "Europe/Helsinki"


def test_a_visitor_reads_dates_in_the_browsers_zone(
    in_play: Match, alice: User, bob: User, on_commit: Callable[..., Any]
) -> None:
    _end_home_turn(in_play, alice, bob, on_commit)
    client = Client()
    client.cookies[BROWSER_COOKIE] = "America/New_York"
    page = client.get(reverse("matches:detail", args=[in_play.pk])).content.decode()
    shown = formats.date_format(
        timezone.localtime(in_play.turn_deadline_at, ZoneInfo("America/New_York")),
        "SHORT_DATETIME_FORMAT",
    )
    assert shown.endswith(" EST") and shown in page
    client.cookies[BROWSER_COOKIE] = "Not/A_Zone"  # ignored: the server's
    page = client.get(reverse("matches:detail", args=[in_play.pk])).content.decode()
    assert " EST" not in page


def test_the_browsers_zone_is_saved_at_the_first_login(alice: User, bob: User) -> None:
    request = RequestFactory().get("/")
    request.session = SessionStore()
    request.COOKIES[BROWSER_COOKIE] = "Europe/Helsinki"
    user_logged_in.send(sender=User, request=request, user=alice)
    assert CoachPreferences.objects.get(user=alice).time_zone == "Europe/Helsinki"

    # A zone already chosen stays: the browser only guesses.
    services.save_preferences(bob, time_zone="Asia/Tokyo")
    user_logged_in.send(sender=User, request=request, user=bob)
    assert CoachPreferences.objects.get(user=bob).time_zone == "Asia/Tokyo"
