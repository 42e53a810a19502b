"""The HTTP load benchmark (``manage.py bench_http``): gunicorn with the production settings
against a database of its own, clients playing their own matches through the JSON API, and a
floor (tools/bench_urls.py) that costs what any request must: the same token check and one
row written, or the session's user and one row read.

Each concurrency level runs rounds; a round runs every kind of request in turn (floor write,
declaration, decision, floor read, poll, match page), all clients at once, so the floor and the
real endpoints see the same machine. The server's CPU is read from /proc for gunicorn's
processes (in nanoseconds) before and after each phase, and divided by that phase's requests."""

import http.client
import os
import queue
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from bbweb.models import ApiToken, OutboxMessage
from matches import services
from matches.models import Match, Post
from rules.engine import MatchState
from rules.engine.randomplay import choose
from tools import autoplay

# Decisions before declarations: a round first answers what the last one left pending.
KINDS = (
    "floor write",
    "decision",
    "declaration",
    "floor read",
    "page floor",
    "poll",
    "JSON read",
    "match page",
    "poll after a change",
    "page after a move",
    "page 50 posts",
    "page 500 posts",
)
FLOOR_OF = {
    "declaration": "floor write",
    "decision": "floor write",
    "page floor": "floor read",
    "poll": "floor read",
    "JSON read": "floor read",
    "match page": "floor read",
    "poll after a change": "floor read",
    "page after a move": "floor read",
    "page 50 posts": "floor read",
    "page 500 posts": "floor read",
}
# What a page costs beyond any HTML page.
SECOND_FLOOR_OF = {
    kind: "page floor"
    for kind in ("match page", "page after a move", "page 50 posts", "page 500 posts")
}
# The matches with a long thread every client reads as a spectator (the page at 50 and at 500
# posts, cached), and the one moved in this process before each "after a move" request, so
# that gunicorn's CPU is the reading alone.
LONG_THREADS = (50, 500)
MOVED = 500
REQUESTS_PER_ROUND = 3  # of each kind, per client, at the levels of few clients
TICK = os.sysconf("SC_CLK_TCK")


class ServerError(Exception):
    pass


class Mover:
    """Moves a match for the clients, one move at a time on one thread, so one connection to
    the database (a thread of each client's would hold one each, fifty at the top level)."""

    def __init__(self) -> None:
        self.asked: queue.Queue[tuple[int, queue.Queue[int]] | None] = queue.Queue()
        self.rng = random.Random(7)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def move(self, match_id: int) -> int:
        """One post on the match, a move while it is in play: the version before it."""
        answer: queue.Queue[int] = queue.Queue()
        self.asked.put((match_id, answer))
        return answer.get()

    def stop(self) -> None:
        self.asked.put(None)
        self.thread.join()

    def _serve(self) -> None:
        try:
            while (asked := self.asked.get()) is not None:
                match_id, answer = asked
                before = Match.objects.values_list("version", flat=True).get(pk=match_id)
                try:
                    autoplay.fill(match_id, 1, self.rng, chat_share=0.0)
                except services.MatchError:  # a declaration the engine refuses: chat instead
                    autoplay.chat(match_id, self.rng)
                answer.put(before)
        finally:
            connections.close_all()


