"""A "your turn" notice is keyed when its turn starts, not when its task runs: a run that dies
holding the notice, and a retry that comes once the match has moved on, still send that
notice; a claim held past its lease is released by the sweep, which queues the notice's task
again. Every due notice goes, once."""

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.utils import timezone

from bbweb import outbox
from bbweb.models import OutboxMessage
from matches import services, tasks
from matches.models import Match, Notice
from matches.services import jobs

pytestmark = pytest.mark.django_db
AWAY_TURN_3 = "turn:{pk}:1:away:3"


class Killed(BaseException):
    """The worker's process dying under the task (SIGKILL): nothing of the task runs on."""


@pytest.fixture(autouse=True)
def retries_run() -> Iterator[None]:
    from bbweb.celery import app

    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = True


def _end_the_team_turn(match: Match, captain: User, rival: User) -> None:
    services.declare(match.pk, captain, {"action": "end_turn"}, side="captain")
    services.declare(match.pk, rival, {"action": "end_turn"}, side="rival")


def _turn_tasks() -> list[list[Any]]:
    rows = OutboxMessage.objects.filter(task=jobs.NOTIFY_TURN).order_by("pk")
    return [row.args for row in rows]


def _dies_while_sending(monkeypatch: pytest.MonkeyPatch, args: list[Any]) -> None:
    """The task runs until its mail is on the way, and its worker is killed there."""

    def killed(self: EmailBackend, messages: list[Any]) -> int:
        raise Killed

    with monkeypatch.context() as patched:
        patched.setattr(EmailBackend, "send_messages", killed)
        with pytest.raises(Killed):
            tasks.notify_turn.run(*args)


def _lease_lapses(key: str) -> None:
    """What the notice's lease does with time: the dead run's claim is over."""
    past = timezone.now() - timedelta(seconds=1)
    Notice.objects.filter(key=key, sent=False).update(sending_until=past)


def test_the_turn_s_task_names_its_turn_when_the_turn_starts(
    in_play: Match, alice: User, bob: User
) -> None:
    _end_the_team_turn(in_play, alice, bob)
    assert _turn_tasks() == [[in_play.pk, 1, "away", 3]]


def test_a_retry_after_the_match_moved_on_sends_the_notice_its_dead_run_held(
    in_play: Match,
    alice: User,
    bob: User,
    carol: User,
    dave: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _end_the_team_turn(in_play, alice, bob)
    [away_turn] = _turn_tasks()
    key = AWAY_TURN_3.format(pk=in_play.pk)
    _dies_while_sending(monkeypatch, away_turn)
    assert Notice.objects.filter(key=key, sent=False, sending_until__isnull=False).count() == 1
    _end_the_team_turn(in_play, carol, dave)  # the match moves on: home's turn 4
    _lease_lapses(key)
    tasks.notify_turn.apply(args=away_turn)  # the broker gives the task back
    assert sorted(Notice.objects.filter(key=key).values_list("user__username", "sent")) == [
        ("carol", True),
        ("dave", True),
    ]
    assert sorted(m.to[0] for m in mail.outbox) == ["carol@example.org", "dave@example.org"]


def test_the_sweep_queues_a_lapsed_claim_again_and_it_goes_once(
    in_play: Match,
    alice: User,
    bob: User,
    carol: User,
    dave: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _end_the_team_turn(in_play, alice, bob)
    [away_turn] = _turn_tasks()
    key = AWAY_TURN_3.format(pk=in_play.pk)
    _dies_while_sending(monkeypatch, away_turn)
    OutboxMessage.objects.all().delete()  # and the broker lost the task: no retry comes
    _end_the_team_turn(in_play, carol, dave)
    assert services.release_lapsed_notices() == 0, "a claim within its lease is left alone"

    _lease_lapses(key)
    assert services.release_lapsed_notices() == 1
    assert Notice.objects.get(key=key).sending_until is None  # the one the dead run held
    assert _turn_tasks() == [[in_play.pk, 1, "home", 4], away_turn]
    assert services.release_lapsed_notices() == 0
    outbox.relay()  # the worker's beat sends the rows: the tasks run (eagerly here)
    assert Notice.objects.filter(key=key, sent=True).count() == 2
    for coach in ("carol@example.org", "dave@example.org", "alice@example.org", "bob@example.org"):
        assert [m.to[0] for m in mail.outbox].count(coach) == 1, coach
