"""Reminders at the times each person chooses before their own deadlines (24, 4 and 1 hours,
say): sent by the deadline sweep through the outbox, each once, in the reader's language and
time zone, in place of the fixed 24 h and 2 h warnings for whoever chose them."""

from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation

from matches import services
from matches.deadlines.tests.conftest import Clock
from matches.models import CoachPreferences, Match, Notice
from matches.notices import emails as notifications

pytestmark = pytest.mark.django_db


def subjects(to: str) -> list[str]:
    return [str(m.subject) for m in mail.outbox if m.to == [f"{to}@example.org"]]


def test_a_coach_hears_their_reminders_once_each_and_their_teammate_the_fixed_warnings(
    in_play: Match, alice: User, clock: Clock, on_commit: Callable[..., Any]
) -> None:
    services.save_preferences(alice, reminder_hours=[24, 4, 1])
    clock.advance(hours=25)  # 23 hours left
    with on_commit():
        assert services.sweep().warnings == 2  # bob's 24 h warning, alice's 24 h reminder
        assert services.sweep().warnings == 0
    assert subjects("alice") == [f"bbweb: your deadline in {in_play} is 24 hours away"]
    assert subjects("bob") == [f"bbweb: a deadline is near in {in_play}"]
    clock.advance(hours=19, minutes=30)  # 3 h 30 left
    with on_commit():
        assert services.sweep().warnings == 1
        assert services.sweep().warnings == 0
    clock.advance(hours=2)  # 1 h 30 left: bob's 2 h warning, none of alice's yet
    with on_commit():
        assert services.sweep().warnings == 1
    clock.advance(hours=1)  # 30 minutes left
    with on_commit():
        assert services.sweep().warnings == 1
        assert services.sweep().warnings == 0
    assert subjects("alice") == [
        f"bbweb: your deadline in {in_play} is {hours} {'hour' if hours == 1 else 'hours'} away"
        for hours in (24, 4, 1)
    ]
    assert len(subjects("bob")) == 2
    assert Notice.objects.filter(user=alice, sent=True, key__startswith="reminder:").count() == 3


def test_a_reminder_reads_in_its_readers_language_and_time_zone(
    in_play: Match, alice: User, clock: Clock, on_commit: Callable[..., Any]
) -> None:
    services.save_preferences(alice, reminder_hours=[6], language="fi", time_zone="Asia/Tokyo")
    clock.advance(hours=43)
    with on_commit():
        services.sweep()
    [message] = [m for m in mail.outbox if m.to == ["alice@example.org"]]
    assert "6 tunnin" in message.subject
    with translation.override("fi"):
        moment = timezone.localtime(in_play.turn_deadline_at, ZoneInfo("Asia/Tokyo"))
        shown = formats.date_format(moment, "DATETIME_FORMAT")
    assert shown.endswith(" JST")
    assert shown in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_a_late_sweep_sends_only_the_latest_reminder_whose_time_came(
    in_play: Match, alice: User, clock: Clock, on_commit: Callable[..., Any]
) -> None:
    services.save_preferences(alice, reminder_hours=[24, 4])
    clock.advance(hours=45)  # 3 hours left: the 24 h reminder is stale
    with on_commit():
        assert services.sweep().warnings == 2  # bob's warning, alice's 4 h reminder
    assert subjects("alice") == [f"bbweb: your deadline in {in_play} is 4 hours away"]


def test_a_reminder_is_not_sent_for_a_time_before_its_deadline_was_set(
    in_play: Match, alice: User, dice: list[int], clock: Clock, on_commit: Callable[..., Any]
) -> None:
    services.save_preferences(alice, reminder_hours=[24, 2])
    dice += [1, 4, 4]
    with on_commit():  # a 12-hour decision: its own notice said when it falls
        services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    mail.outbox.clear()
    clock.advance(hours=1)
    with on_commit():
        assert services.send_reminders() == 0
    clock.advance(hours=9, minutes=30)
    with on_commit():
        assert services.send_reminders() == 1
    assert subjects("alice") == [f"bbweb: your deadline in {in_play} is 2 hours away"]


def test_a_reminder_for_a_turn_already_posted_is_dropped_unsent(
    in_play: Match, alice: User, bob: User, clock: Clock
) -> None:
    services.save_preferences(alice, reminder_hours=[24])
    clock.advance(hours=25)
    assert services.send_reminders() == 1  # queued: the tasks have not run
    [notice] = Notice.objects.filter(user=alice, sent=False)
    services.declare(in_play.pk, alice, {"action": "end_turn"}, side="captain")
    services.declare(in_play.pk, bob, {"action": "end_turn"}, side="rival")
    deadline = notice.key.split(":", 2)[2].rsplit(":", 1)[0]
    assert notifications.remind(alice.pk, in_play.pk, deadline, 24, notice.key) == 0
    assert not Notice.objects.filter(pk=notice.pk).exists()
    assert mail.outbox == [] or all(m.to != ["alice@example.org"] for m in mail.outbox)


def test_a_coach_who_turned_warnings_off_gets_no_reminder(
    in_play: Match, alice: User, clock: Clock, on_commit: Callable[..., Any]
) -> None:
    services.save_preferences(alice, reminder_hours=[24], email_warning=False)
    clock.advance(hours=25)
    with on_commit():
        services.sweep()
    assert subjects("alice") == []


@pytest.mark.parametrize(
    ("typed", "error"),
    [
        ("tomorrow", "Write whole hours"),
        ("0", "1 to 168 hours"),
        ("200", "1 to 168 hours"),
        ("24, 12, 6, 3, 1", "At most 4 reminders"),
    ],
)
def test_bad_reminders_are_refused_with_a_clear_error_and_change_nothing(
    alice: User, typed: str, error: str
) -> None:
    services.save_preferences(alice, reminder_hours=[24])
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("deadlines:preferences"),
        {"language": "en", "reminders": typed, "digest_hour": "8", "email_warning": "on"},
    )
    assert response.status_code == 200
    assert error in response.content.decode()
    assert CoachPreferences.objects.get(user=alice).reminder_hours == [24]


def test_reminders_typed_on_the_page_are_kept_longest_first_each_once(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("deadlines:preferences"),
        {"language": "en", "reminders": "1, 24 4;4", "digest_hour": "8", "email_warning": "on"},
    )
    assert response.status_code == 302
    assert CoachPreferences.objects.get(user=alice).reminder_hours == [24, 4, 1]
    page = client.get(reverse("deadlines:preferences")).content.decode()
    assert 'value="24, 4, 1"' in page
