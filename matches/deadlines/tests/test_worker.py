"""Tasks sent through a real broker to a real Celery worker (Redis in CI)."""

import os
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from bbweb import outbox
from bbweb.celery import app
from bbweb.models import OutboxMessage
from matches import services
from matches.deadlines.tests.conftest import STANDARD, put
from matches.models import Decision, Match, Notice, Post
from matches.tasks import sweep_deadlines

# One xdist group: the workers of two test processes would share one broker queue.
pytestmark = [
    pytest.mark.worker,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def worker() -> Iterator[None]:
    if os.environ.get("BBWEB_REQUIRE_WORKER") == "1":
        assert os.environ.get("REDIS_URL"), "CI must run the worker test against Redis"
    app.conf.task_always_eager = False
    app.control.purge()  # sweeps a beat queued earlier would answer for ours
    try:
        with start_worker(app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
            yield
    finally:
        app.conf.task_always_eager = True


def expired(match: Match) -> Match:
    put(match, STANDARD)
    Match.objects.filter(pk=match.pk).update(turn_deadline_at=timezone.now() - timedelta(seconds=5))
    return match


def test_the_sweep_runs_in_a_worker_and_applies_a_deadline_once(worker: None, match: Match) -> None:
    expired(match)
    assert sweep_deadlines.delay().get(timeout=30) == 1
    assert sweep_deadlines.delay().get(timeout=30) == 0
    assert match.posts.filter(summary__message="deadline_passed").count() == 1
    match.refresh_from_db()
    assert services.load_state(match).active == "away"
    # The batch's notices went out as one message, which beat's relay sends, and the worker
    # queued each of them.
    assert outbox.relay() >= 1
    notices = Notice.objects.filter(kind__in=("applied", "turn")).order_by("kind", "user__username")
    for _ in range(300):
        if notices.count() >= 4:
            break
        time.sleep(0.1)
    assert [(n.kind, n.user.username) for n in notices] == [
        ("applied", "alice"),
        ("applied", "bob"),
        ("turn", "carol"),
        ("turn", "dave"),
    ]


def test_a_contest_is_rolled_by_the_worker(
    worker: None, match: Match, alice: User, bob: User
) -> None:
    put(match, STANDARD)
    claim = services.declare(match.pk, bob, {"action": "claim_blitz"}).decision
    assert claim is not None
    services.answer(match.pk, alice, "contest")  # commits; the task goes to the worker
    for _ in range(300):
        if Decision.objects.get(pk=claim.pk).answered_at is not None:
            break
        time.sleep(0.1)
    roll = match.posts.get(kind=Post.Kind.SYSTEM, summary__message="blitz_contest")
    assert len(roll.summary["rival"]) == len(roll.summary["captain"]) == 3
    assert roll.summary["winner"] in ("rival", "captain")


def test_a_task_the_broker_lost_goes_out_again_and_runs_once(worker: None, match: Match) -> None:
    """Redis loses a message handed to a worker killed before it recorded it (the fault drill
    kills workers there): the row says sent, and its task never said it ran."""
    put(match, STANDARD)
    outbox.relay()  # whatever the match's start queued
    lost_at = timezone.now() - timedelta(seconds=settings.OUTBOX_REPUBLISH_SECONDS + 1)
    row = OutboxMessage.objects.create(
        task="matches.tasks.notify_turn", args=[match.pk], sent_at=lost_at
    )
    turn_notices = Notice.objects.filter(match=match, kind="turn")
    assert outbox.relay() == 1
    for _ in range(300):
        if OutboxMessage.objects.get(pk=row.pk).done_at is not None:
            break
        time.sleep(0.1)
    assert OutboxMessage.objects.get(pk=row.pk).done_at is not None
    assert sorted(turn_notices.values_list("user__username", flat=True)) == ["alice", "bob"]
    assert outbox.relay() == 0  # done: never sent again
