"""The live push benchmark (``manage.py bench_live``): gunicorn with one uvicorn worker and the
production settings, on PostgreSQL and a Redis of its own (started here, so that it can be
restarted mid-run without touching anybody else's), N streams open across M matches whose
coaches post legal declarations and answer decisions through the JSON API (bench_http's
players).

It prints the latency from each write to each stream's receipt of its message (p50, p99:
measured from the moment the write's request is sent, so the commit lies inside it and the
figure is an upper bound), the memory of the worker per idle stream, the server's CPU per
delivered message (the writes' own CPU included), the messages lost (a stream that has not
reached its match's last version 20 s after the last write) and duplicated (an id received
twice by one stream); then the same with Redis restarted in the middle of the writes: every
stream must come back to its match's last version, the versions committed while Redis was away
told by the database.
"""

import asyncio
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.test.utils import override_settings

from tools import bench_http


@dataclass
class Stream:
    match: int
    received: dict[int, float] = field(default_factory=dict)  # version -> when
    duplicates: int = 0
    open: bool = False


def server_cpu(pid: int) -> float:
    """CPU seconds of the server's processes (gunicorn's master and its worker)."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
                pending += [int(c) for c in (task / "children").read_text().split()]
        except FileNotFoundError:
            continue
    return total


def worker_rss(master: int) -> int:
    """The resident memory (bytes) of gunicorn's worker."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    for line in Path(f"/proc/{children[0]}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise bench_http.ServerError("no worker")


async def follow(port: int, stream: Stream, stop: asyncio.Event) -> None:
    """One browser's EventSource, reconnecting with Last-Event-ID as a browser does."""
    while not stop.is_set():
        last = max(stream.received, default=-1)
        header = f"Last-Event-ID: {last}\r\n" if last >= 0 else ""
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.5)
            continue
        writer.write(
            f"GET /matches/{stream.match}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Accept: text/event-stream\r\n{header}\r\n".encode()
        )
        try:
            await _read(reader, stream, stop)
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            stream.open = False
            writer.close()
        await asyncio.sleep(0.5)


async def _read(reader: asyncio.StreamReader, stream: Stream, stop: asyncio.Event) -> None:
    status = await reader.readline()
    if b" 200 " not in status:
        raise OSError(status.decode().strip())
    while (await reader.readline()).strip():
        pass  # the headers
    stream.open = True
    while not stop.is_set():
        line = await reader.readline()
        if not line:
            return
        if line.startswith(b"id: "):
            version = int(line[4:])
            if version in stream.received:
                stream.duplicates += 1
            else:
                stream.received[version] = time.monotonic()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


class Writes:
    """The coaches' writes, from threads: each answered write's version and when it was sent."""

    def __init__(self, players: list[bench_http.Player]) -> None:
        self.players = players
        self.sent: dict[tuple[int, int], float] = {}  # (match, version) -> when the write left
        self.lock = threading.Lock()

    def play(self, player: bench_http.Player, count: int, pause: float) -> None:
        for _ in range(count):
            kind = "decision" if player.pending else "declaration"
            started = time.monotonic()
            try:
                status = player.step(kind)
            except (OSError, bench_http.ServerError):
                time.sleep(pause)
                continue
            if status in (200, 201):
                with self.lock:
                    self.sent.setdefault((player.match, player.version), started)
            time.sleep(pause)

    def run(self, count: int, pause: float) -> None:
        with ThreadPoolExecutor(len(self.players)) as pool:
            list(pool.map(lambda p: self.play(p, count, pause), self.players))


def tally(streams: list[Stream], writes: Writes) -> dict[str, float]:
    last: dict[int, int] = {}
    for match, version in writes.sent:
        last[match] = max(last.get(match, 0), version)
    latencies, lost = [], 0
    for stream in streams:
        for (match, version), started in writes.sent.items():
            if match == stream.match and version in stream.received:
                latencies.append(stream.received[version] - started)
        if max(stream.received, default=-1) < last.get(stream.match, -1):
            lost += 1
    return {
        "messages": sum(len(s.received) for s in streams),
        "p50": percentile(latencies, 0.5) * 1000,
        "p99": percentile(latencies, 0.99) * 1000,
        "lost": lost,
        "duplicated": sum(s.duplicates for s in streams),
    }


