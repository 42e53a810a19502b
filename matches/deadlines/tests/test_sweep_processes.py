"""The sweep under real concurrency, a killed worker and a stopped broker (PostgreSQL and
Redis: SQLite serialises every write, and its test database lives in this process only)."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from bbweb.models import OutboxMessage
from matches import services
from matches.deadlines.tests.conftest import STANDARD, put
from matches.models import Decision, Match, Notice, Post
from matches.services import deadlines, play
from teams.models import League, Team
from tools import drill, faults

ROOT = Path(__file__).resolve().parents[3]
# One xdist group: the workers of two test processes would share one broker queue.
pytestmark = [
    pytest.mark.worker,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]
on_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)"
)


def expired_copies(match: Match, n: int) -> list[int]:
    """``n`` matches like ``match`` (a team turn under way) whose turn deadline has passed."""
    put(match, STANDARD)
    fields = match.fields_for_copies()
    fields["turn_deadline_at"] = timezone.now() - timedelta(seconds=1)
    Match.objects.bulk_create([Match(**fields) for _ in range(n)])
    Match.objects.filter(pk=match.pk).update(turn_deadline_at=fields["turn_deadline_at"])
    return list(Match.objects.values_list("pk", flat=True))


def expired_decision_copies(template: Match, n: int) -> list[int]:
    return drill.expired_decisions(template, n)


def deadline_posts_per_match() -> dict[int, int]:
    counts: dict[int, int] = {}
    for match_id in Post.objects.filter(
        kind=Post.Kind.SYSTEM, summary__message="deadline_passed"
    ).values_list("match_id", flat=True):
        counts[match_id] = counts.get(match_id, 0) + 1
    return counts


def sweep_in_two_threads_at_once(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """What each of two sweeps started together applied, in batches small enough that each
    sweep locks several while the other is still at work."""
    monkeypatch.setattr(deadlines, "SWEEP_BATCH", 5)
    slow_settle = play.settle_resolution

    def settle(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.01)  # keep both sweeps inside their transactions at once
        return slow_settle(*args, **kwargs)

    for settling in (play, deadlines):  # a default settles in play, a missed turn in deadlines
        monkeypatch.setattr(settling, "settle_resolution", settle)
    start = threading.Barrier(2)
    applied: list[int] = []

    def run() -> None:
        start.wait()
        try:
            applied.append(services.expire_deadlines())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return applied


@on_postgres
def test_two_sweeps_at_the_same_time_apply_each_deadline_once(
    match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = expired_copies(match, 29)
    applied = sweep_in_two_threads_at_once(monkeypatch)
    assert sum(applied) == len(ids)
    assert all(n > 0 for n in applied), "both sweeps took a share"
    assert deadline_posts_per_match() == {pk: 1 for pk in ids}
    assert services.expire_deadlines() == 0


@on_postgres
def test_two_sweeps_at_the_same_time_apply_turns_and_decisions_once(
    match: Match, reavers: Team, raiders: Team, gm: User, league: League,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    turns = expired_copies(match, 14)
    toss = services.create_match(home=reavers, away=raiders, gm=gm, league=league)
    tosses = expired_decision_copies(toss, 15)
    applied = sweep_in_two_threads_at_once(monkeypatch)
    assert sum(applied) == len(turns) + len(tosses)
    assert all(n > 0 for n in applied), "both sweeps took a share"
    assert deadline_posts_per_match() == {pk: 1 for pk in turns + tosses}
    answered = Decision.objects.filter(match_id__in=tosses).values_list("answered_how", flat=True)
    assert list(answered) == [Decision.AnsweredBy.DEFAULT] * len(tosses)
    assert services.expire_deadlines() == 0


def turn_notices(match: Match, usernames: tuple[str, ...]) -> int:
    return Notice.objects.filter(match=match, kind="turn", user__username__in=usernames).count()


def _env(**extra: str) -> dict[str, str]:
    name = connection.settings_dict["NAME"]
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgres://{connection.settings_dict['USER']}@{connection.settings_dict['HOST']}:{connection.settings_dict['PORT']}/{name}"
    )
    env["CELERY_TASK_ALWAYS_EAGER"] = "0"
    env["BBWEB_SWEEP_SECONDS"] = "1"
    env["BBWEB_OUTBOX_SECONDS"] = "1"
    env.update(extra)
    return env


def _celery(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "celery"),
            "-A",
            "bbweb",
            "worker",
            "--beat",
            "--pool",
            "solo",
            "--loglevel",
            "WARNING",
            "--schedule",
            str(Path(tempfile.mkdtemp()) / "beat"),
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    faults.stop_group(process, sig, 30)


def _wait_for(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url or connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    # A database of the server's own: a worker killed here, or its pool's children, must never
    # take the tasks of the in-process worker tests from the shared queue.
    return url.rsplit("/", 1)[0] + "/15"


@pytest.fixture
def own_redis() -> Iterator[tuple[str, callable]]:  # type: ignore[valid-type]
    """A Redis server of this test's own, which the test stops and starts again."""
    if shutil.which("redis-server") is None or connection.vendor != "postgresql":
        pytest.skip("needs redis-server and PostgreSQL")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        server.append(
            subprocess.Popen(
                [
                    "redis-server",
                    "--port",
                    str(port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ],
                stdout=subprocess.DEVNULL,
            )
        )
        _wait_for(lambda: socket.socket().connect_ex(("127.0.0.1", port)) == 0, 10)

    def stop() -> None:
        process = server.pop()
        process.terminate()
        process.wait(timeout=10)

    start()
    yield f"redis://127.0.0.1:{port}/0", (start, stop)
    while server:
        stop()


def test_a_worker_killed_in_the_middle_of_a_sweep_loses_no_deadline(
    match: Match, redis_url: str
) -> None:
    ids = expired_copies(match, 299)
    env = _env(REDIS_URL=redis_url)
    first = _celery(env)
    try:
        assert _wait_for(lambda: len(deadline_posts_per_match()) >= 5, 60), "no sweep ran"
        _stop(first, signal.SIGKILL)  # in the middle: some applied, most not
    finally:
        _stop(first, signal.SIGKILL)
    done = len(deadline_posts_per_match())
    assert 0 < done < len(ids)
    second = _celery(env)
    try:
        assert _wait_for(lambda: len(deadline_posts_per_match()) == len(ids), 120)
    finally:
        _stop(second)
    assert deadline_posts_per_match() == {pk: 1 for pk in ids}


def test_with_the_broker_down_coaches_post_and_deadlines_catch_up(
    match: Match,
    alice: User,
    own_redis: tuple[str, tuple],  # type: ignore[type-arg]
) -> None:
    url, (start, stop) = own_redis
    put(match, STANDARD)
    stop()
    env = _env(REDIS_URL=url)
    # Both coaches post while Redis is down: the turn passes to the other team; the notice
    # of its turn waits in the outbox, and nothing is lost.
    posted = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.contrib.auth.models import User; from matches import services; "
            "coach = User.objects.get; "
            f"services.declare({match.pk}, coach(username='alice'), "
            "{'action': 'end_turn'}, side='captain'); "
            f"services.declare({match.pk}, coach(username='bob'), "
            "{'action': 'end_turn'}, side='rival')",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert posted.returncode == 0, posted.stderr.decode()
    assert b"broker unavailable" not in posted.stderr  # the posts never asked the broker
    assert match.posts.filter(kind=Post.Kind.DECLARATION).count() == 2
    match.refresh_from_db()
    state = services.load_state(match)
    assert state.active == "away"
    # The away team's "your turn" notice waits in the outbox, keyed by the turn it announces.
    waiting = OutboxMessage.objects.filter(sent_at__isnull=True, task="matches.tasks.notify_turn")
    assert list(waiting.values_list("args", flat=True)) == [
        [match.pk, state.half, "away", state.turn["away"]]
    ]
    # The away team's deadline passes while Redis is still down.
    Match.objects.filter(pk=match.pk).update(turn_deadline_at=timezone.now() - timedelta(seconds=1))
    start()
    worker = _celery(env)
    try:
        assert _wait_for(lambda: deadline_posts_per_match() == {match.pk: 1}, 60)
        assert _wait_for(lambda: not OutboxMessage.objects.filter(sent_at=None).exists(), 60)
        # The notice that waited runs after the away team's turn was ended by its deadline:
        # it tells whoever's turn it is then, the home coaches, as the sweep's own notice
        # does, and its key lets them hear it once.
        home = ("alice", "bob")
        assert _wait_for(lambda: turn_notices(match, home) == 2, 60)
    finally:
        _stop(worker)
    match.refresh_from_db()
    assert services.load_state(match).active == "home"
    assert turn_notices(match, home) == 2
