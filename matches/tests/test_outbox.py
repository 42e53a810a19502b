"""The outbox (bbweb/outbox.py): a task exists exactly when its change is committed, waits
while the broker is down, and is sent once when it is back."""

import random
import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest
from celery import current_app
from celery.app.task import Context
from celery.exceptions import Retry
from celery.signals import task_retry
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from bbweb import outbox
from bbweb.models import OutboxMessage
from matches.models import Decision
from tools import autoplay, faults

pytestmark = pytest.mark.django_db(transaction=True)
TURN = "matches.tasks.notify_turn"


class Broker:
    """Stands for Celery's publish: what it took, and whether it is down."""

    def __init__(self) -> None:
        self.down = False
        self.sent: list[tuple[str, list[object]]] = []

    def send(self, row: OutboxMessage) -> None:
        if self.down:
            raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.sent.append((row.task, row.args))


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Iterator[Broker]:
    fake = Broker()
    monkeypatch.setattr(outbox, "_send", fake.send)
    monkeypatch.setattr(outbox, "_quiet_until", 0.0)
    yield fake


def unsent() -> int:
    return OutboxMessage.objects.filter(sent_at__isnull=True).count()


def test_a_notice_is_left_to_the_relay_and_sent_once(broker: Broker) -> None:
    with transaction.atomic():
        outbox.enqueue("matches.tasks.notify_turn", [7])
    assert broker.sent == []  # the request that wrote it never talks to the broker
    assert unsent() == 1
    assert outbox.relay() == 1
    assert outbox.relay() == 0
    assert broker.sent == [("matches.tasks.notify_turn", [7])]
    assert unsent() == 0


def test_a_task_at_once_is_sent_once_its_transaction_commits(broker: Broker) -> None:
    with transaction.atomic():
        outbox.enqueue("matches.tasks.adjudicate_blitz", [7], at_once=True)
        assert broker.sent == []
    assert broker.sent == [("matches.tasks.adjudicate_blitz", [7])]
    assert unsent() == 0
    assert outbox.relay() == 0


def test_a_task_of_a_rolled_back_change_is_never_sent(broker: Broker) -> None:
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        outbox.enqueue("matches.tasks.notify_turn", [7])
        1 / 0  # noqa: B018
    assert outbox.relay() == 0
    assert broker.sent == []
    assert not OutboxMessage.objects.exists()


def test_with_the_broker_down_the_task_waits_and_goes_out_once_when_it_is_back(
    broker: Broker,
) -> None:
    broker.down = True
    with transaction.atomic():
        outbox.enqueue("matches.tasks.notify_turn", [7])
    assert outbox.relay() == 0
    assert unsent() == 1
    broker.down = False
    assert outbox.relay() == 1
    assert outbox.relay() == 0
    assert broker.sent == [("matches.tasks.notify_turn", [7])]
    assert unsent() == 0


def test_after_a_failure_the_process_leaves_its_tasks_to_the_relay_for_a_while(
    broker: Broker,
) -> None:
    broker.down = True
    outbox.enqueue("matches.tasks.adjudicate_blitz", [1], at_once=True)
    broker.down = False
    outbox.enqueue("matches.tasks.adjudicate_blitz", [2], at_once=True)  # not tried: quiet
    assert broker.sent == []
    assert outbox.relay() == 2
    assert broker.sent == [
        ("matches.tasks.adjudicate_blitz", [1]),
        ("matches.tasks.adjudicate_blitz", [2]),
    ]


def test_the_relay_leaves_a_row_its_writer_still_holds_and_takes_it_when_the_claim_expires(
    broker: Broker,
) -> None:
    row = OutboxMessage.objects.create(
        task="matches.tasks.notify_turn", args=[3], claimed_until=timezone.now() + outbox.LEASE
    )
    assert outbox.relay() == 0
    OutboxMessage.objects.filter(pk=row.pk).update(
        claimed_until=timezone.now() - timedelta(seconds=1)
    )
    assert outbox.relay() == 1
    assert broker.sent == [("matches.tasks.notify_turn", [3])]
    assert OutboxMessage.objects.get(pk=row.pk).attempts == 1