async def settle(streams: list[Stream], writes: Writes, *, longest: float = 20.0) -> None:
    """Until every stream has its match's last version (a message late is not lost), or
    ``longest`` seconds: what has not come by then counts as lost."""
    last: dict[int, int] = {}
    for match, version in writes.sent:
        last[match] = max(last.get(match, 0), version)
    deadline = time.monotonic() + longest
    while time.monotonic() < deadline:
        if all(max(s.received, default=-1) >= last.get(s.match, -1) for s in streams):
            return
        await asyncio.sleep(0.2)


def start_redis(port: int) -> subprocess.Popen[bytes]:
    redis = subprocess.Popen(
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
    time.sleep(0.3)
    return redis


def start_server(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=settings.BASE_DIR,
        env=env,
        check=True,
    )
    server = subprocess.Popen(
        [
            str(bin_dir / "gunicorn"),
            "-c",
            "deploy/gunicorn.conf.py",
            "bbweb.asgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--access-logfile",
            "/dev/null",
            "--log-level",
            "warning",
        ],
        cwd=settings.BASE_DIR,
        env=env,
    )
    for _ in range(300):
        try:
            import http.client

            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            probe.request("GET", "/healthz")
            if probe.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise bench_http.ServerError("gunicorn did not start")


async def measure(
    port: int,
    server: subprocess.Popen[bytes],
    players: list[bench_http.Player],
    connections: int,
    writes_each: int,
    redis_port: int,
    write: Callable[[str], None],
) -> None:
    stop = asyncio.Event()
    streams = [Stream(players[n % len(players)].match) for n in range(connections)]
    before = worker_rss(server.pid)
    tasks = [asyncio.ensure_future(follow(port, s, stop)) for s in streams]
    for _ in range(600):
        if all(s.open for s in streams):
            break
        await asyncio.sleep(0.1)
    opened = sum(s.open for s in streams)
    await asyncio.sleep(2)
    per_stream = (worker_rss(server.pid) - before) / max(opened, 1)
    write(
        f"{opened} of {connections} streams open across {len(players)} matches; "
        f"worker memory per idle stream: {per_stream / 1024:.1f} KiB; "
        f"load average {os.getloadavg()[0]:.2f}"
    )

    for restart in (False, True):
        for stream in streams:
            stream.received.clear()
            stream.duplicates = 0
        writes = Writes(players)
        cpu = server_cpu(server.pid)
        writing = asyncio.get_running_loop().run_in_executor(None, writes.run, writes_each, 0.2)
        if restart:
            await asyncio.sleep(writes_each * 0.2 / 2)
            redis = subprocess.run(["redis-cli", "-p", str(redis_port), "shutdown", "nosave"])
            del redis
            await asyncio.sleep(1.0)
            start_redis(redis_port)
        await writing
        await settle(streams, writes)
        cpu = server_cpu(server.pid) - cpu
        figures = tally(streams, writes)
        label = "with Redis restarted mid-run" if restart else "steady"
        write(
            f"{label}: {len(writes.sent)} writes, {figures['messages']:.0f} messages delivered; "
            f"latency write->receipt p50 {figures['p50']:.0f} ms, p99 {figures['p99']:.0f} ms; "
            f"server CPU per delivered message {cpu / max(figures['messages'], 1) * 1e6:.0f} us "
            f"(the writes' own included); streams behind their match's last version: "
            f"{figures['lost']:.0f}; duplicated: {figures['duplicated']:.0f}; "
            f"streams open at the end: {sum(s.open for s in streams)}; "
            f"load average {os.getloadavg()[0]:.2f}"
        )
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def run(connections: int, matches: int, writes_each: int, write: Callable[[str], None]) -> None:
    port, redis_port = bench_http.free_port(), bench_http.free_port()
    secret_key = secrets.token_urlsafe(50)
    redis = start_redis(redis_port)
    try:
        with tempfile.TemporaryDirectory() as static_root:
            env = bench_http.server_env(port, static_root, secret_key)
            env.update(
                REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
                BBWEB_STREAMS_PER_PERSON=str(connections + 10),
                WEB_CONCURRENCY="1",
            )
            server = start_server(port, env)
            try:
                with override_settings(SECRET_KEY=secret_key):
                    players = bench_http.make_players(port, matches)
                write(
                    f"gunicorn with 1 uvicorn worker (production settings) on PostgreSQL, "
                    f"a Redis of its own; {connections} streams, {matches} matches, "
                    f"{writes_each} writes per match"
                )
                asyncio.run(
                    measure(port, server, players, connections, writes_each, redis_port, write)
                )
            finally:
                server.terminate()
                server.wait(20)
    finally:
        subprocess.run(
            ["redis-cli", "-p", str(redis_port), "shutdown", "nosave"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        redis.wait(5)
