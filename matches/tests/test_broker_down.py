"""Redis unreachable, with the real settings (no fake publish): posting answers fast and the
tasks wait in the outbox; once Redis is back the relay sends each of them once. Before the
outbox each request that queued a task waited about 6 s for the broker."""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
import redis

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(step: str, env: dict[str, str]) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "matches.tests.broker_down", step],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    answer: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


def test_with_redis_down_posts_answer_fast_and_their_tasks_go_out_once_it_is_back() -> None:
    if shutil.which("redis-server") is None:
        if os.environ.get("BBWEB_REQUIRE_WORKER") == "1":
            pytest.fail("redis-server is missing and the broker tests are mandatory here")
        pytest.skip("needs redis-server (apt-get install -y redis-server)")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3",
            "REDIS_URL": f"redis://127.0.0.1:{port}/0",
            "CELERY_TASK_ALWAYS_EAGER": "0",
        }
        posted = run("post", env)
        assert set(posted["statuses"]) <= {200, 201}, posted
        assert max(posted["seconds"]) < 2.0, posted["seconds"]
        assert posted["waiting"] > 0

        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
            stdout=subprocess.DEVNULL,
        )
        try:
            client = redis.Redis(port=port)
            for _ in range(100):
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.1)
            relayed = run("relay", env)
            assert relayed == {"first": posted["waiting"], "second": 0, "waiting": 0}
            assert client.llen("celery") == posted["waiting"]
        finally:
            server.terminate()
            server.wait(timeout=10)
