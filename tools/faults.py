"""Faults made on loopback with the real components, for the fault tests and ``manage.py
fault_drill``: a Redis server of one's own (stopped and started again as an outage), real
Celery workers killed with -9, a mail server that holds its reply while a worker dies, and
PostgreSQL backends terminated. The shared servers are never stopped: the Redis here is started
on a free port, and backends are terminated in one named database only.

A killed worker's work comes back by two clocks: the broker gives its unacknowledged messages
to another worker after the visibility timeout (600 s by default), and a notice or an outbox
row it held is taken over once its lease ends (90 s, 60 s). ``after_a_kill`` does what those
clocks do, at once, so that a drill of minutes can kill workers: it is run only while no
worker is running, as the clocks would only ever give back what nobody holds.
"""

import contextlib
import os
import shutil
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any, NoReturn

import psycopg
from django.utils import timezone
from kombu.connection import Connection

from bbweb.models import OutboxMessage
from matches.models import Notice

ROOT = Path(__file__).resolve().parents[1]


def unavailable(why: str) -> NoReturn:
    """Skip a fault test that lacks a component, or fail it where they are mandatory
    (BBWEB_REQUIRE_WORKER=1, as CI sets)."""
    import pytest

    if os.environ.get("BBWEB_REQUIRE_WORKER") == "1":
        pytest.fail(f"{why}, and the fault tests are mandatory here")
    pytest.skip(why)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(condition: Callable[[], object], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


class OwnRedis:
    """A Redis server of our own on a free loopback port, without persistence."""

    def __init__(self) -> None:
        if shutil.which("redis-server") is None:
            raise RuntimeError("redis-server is not installed")
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no"),
            ],
            stdout=subprocess.DEVNULL,
        )
        if not wait_for(lambda: listening(self.port), 10):
            raise RuntimeError(f"redis-server did not listen on {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def worker_env(database_url: str, redis_url: str, smtp_port: int | None = None) -> dict[str, str]:
    """The environment of a worker (with beat) against these servers, sweeping and relaying
    every second; with ``smtp_port``, sending its mail over SMTP to that loopback port."""
    env = dict(os.environ)
    env |= {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "BBWEB_SWEEP_SECONDS": "1",
        "BBWEB_OUTBOX_SECONDS": "1",
    }
    if smtp_port is not None:
        env |= {
            "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "DJANGO_EMAIL_HOST": "127.0.0.1",
            "DJANGO_EMAIL_PORT": str(smtp_port),
            "DJANGO_EMAIL_USE_TLS": "0",
            "DJANGO_EMAIL_TIMEOUT": "20",
        }
    return env


class Worker:
    """A real Celery worker with beat, in a process group of its own."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.process = subprocess.Popen(
            [
                *(str(Path(sys.executable).parent / "celery"), "-A", "bbweb", "worker"),
                *("--beat", "--pool", "solo", "--loglevel", "WARNING"),
                *("--schedule", str(Path(tempfile.mkdtemp()) / "beat")),
            ],
            cwd=ROOT,
            env=dict(env),
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def kill(self) -> None:
        """SIGKILL: no warm shutdown, nothing acknowledged or given back."""
        self.stop(signal.SIGKILL)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        stop_group(self.process, sig, 60)


def stop_group(process: subprocess.Popen[bytes], sig: int, seconds: float) -> None:
    """Signal a process started in a session of its own, with all it started (beat), and
    SIGKILL them if they outlast ``seconds``: a worker left running would take the tasks of
    whatever uses its broker next."""
    for last in (sig, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, last)
        try:
            process.wait(timeout=seconds)
            return
        except subprocess.TimeoutExpired:
            if last == signal.SIGKILL:
                raise


def after_a_kill(redis_url: str) -> tuple[int, int]:
    """What the visibility timeout and the leases do for a killed worker's work, at once:
    its unacknowledged messages back on their queues, the notices and outbox rows it held free
    to take. Only while no worker runs. Returns (messages given back, leases ended)."""
    restoring = Connection(redis_url, transport_options={"visibility_timeout": 0})  # type: ignore[no-untyped-call]
    with restoring as connection:
        channel: Any = connection.default_channel
        unacked = int(channel.client.hlen(channel.unacked_key))
        channel.qos.restore_visible(num=max(unacked, 1))
    now = timezone.now()
    ended = Notice.objects.filter(sent=False, sending_until__gt=now).update(
        sending_until=now - timedelta(seconds=1)
    )
    ended += OutboxMessage.objects.filter(done_at__isnull=True, claimed_until__gt=now).update(
        claimed_until=None
    )
    return unacked, ended


def terminate_backends(settings: Mapping[str, Any]) -> int:
    """End every other connection to the database ``settings`` names, as a restart does."""
    with psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        dbname=settings["NAME"],
        autocommit=True,
    ) as admin:
        row = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(row[0]) if row is not None else 0


def database_url(settings: Mapping[str, Any]) -> str:
    password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
    where = f"{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}"
    return f"postgres://{settings['USER']}{password}@{where}/{settings['NAME']}"


# -- a mail server that holds its reply ------------------------------------------------------


class FakeSmtp(socketserver.ThreadingTCPServer):
    """Just enough SMTP on loopback. Every message it accepts is kept in ``received`` as
    (Message-ID, recipients). ``hold()`` makes it hold its reply to the next message's data
    (``held`` is set then) until ``release()``: the sender's worker can be killed while it
    waits. ``accept_held``: whether the held message counts as delivered although its sender
    never heard the reply (a real server may have taken responsibility for it already)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, accept_held: bool = True) -> None:
        super().__init__(("127.0.0.1", 0), _SmtpSession)
        self.port = int(self.server_address[1])
        self.accept_held = accept_held
        self.received: list[tuple[str, tuple[str, ...]]] = []
        self.lock = threading.Lock()
        self.holding = False
        self.held = threading.Event()
        self.released = threading.Event()
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def hold(self) -> None:
        self.holding, self.released = True, threading.Event()
        self.held.clear()

    def release(self) -> None:
        self.holding = False
        self.released.set()

    def keep(self, message_id: str, recipients: tuple[str, ...]) -> None:
        with self.lock:
            self.received.append((message_id, recipients))

    def close(self) -> None:
        self.release()
        self.shutdown()
        self.server_close()


class _SmtpSession(socketserver.StreamRequestHandler):
    server: FakeSmtp

    def reply(self, line: str) -> None:
        self.wfile.write(f"{line}\r\n".encode())
        self.wfile.flush()

    def handle(self) -> None:
        self.reply("220 fake ESMTP")
        recipients: list[str] = []
        while line := self.rfile.readline():
            verb = line.decode(errors="replace").strip().split(" ")[0].upper()
            if verb == "DATA":
                self.reply("354 go on")
                self._data(tuple(recipients))
                recipients = []
            elif verb == "RCPT":
                recipients.append(line.decode(errors="replace").split(":", 1)[1].strip())
                self.reply("250 ok")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 ok")

    def _data(self, recipients: tuple[str, ...]) -> None:
        message_id = ""
        while (line := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
            if line.lower().startswith(b"message-id:"):
                message_id = line.split(b":", 1)[1].strip().decode()
        server = self.server
        if server.holding and not server.held.is_set():
            if server.accept_held:
                server.keep(message_id, recipients)
            server.held.set()
            server.released.wait(120)
            with contextlib.suppress(OSError):  # the sender is gone
                self.reply("250 queued")
            return
        server.keep(message_id, recipients)
        self.reply("250 queued")
