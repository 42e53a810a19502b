from datetime import timedelta

import pytest
from django.utils import timezone

from matches.models import Deadline
from matches.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db


def test_the_sweep_of_an_empty_table_applies_nothing() -> None:
    assert sweep_deadlines() == 0


def test_the_sweep_applies_each_expired_deadline_exactly_once() -> None:
    now = timezone.now()
    expired = Deadline.objects.create(kind="turn", deadline_at=now - timedelta(minutes=1))
    future = Deadline.objects.create(kind="turn", deadline_at=now + timedelta(hours=1))
    assert sweep_deadlines() == 1
    assert sweep_deadlines() == 0
    expired.refresh_from_db()
    future.refresh_from_db()
    assert expired.applied_at is not None
    assert future.applied_at is None