def test_a_writer_whose_claim_was_taken_over_does_not_mark_the_row_sent(broker: Broker) -> None:
    """The compare-and-set on the claim: only the holder of the current claim marks it."""
    row = OutboxMessage.objects.create(
        task="matches.tasks.notify_turn", args=[4], claimed_until=timezone.now() - timedelta(1)
    )
    stale = OutboxMessage.objects.get(pk=row.pk)
    assert outbox.relay() == 1
    OutboxMessage.objects.filter(pk=row.pk).update(sent_at=None, claimed_until=None)
    outbox.publish(stale)  # its claim is not the row's: it marks nothing
    assert unsent() == 1


def test_rows_a_day_old_are_dropped_once_they_went_out_and_kept_while_they_wait() -> None:
    a_day_ago, now = timezone.now() - timedelta(days=1, seconds=1), timezone.now()
    gone = [
        OutboxMessage.objects.create(task=TURN, args=[5], created_at=a_day_ago, **went_out)
        for went_out in ({"sent_at": now}, {"done_at": now}, {"sent_at": now, "done_at": now})
    ]
    waiting = OutboxMessage.objects.create(task=TURN, args=[6], created_at=a_day_ago)
    recent = OutboxMessage.objects.create(task=TURN, args=[7], sent_at=now, done_at=now)
    outbox.drop_old(timezone.now())
    assert set(OutboxMessage.objects.values_list("pk", flat=True)) == {waiting.pk, recent.pk}
    assert not OutboxMessage.objects.filter(pk__in=[row.pk for row in gone]).exists()


def _sent_long_ago(row: OutboxMessage) -> None:
    sent = timezone.now() - timedelta(seconds=settings.OUTBOX_REPUBLISH_SECONDS + 1)
    OutboxMessage.objects.filter(pk=row.pk).update(sent_at=sent)


def test_a_task_sent_and_never_run_goes_out_again_and_one_that_ran_does_not(broker: Broker) -> None:
    """Redis can lose a message it handed to a worker killed at once: the row waits for its
    task to say it ran, and goes out again when it does not."""
    lost, ran = (OutboxMessage.objects.create(task=TURN, args=[n]) for n in (1, 2))
    assert outbox.relay() == 2
    assert outbox.relay() == 0  # sent: waited for
    outbox.ran(f"outbox-{ran.pk}")
    for row in (lost, ran):
        _sent_long_ago(row)
    assert outbox.relay() == 1
    assert broker.sent == [(TURN, [1]), (TURN, [2]), (TURN, [1])]
    assert OutboxMessage.objects.get(pk=lost.pk).attempts == 2


def test_a_task_that_ran_counts_as_sent_when_its_relay_died_before_marking_it(
    broker: Broker,
) -> None:
    """The relay publishes, then loses its database connection before it marks the row sent
    (the fault drill terminates every connection while coaches post): the task runs, and its
    row says sent and done, never waiting in the outbox again."""
    row = OutboxMessage.objects.create(task=TURN, args=[4])
    claim = timezone.now() + outbox.LEASE
    OutboxMessage.objects.filter(pk=row.pk).update(claimed_until=claim, attempts=1)
    outbox.ran(f"outbox-{row.pk}")
    row.refresh_from_db()
    assert row.sent_at is not None and row.done_at is not None
    assert unsent() == 0
    OutboxMessage.objects.filter(pk=row.pk).update(claimed_until=None)
    assert outbox.relay() == 0 and broker.sent == []
    sent_before = timezone.now() - timedelta(hours=1)
    OutboxMessage.objects.filter(pk=row.pk).update(sent_at=sent_before)
    outbox.ran(f"outbox-{row.pk}")  # a row already marked keeps the time it was sent
    assert OutboxMessage.objects.get(pk=row.pk).sent_at == sent_before


