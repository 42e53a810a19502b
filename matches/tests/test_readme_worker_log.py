"""The README tells an operator which line of the worker's log to watch for: it must be the
line the worker prints."""

import logging
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from matches import services, tasks
from matches.models import Decision, Match
from matches.services import core
from matches.tests.positions import mid_turn, script_dice

pytestmark = pytest.mark.django_db
README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readmes_sweep_line_is_the_one_the_worker_logs(
    match: Match,
    cast: dict[str, User],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    mid_turn(match)
    script_dice(monkeypatch)
    services.declare(match.pk, cast["alice"], {"player": "h1", "action": "block", "target": "a5"})
    past = core.now() - timedelta(minutes=1)
    assert Decision.objects.filter(match=match, answered_at__isnull=True).update(deadline_at=past)
    with caplog.at_level(logging.INFO, logger=tasks.log.name):
        tasks.sweep_deadlines()
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("sweep:")]
    quoted = re.findall(r"`(sweep: [^`]*)`", README.read_text())
    assert logged and quoted
    assert quoted == logged
