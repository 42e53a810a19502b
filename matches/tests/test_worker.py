"""A task sent through a real broker to a real Celery worker (Redis in CI)."""

import os
from collections.abc import Iterator
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.utils import timezone

from bbweb.celery import app
from matches.models import Deadline
from matches.tasks import sweep_deadlines

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker() -> Iterator[None]:
    if os.environ.get("BBWEB_REQUIRE_WORKER") == "1":
        assert os.environ.get("REDIS_URL"), "CI must run the worker test against Redis"
    app.conf.task_always_eager = False
    try:
        with start_worker(app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
            yield
    finally:
        app.conf.task_always_eager = True


def test_the_sweep_runs_in_a_worker_through_the_broker(worker: None) -> None:
    Deadline.objects.create(kind="turn", deadline_at=timezone.now() - timedelta(seconds=5))
    result = sweep_deadlines.delay()
    assert result.get(timeout=30) == 1
    assert Deadline.objects.filter(applied_at__isnull=False).count() == 1