@dataclass
class Player:
    """One client: its match, the coaches' tokens, the home captain's session."""

    port: int
    match: int
    tokens: dict[str, str]
    session: str
    rng: random.Random
    state: dict[str, Any] = field(default_factory=dict)
    pending: dict[str, Any] | None = None
    version: int = 0
    posted: list[tuple[int, int]] = field(default_factory=list)  # (match, post number)
    long: dict[int, int] = field(default_factory=dict)  # posts -> a long thread's match
    seen: int = 0  # the moved match's version before this client's last move

    mover: "Mover | None" = None

    def prepare(self, kind: str) -> None:
        """Before an "after" request, untimed and not in gunicorn: a post on the moved match
        (a move while it is in play), written here; the version before it is the page's."""
        if kind in ("poll after a change", "page after a move") and self.mover is not None:
            self.seen = self.mover.move(self.long[MOVED])

    def request(
        self, method: str, path: str, body: str | None = None, **headers: str
    ) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def api(self, method: str, path: str, actor: str, body: str | None = None) -> tuple[int, Any]:
        import json

        status, payload = self.request(
            method,
            path,
            body,
            Authorization=f"Bearer {self.tokens[actor]}",
            **{"Content-Type": "application/json"},
        )
        return status, json.loads(payload) if payload else None

    def refresh(self) -> None:
        status, current = self.api("GET", f"/api/matches/{self.match}", "home:captain")
        if status != 200:
            raise ServerError(f"GET match answered {status}")
        self._read(current)

    def _read(self, current: dict[str, Any]) -> None:
        self.state, self.version = current["state"], current["version"]
        self.pending = current["pending"]

    def step(self, kind: str) -> int | None:
        """One request of ``kind``: its status, or None when it does not apply now (a decision
        when none is pending, a declaration while one is)."""
        import json

        pending = self.pending
        if kind == "floor write":
            return self.request(
                "POST", f"/bench/floor/{self.match}", "", Authorization=self._bearer()
            )[0]
        if kind == "floor read":
            return self.request("GET", f"/bench/floor/{self.match}", Cookie=self._cookie())[0]
        if kind == "poll":
            path = f"/matches/{self.match}/live/?v={self.version}"
            return self.request("GET", path, Cookie=self._cookie())[0]
        if kind == "page floor":
            return self.request("GET", f"/bench/page/{self.match}", Cookie=self._cookie())[0]
        if kind == "match page":
            return self.request("GET", f"/matches/{self.match}/", Cookie=self._cookie())[0]
        if kind == "JSON read":
            path = f"/api/matches/{self.match}"
            return self.request("GET", path, Authorization=self._bearer())[0]
        if kind == "poll after a change":
            path = f"/matches/{self.long[MOVED]}/live/?v={self.seen}"
            return self.request("GET", path, Cookie=self._cookie())[0]
        if kind == "page after a move":
            path = f"/matches/{self.long[MOVED]}/"
            return self.request("GET", path, Cookie=self._cookie())[0]
        if kind in ("page 50 posts", "page 500 posts"):
            path = f"/matches/{self.long[int(kind.split()[1])]}/"
            return self.request("GET", path, Cookie=self._cookie())[0]
        if kind == "decision":
            if not pending:
                return None
            body = {"kind": pending["kind"], "choice": self.rng.choice(pending["options"])}
            status, answer = self.api(
                "POST", f"/api/matches/{self.match}/decide", pending["to"], json.dumps(body)
            )
        else:
            if pending:
                return None
            actor, declaration = choose(MatchState.from_json(self.state), self.rng, whole=True)
            body = {**declaration.to_json(), "side": actor.side}
            status, answer = self.api(
                "POST", f"/api/matches/{self.match}/declare", str(actor), json.dumps(body)
            )
        if status == 201:
            self.posted.append((self.match, answer["post"]))
            self._read(answer["match"])
        elif status < 500:
            self.refresh()
        return status

    def _bearer(self) -> str:
        return f"Bearer {self.tokens['home:captain']}"

    def _cookie(self) -> str:
        return f"{settings.SESSION_COOKIE_NAME}={self.session}"


@dataclass
class Tally:
    seconds: list[float] = field(default_factory=list)
    wall: float = 0.0
    cpu: float = 0.0
    errors: int = 0

    def line(self, kind: str, *floors: "Tally") -> str:
        n = len(self.seconds)
        if not n:
            return f"  {kind:<19} no request applied"
        ordered = sorted(self.seconds)
        p99 = ordered[min(n - 1, int(n * 0.99))]
        ratios = [f"{self.cpu_per_request / floor.cpu_per_request:5.2f}x" for floor in floors]
        return (
            f"  {kind:<19} {n:5d} req {n / self.wall:7.1f} req/s  p50 "
            f"{statistics.median(ordered) * 1000:7.1f} ms  p99 {p99 * 1000:7.1f} ms  CPU "
            f"{self.cpu_per_request * 1000:6.2f} ms/req  {' '.join(ratios) or '     '}"
            + (f"  {self.errors} 5xx" if self.errors else "")
        )

    @property
    def cpu_per_request(self) -> float:
        return self.cpu / len(self.seconds) if self.seconds else float("nan")


