"""A notice goes out once in effect: retried on a mail or database error, never sent again by a
retry once it went, and a run that died after sending does not make the next one send at once
(matches.notices.emails)."""

from collections.abc import Callable, Iterator
from smtplib import SMTPServerDisconnected
from typing import Any

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import OperationalError
from django.utils import timezone

from matches import tasks
from matches.models import Match, Notice
from matches.notices import emails as notifications

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def retries_run() -> Iterator[None]:
    """A task's retry runs at once when eager; the error it retries on must not fail the test."""
    from bbweb.celery import app

    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = True


def failing(times: int, error: BaseException, *, after_sending: bool = False) -> Callable[..., Any]:
    """A locmem send_messages that fails ``times`` times (after the mail went, when asked)."""
    real = EmailBackend.send_messages
    left = [times]

    def send_messages(self: EmailBackend, messages: list[Any]) -> int:
        if left[0] and not after_sending:
            left[0] -= 1
            raise error
        count = real(self, messages)
        if left[0]:
            left[0] -= 1
            raise error
        return count

    return send_messages


def notify(match: Match, key: str = "k") -> Any:
    return tasks.notify.apply(args=("turn", match.pk, ["home:captain"], key, {}))


def test_a_notice_the_mail_server_refused_goes_out_when_the_task_retries(
    in_play: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(EmailBackend, "send_messages", failing(2, SMTPServerDisconnected("gone")))
    notify(in_play)
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    assert Notice.objects.get(key="k").sent


def test_a_notice_is_retried_after_a_database_error(
    in_play: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = notifications.recipients_for
    calls: list[str] = []

    def users_for(match: Match, actor: str) -> Any:
        calls.append(actor)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(match, actor)

    monkeypatch.setattr(notifications, "recipients_for", users_for)
    notify(in_play)
    assert len(mail.outbox) == 1


def test_a_run_that_died_after_the_mail_went_does_not_make_the_next_send_it_at_once(
    in_play: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        EmailBackend, "send_messages", failing(1, SystemExit("killed"), after_sending=True)
    )
    with pytest.raises(SystemExit):
        notifications.send("turn", in_play.pk, ["home:captain"], "k", {})
    with pytest.raises(notifications.NotSentYet):
        notifications.send("turn", in_play.pk, ["home:captain"], "k", {})
    assert len(mail.outbox) == 1


def test_once_the_dead_runs_claim_expires_the_copy_sent_again_is_a_recognisable_duplicate(
    in_play: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        EmailBackend, "send_messages", failing(1, SystemExit("killed"), after_sending=True)
    )
    with pytest.raises(SystemExit):
        notifications.send("turn", in_play.pk, ["home:captain"], "k", {})
    Notice.objects.update(sending_until=timezone.now() - notifications.LEASE)
    assert notifications.send("turn", in_play.pk, ["home:captain"], "k", {}) == 1
    first, second = mail.outbox
    assert first.extra_headers["Message-ID"] == second.extra_headers["Message-ID"]
    assert notifications.send("turn", in_play.pk, ["home:captain"], "k", {}) == 0


def test_a_database_error_while_marking_it_sent_is_tried_again_and_it_is_not_sent_twice(
    in_play: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db.models import QuerySet

    real = QuerySet.update
    failed: list[bool] = []

    def update(self: QuerySet[Any], **values: Any) -> int:
        if values.get("sent") and not failed:
            failed.append(True)
            raise OperationalError("terminating connection due to administrator command")
        return real(self, **values)

    monkeypatch.setattr(QuerySet, "update", update)
    monkeypatch.setattr(notifications, "MARK_PAUSE", 0)
    notify(in_play)
    notify(in_play)
    assert failed and len(mail.outbox) == 1
    assert Notice.objects.get(key="k").sent


def test_a_mention_the_mail_server_refused_goes_out_when_the_task_retries(
    in_play: Match, monkeypatch: pytest.MonkeyPatch, on_commit: Callable[..., Any]
) -> None:
    from django.contrib.auth.models import User

    from matches import services

    monkeypatch.setattr(EmailBackend, "send_messages", failing(1, SMTPServerDisconnected("gone")))
    with on_commit():
        services.write_post(
            in_play.pk, User.objects.get(username="alice"), kind="ooc", text="@carol ready?"
        )
    assert [m.to for m in mail.outbox] == [["carol@example.org"]]
