from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from matches import services
from matches.models import Post

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_deadline_that_expires_within_a_minute() -> None:
    call_command("load_demo", stdout=None)
    call_command("demo_deadline", seconds=60)
    assert services.expire_deadlines(now=timezone.now()) == 0
    assert services.expire_deadlines(now=timezone.now() + timedelta(seconds=61)) == 1
    assert Post.objects.filter(summary__message="deadline_passed").count() == 1
