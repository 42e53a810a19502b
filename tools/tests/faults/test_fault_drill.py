"""The fault drill at a tiny size, in a process of its own against the test database's server
(it makes and drops a database of its own beside it): nothing doubled but the documented
notice window, nothing lost, every forgery but the receipt-less alternative history caught."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from django.db import connection

from tools import faults

pytestmark = [pytest.mark.worker, pytest.mark.xdist_group("worker"), pytest.mark.django_db]


def test_the_drill_at_a_tiny_size_loses_and_doubles_nothing() -> None:
    if connection.vendor != "postgresql" or shutil.which("redis-server") is None:
        faults.unavailable("the drill needs PostgreSQL and redis-server")
    env = {**os.environ, "DATABASE_URL": faults.database_url(connection.settings_dict)}
    run = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "fault_drill",
            "--json",
            "--deadlines",
            "16",
            "--clients",
            "2",
            "--posts",
            "4",
        ],
        cwd=faults.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["deadlines_applied"] == figures["deadlines_created"] == 16
    assert figures["deadlines_doubled"] == 0 and figures["worker_kills"] >= 2
    assert figures["notices_sent"] == figures["notices_due"] > 0
    assert figures["notices_lost"] == figures["notices_late"] == 0
    assert figures["notices_doubled"] <= 1  # the one held while its worker was killed
    assert figures["posts_stored"] == figures["posts_attempted"] == 8
    assert figures["posts_doubled"] == 0 and figures["tasks_left_in_outbox"] == 0
    assert figures["uncaught"] == ["an alternative history, without a receipt"]
    assert figures["forgeries_caught"] == figures["forgeries_tried"] - 1
    assert figures["alternative_holds_before_the_change"]
