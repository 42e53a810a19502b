"""Every connection to the database terminated (pg_terminate_backend) again and again while
coaches post through a real gunicorn: a request caught in the middle may fail, but every post
is stored once (a coach who sends it again after an error sends the same key), and once the
connections are gone the next request of every web worker succeeds (CONN_HEALTH_CHECKS)."""

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import requests
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from matches.models import Match, Post
from tools import faults

pytestmark = [pytest.mark.xdist_group("worker"), pytest.mark.django_db(transaction=True)]
WORKERS = 2
CLIENTS, POSTS = 3, 12


@pytest.fixture
def web() -> Iterator[str]:
    """A gunicorn on loopback against the test database."""
    if connection.vendor != "postgresql":
        faults.unavailable("backends are terminated with PostgreSQL's pg_terminate_backend")
    port = faults.free_port()
    env = faults.worker_env(faults.database_url(connection.settings_dict), _redis_url())
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "bbweb.wsgi:application"),
            *("-b", f"127.0.0.1:{port}", "-w", str(WORKERS), "--timeout", "60"),
        ],
        cwd=faults.ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert faults.wait_for(lambda: faults.listening(port), 30), "gunicorn did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def _redis_url() -> str:
    return os.environ.get("REDIS_URL", "")


@dataclass
class Tally:
    statuses: list[int] = field(default_factory=list)
    first_failed: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int) -> None:
        with self.lock:
            self.statuses.append(status)


def coach_session(base: str, user: User, match: Match) -> requests.Session:
    client = Client()
    client.force_login(user)
    session = requests.Session()
    session.cookies.set("sessionid", client.cookies["sessionid"].value)
    session.get(f"{base}/matches/{match.pk}/", timeout=30)
    session.headers["X-CSRFToken"] = str(session.cookies["csrftoken"])
    return session


def post_once_each(session: requests.Session, url: str, keys: list[str], tally: Tally) -> None:
    """Each post sent until it is answered without a server error (the same key each time)."""
    for key in keys:
        for attempt in range(10):
            try:
                response = session.post(
                    url,
                    {"kind": "ooc", "text": f"post {key}", "key": key},
                    allow_redirects=False,
                    timeout=30,
                )
                status = response.status_code
            except requests.RequestException:
                status = 599  # the connection itself failed
            tally.add(status)
            if status < 500:
                break
            if attempt == 0:
                with tally.lock:
                    tally.first_failed.append(key)


def test_terminated_backends_cost_no_post_and_the_next_request_succeeds(
    match: Match, web: str
) -> None:
    coaches = [match.home_team.captain, match.away_team.captain, match.gm]
    sessions = [coach_session(web, user, match) for user in coaches[:CLIENTS]]
    url = f"{web}/matches/{match.pk}/posts/"
    keys = [[f"c{c}-p{p}" for p in range(POSTS)] for c in range(CLIENTS)]
    tally = Tally()
    clients = [
        threading.Thread(target=post_once_each, args=(s, url, k, tally))
        for s, k in zip(sessions, keys, strict=True)
    ]
    terminations = 0
    for thread in clients:
        thread.start()
    while any(thread.is_alive() for thread in clients):
        terminations += 1 if faults.terminate_backends(connection.settings_dict) else 0
        time.sleep(1.0)
    for thread in clients:
        thread.join()
    connection.close()  # ours was terminated too
    every_key = [key for some in keys for key in some]
    stored = {key: Post.objects.filter(idempotency_key=key).count() for key in every_key}
    assert stored == dict.fromkeys(every_key, 1), "a post was lost or stored twice"
    failed = [s for s in tally.statuses if s >= 500]
    print(
        f"\n{len(tally.statuses)} requests, {len(failed)} failed ({sorted(set(failed))}), "
        f"{terminations} terminations; of the {len(tally.first_failed)} posts whose first sending "
        f"failed, {Post.objects.filter(idempotency_key__in=tally.first_failed).count()} had "
        "been stored (and were not again)"
    )
    assert len(failed) <= terminations * WORKERS  # only the requests caught mid-flight
    # The connections dropped while idle: the next request of each web worker succeeds.
    faults.terminate_backends(connection.settings_dict)
    connection.close()
    reader = sessions[0]
    answers = [reader.get(f"{web}/matches/{match.pk}/", timeout=30).status_code for _ in range(6)]
    assert answers == [200] * 6