def _cpu(pid: int) -> float:
    """CPU seconds of a process and its descendants still alive (gunicorn's master and
    workers, which live as long as the server), from the scheduler's nanosecond count of each
    thread (``schedstat``): the clock ticks of ``stat`` are 10 ms, coarser than a request."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                total += _task_cpu(task)
                pending += [int(c) for c in (task / "children").read_text().split()]
        except FileNotFoundError:
            continue
    return total


def _task_cpu(task: Path) -> float:
    try:
        return int((task / "schedstat").read_text().split()[0]) / 1e9
    except FileNotFoundError:  # a kernel without schedstat: user and system ticks
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK


def _phase(server: int, players: list[Player], kind: str, per_client: int, tally: Tally) -> None:
    lock = threading.Lock()

    def run(player: Player) -> None:
        for _ in range(per_client):
            player.prepare(kind)
            start = time.perf_counter()
            status = player.step(kind)
            elapsed = time.perf_counter() - start
            if status is None:
                return
            with lock:
                tally.seconds.append(elapsed)
                tally.errors += status >= 500

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    cpu, start = _cpu(server), time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    tally.wall += time.perf_counter() - start
    tally.cpu += _cpu(server) - cpu


def run_level(server: int, players: list[Player], rounds: int, requests: int) -> dict[str, Tally]:
    """``requests`` of each kind (at least one per client and round) in at least ``rounds``
    rounds. A client's declarations in a round stop at the first that opens a question, so a
    level of few clients runs more, shorter rounds: as many declarations as its floor writes,
    not a handful measured against ninety."""
    tallies = {kind: Tally() for kind in KINDS}
    rounds = max(rounds, requests // (len(players) * REQUESTS_PER_ROUND))
    per_client = max(1, requests // (rounds * len(players)))
    for _ in range(rounds):
        for kind in KINDS:
            _phase(server, players, kind, per_client, tallies[kind])
    return tallies


def report(clients: int, tallies: dict[str, Tally]) -> list[str]:
    lines = [f"{clients} client{'s' if clients > 1 else ''}:"]
    for kind in KINDS:
        floors = [tallies[f[kind]] for f in (FLOOR_OF, SECOND_FLOOR_OF) if kind in f]
        lines.append(tallies[kind].line(kind, *floors))
    short, long = (tallies[f"page {n} posts"].cpu_per_request for n in LONG_THREADS)
    lines.append(
        f"  the page at {LONG_THREADS[1]} posts / at {LONG_THREADS[0]}: {long / short:.2f}"
    )
    return lines


QUERIED_DECLARATIONS = 20
WARM_UP_CLIENTS = 10


def queries_per_request(match: Match) -> dict[str, list[int]]:
    """Database queries (BEGIN and COMMIT counted) of declarations and floor writes, in this
    process, once each token has been used (its last use is written once a minute)."""
    import json

    rng = random.Random(9)
    client = Client()
    tokens = {user.pk: ApiToken.issue(user) for user in User.objects.all()}
    token = tokens[match.home_team.captain.pk]
    counts: dict[str, list[int]] = {"declaration": [], "floor write": []}
    with override_settings(ALLOWED_HOSTS=["testserver"], ROOT_URLCONF="tools.bench_urls"):
        for warm in tokens.values():
            client.get(f"/api/matches/{match.pk}", headers={"authorization": f"Bearer {warm}"})
        while len(counts["declaration"]) < QUERIED_DECLARATIONS:
            match = Match.objects.select_related("home_team", "away_team").get(pk=match.pk)
            if MatchState.from_json(match.state).pending is not None:
                autoplay.step(match.pk, rng)
                continue
            user, declaration, side = autoplay.next_declaration(match, rng)
            user_token = tokens[user.pk]
            with CaptureQueriesContext(connection) as queries:
                response = client.post(
                    f"/api/matches/{match.pk}/declare",
                    json.dumps({**declaration, "side": side}),
                    content_type="application/json",
                    headers={"authorization": f"Bearer {user_token}"},
                )
            if response.status_code == 201:
                counts["declaration"].append(len(queries))
            with CaptureQueriesContext(connection) as queries:
                client.post(
                    f"/bench/floor/{match.pk}", headers={"authorization": f"Bearer {token}"}
                )
            counts["floor write"].append(len(queries))
    return counts


def check_posts(players: list[Player]) -> str:
    """Every successful post answered maps to one stored post; numbers without gaps; each
    match's hash chain intact."""
    answered = [pair for player in players for pair in player.posted]
    if len(set(answered)) != len(answered):
        raise AssertionError("two answers named the same post")
    for player in players:
        numbers = list(
            Post.objects.filter(match_id=player.match)
            .order_by("number")
            .values_list("number", flat=True)
        )
        if numbers != list(range(1, len(numbers) + 1)):
            raise AssertionError(f"match {player.match}: post numbers with gaps")
        missing = {n for _m, n in player.posted} - set(numbers)
        if missing:
            raise AssertionError(f"match {player.match}: answered posts not stored: {missing}")
        if not services.chain_is_intact(Match.objects.get(pk=player.match)):
            raise AssertionError(f"match {player.match}: hash chain broken")
    return (
        f"integrity: {len(answered)} posts answered 201, each stored once; post numbers "
        f"without gaps and hash chains intact in all {len(players)} matches"
    )


