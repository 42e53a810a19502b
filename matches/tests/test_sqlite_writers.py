"""SQLite, the zero-setup default, under writes at the same moment (settings.py: WAL,
IMMEDIATE transactions, a busy timeout). Without them these requests answered 500 "database
is locked". A process of its own: the suite's SQLite test database is in memory."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_writes_at_once_on_a_sqlite_file_answer_no_500_and_keep_the_record_whole() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3",
            "CELERY_TASK_ALWAYS_EAGER": "1",
            "REDIS_URL": "",
        }
        result = subprocess.run(
            [sys.executable, "-m", "matches.tests.sqlite_writers"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["raised"] == []
    assert 500 not in report["statuses"], result.stderr
    # The toss: one answer applied, four find it answered. The setup: applied once, replayed.
    assert report["statuses"] == [200] * 4 + [201] * 2 + [409] * 4
    assert report["whole"]
