"""The deadlines' queue ahead of the notices', and the broker's visibility timeout: a worker
killed mid-task gives its task back after minutes, not an hour."""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from bbweb.celery import app

ROOT = Path(__file__).resolve().parents[2]
DEADLINES = (
    "matches.tasks.sweep_deadlines",
    "matches.tasks.adjudicate_blitz",
    "matches.tasks.enqueue_all",
    "bbweb.tasks.relay_outbox",
)
NOTICES = ("matches.tasks.notify", "matches.tasks.notify_turn", "matches.tasks.notify_mentions")


def queue_of(task: str) -> str:
    route: dict[str, str] = app.conf.task_routes.get(task, {})
    return str(route.get("queue", app.conf.task_default_queue))


def test_the_sweep_contest_rolls_and_relay_go_on_the_deadlines_queue_and_notices_do_not() -> None:
    assert {queue_of(task) for task in DEADLINES} == {"deadlines"}
    assert {queue_of(task) for task in NOTICES} == {"celery"}
    assert [(q.name, q.routing_key) for q in app.amqp.queues.values()] == [
        ("deadlines", "deadlines"),
        ("celery", "celery"),
    ]


def redis_settings(**env: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'options': s.CELERY_BROKER_TRANSPORT_OPTIONS, "
        "'queues': list(s.CELERY_TASK_QUEUES)}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "bbweb.settings",
            "REDIS_URL": "redis://127.0.0.1:1/0",
            **env,
        },
        capture_output=True,
        text=True,
        check=False,
    )


def test_redis_gives_a_task_back_after_ten_minutes_and_is_asked_for_deadlines_first() -> None:
    result = redis_settings()
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    assert found["options"]["visibility_timeout"] == 600
    assert found["options"]["queue_order_strategy"] == "priority"
    assert found["queues"] == ["deadlines", "celery"]


def test_the_visibility_timeout_is_a_setting_that_must_outlast_a_task_and_its_retry_wait() -> None:
    result = redis_settings(BBWEB_VISIBILITY_TIMEOUT="900")
    assert json.loads(result.stdout)["options"]["visibility_timeout"] == 900
    result = redis_settings(BBWEB_VISIBILITY_TIMEOUT="300")
    assert result.returncode != 0
    assert "BBWEB_VISIBILITY_TIMEOUT must be more than 420 seconds" in result.stderr


def test_every_worker_started_consumes_both_queues() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert "deadlines,celery" in compose["services"]["worker"]["command"]
    for script in ("Makefile", ".ci/prod_smoke"):
        lines = (ROOT / script).read_text().splitlines()
        workers = [line for line in lines if "bbweb worker" in line and not line.startswith("#")]
        assert workers and all("-Q deadlines,celery" in line for line in workers), script