def test_a_relay_whose_connection_the_database_drops_marks_its_rows_on_a_new_one(
    broker: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fault drill terminates every connection while the relay publishes: without a new
    connection its claim would hold the rows a minute, unsent in the outbox's eyes."""
    if connection.vendor != "postgresql":
        pytest.skip("a backend is terminated with PostgreSQL's pg_terminate_backend")
    rows = [OutboxMessage.objects.create(task=TURN, args=[n]) for n in (5, 6)]
    send = broker.send

    def send_and_lose_the_connection(row: OutboxMessage) -> None:
        send(row)
        if row.pk == rows[-1].pk:
            faults.terminate_backends(connection.settings_dict)

    monkeypatch.setattr(outbox, "_send", send_and_lose_the_connection)
    assert outbox.relay() == 2
    assert unsent() == 0
    assert not OutboxMessage.objects.filter(claimed_until__isnull=False).exists()
    assert outbox.relay() == 0 and len(broker.sent) == 2


def test_a_task_that_retries_is_waited_for_from_when_it_is_due_back(broker: Broker) -> None:
    row = OutboxMessage.objects.create(task=TURN, args=[3])
    assert outbox.relay() == 1
    task = current_app.tasks[TURN]
    later = timedelta(seconds=settings.OUTBOX_REPUBLISH_SECONDS * 2)
    task_retry.send(
        sender=task,
        request=Context(id=f"outbox-{row.pk}"),
        reason=Retry(when=later.total_seconds()),
    )
    due_back = OutboxMessage.objects.get(pk=row.pk).sent_at
    assert due_back is not None and due_back > timezone.now() + later / 2
    assert outbox.relay() == 0
    _sent_long_ago(row)
    assert outbox.relay() == 1


def test_a_task_run_by_celery_marks_its_row_done(broker: Broker) -> None:
    match = autoplay.demo_match()
    row = OutboxMessage.objects.create(task=TURN, args=[match.pk])
    current_app.tasks[TURN].apply([match.pk], task_id=f"outbox-{row.pk}")
    assert OutboxMessage.objects.get(pk=row.pk).done_at is not None
    other = current_app.tasks[TURN].apply([match.pk], task_id="not-from-the-outbox")
    assert other.successful()


def test_a_match_played_with_the_broker_down_loses_no_task(broker: Broker) -> None:
    broker.down = True
    match = autoplay.demo_match()
    rng = random.Random(5)
    for _ in range(40):
        autoplay.step(match.pk, rng)
    waiting = list(OutboxMessage.objects.filter(sent_at__isnull=True).values_list("task", "args"))
    assert any(task == "matches.tasks.notify_turn" for task, _args in waiting)
    broker.down = False
    assert outbox.relay() == len(waiting)
    assert outbox.relay() == 0
    assert sorted(broker.sent, key=str) == sorted([(task, args) for task, args in waiting], key=str)


def test_two_relays_at_once_never_take_the_same_row(broker: Broker) -> None:
    """The relay takes its rows FOR UPDATE SKIP LOCKED: a second relay while the first holds
    them takes none of them."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite has one writer at a time")
    for n in range(3):
        outbox.enqueue("matches.tasks.notify_turn", [n])
    with transaction.atomic():
        held = list(OutboxMessage.objects.select_for_update().values_list("pk", flat=True))
        seen: list[int] = []

        def second_relay() -> None:
            try:
                seen.append(outbox.relay())
            finally:
                connection.close()

        other = threading.Thread(target=second_relay)
        other.start()
        other.join()
    assert len(held) == 3 and seen == [0] and broker.sent == []
    assert outbox.relay() == 3 and len(broker.sent) == 3


def test_each_question_asked_has_one_notice_naming_it(broker: Broker) -> None:
    """A question's notice goes in the statement that writes the question (PostgreSQL), and
    takes its key there: every question asked, none other, is named by exactly one notice."""
    match = autoplay.demo_match()
    rng = random.Random(11)
    for _ in range(60):
        autoplay.step(match.pk, rng)
    asked = sorted(
        Decision.objects.filter(match=match, deadline_at__isnull=False).values_list("pk", flat=True)
    )
    notices = OutboxMessage.objects.filter(task="matches.tasks.notify_decision")
    named = sorted(pk for args in notices.values_list("args", flat=True) for pk in args)
    assert asked and named == asked