def database_url() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    where = f"{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}"
    return f"postgres://{s['USER']}{password}@{where}/{s['NAME']}"


def server_env(port: int, static_root: str, secret_key: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CELERY_TASK_ALWAYS")}
    env.update(
        DJANGO_SETTINGS_MODULE="tools.bench_settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secret_key,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DATABASE_URL=database_url(),
        BBWEB_BENCH_STATIC_ROOT=static_root,
        BBWEB_SITE_URL=f"http://127.0.0.1:{port}",
    )
    return env


def start_server(port: int, workers: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
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
            "bbweb.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--error-logfile",
            "-",
            "--log-level",
            "warning",
        ],
        cwd=settings.BASE_DIR,
        env=env,
    )
    for _ in range(300):
        try:
            connection_ = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection_.request("GET", "/healthz")
            if connection_.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise ServerError("gunicorn did not start")


def long_threads() -> dict[int, int]:
    """A public match for each length of thread, played and chatted up to that many posts."""
    rng = random.Random(500)
    out = {}
    for posts in LONG_THREADS:
        match = autoplay.demo_match()
        autoplay.fill(match.pk, posts - match.posts.count(), rng)
        out[posts] = match.pk
    return out


def make_players(port: int, count: int, mover: Mover | None = None) -> list[Player]:
    """Clients of ``count`` demo matches; with a ``mover``, the long threads and the moves
    that the "after" requests read too (bench_live streams without them)."""
    matches = [autoplay.demo_match() for _ in range(count)]
    long = long_threads() if mover is not None else {}
    tokens = {user.pk: ApiToken.issue(user) for user in User.objects.all()}
    players = []
    for n, match in enumerate(matches):
        client = Client()
        client.force_login(match.home_team.captain)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        by_actor = {actor: tokens[user.pk] for actor, user in autoplay.coaches(match).items()}
        player = Player(port, match.pk, by_actor, session, random.Random(n), long=long, mover=mover)
        player.refresh()
        players.append(player)
    return players


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(
    levels: tuple[int, ...], rounds: int, requests: int, workers: int, write: Callable[[str], None]
) -> None:
    port = free_port()
    secret_key = secrets.token_urlsafe(50)  # the server's, which signs the sessions made here
    with tempfile.TemporaryDirectory() as static_root:
        server = start_server(port, workers, server_env(port, static_root, secret_key))
        mover = Mover()
        try:
            with override_settings(SECRET_KEY=secret_key):
                players = make_players(port, max(levels), mover)
            write(
                f"gunicorn ({workers} sync workers, production settings) on "
                f"{connection.vendor}; load average {os.getloadavg()[0]:.2f} at the start; "
                f"a warm-up round of {WARM_UP_CLIENTS} clients first, not counted"
            )
            # Unmeasured: every worker's first requests load what a process loads once (the
            # rules' data, templates, compiled queries), which a server pays at start only.
            run_level(server.pid, players[:WARM_UP_CLIENTS], 1, WARM_UP_CLIENTS)
            ratios = []
            for clients in levels:
                tallies = run_level(server.pid, players[:clients], rounds, requests)
                for line in report(clients, tallies):
                    write(line)
                floor = tallies["floor write"].cpu_per_request
                ratios.append(tallies["declaration"].cpu_per_request / floor)
                if any(t.errors for t in tallies.values()):
                    raise ServerError("5xx answers: see the table")
        finally:
            mover.stop()
            server.terminate()
            server.wait(timeout=30)
    write(f"load average at the end: {os.getloadavg()[0]:.2f}")
    spare = autoplay.demo_match()
    queries = queries_per_request(spare)
    declared, floor_writes = queries["declaration"], queries["floor write"]
    write(
        f"queries per declaration (BEGIN and COMMIT counted), over {len(declared)} "
        f"declarations: median {statistics.median(declared):g}, min {min(declared)}, "
        f"max {max(declared)} (floor write: {statistics.median(floor_writes):g})"
    )
    write(check_posts(players))
    OutboxMessage.objects.filter(task="bench_http.floor").delete()
    write(
        "declaration/floor CPU ratio by level: "
        + ", ".join(f"{c}: {r:.2f}" for c, r in zip(levels, ratios, strict=True))
    )
    write(f"declaration/floor CPU ratio: {max(ratios):.2f}")
