"""Server figures of a long match thread: the time and the database queries of a declaration
(services.declare) and of the match page (GET matches:detail), as medians. The CPU time of
the process is printed beside the wall time: on a loaded machine it says what the server
itself spent (the database's own time is in the wall time only)."""

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, reset_queries
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import services
from matches.models import Match
from rules.engine import MatchState
from tools import autoplay


@dataclass(frozen=True)
class Figures:
    posts: int
    declare_ms: float
    declare_cpu_ms: float
    declare_queries: float
    page_ms: float
    page_cpu_ms: float
    page_queries: float
    page_bytes: int
    database: str


def _measure(call: Callable[[], Any]) -> tuple[float, float, int]:
    reset_queries()  # the log keeps 9000 queries at most: a full one would count none
    with CaptureQueriesContext(connection) as queries:
        start, cpu = time.perf_counter(), time.process_time()
        call()
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return elapsed * 1000, cpu * 1000, len(queries)


def run(posts: int = 500, samples: int = 30, seed: int = 1) -> Figures:
    rng = random.Random(seed)
    match = autoplay.demo_match()
    autoplay.fill(match.pk, posts - match.posts.count(), rng, chat_share=0.7)
    client = Client()
    client.force_login(User.objects.get(username="alice"))
    url = reverse("matches:detail", args=[match.pk])
    size = len(client.get(url).content)  # the first request warms the caches up
    pages = [_measure(partial(client.get, url)) for _ in range(samples)]
    declares: list[tuple[float, float, int]] = []
    while len(declares) < samples:
        match = Match.objects.select_related("home_team", "away_team").get(pk=match.pk)
        if match.status != Match.Status.IN_PLAY:
            raise RuntimeError("the match ended before the samples were taken: ask for fewer")
        if MatchState.from_json(match.state).pending is not None:
            autoplay.step(match.pk, rng)
            continue
        user, declaration, side = autoplay.next_declaration(match, rng)
        declares.append(_measure(partial(services.declare, match.pk, user, declaration, side=side)))
    return Figures(
        posts=posts,
        declare_ms=statistics.median(t for t, _, _ in declares),
        declare_cpu_ms=statistics.median(c for _, c, _ in declares),
        declare_queries=statistics.median(q for _, _, q in declares),
        page_ms=statistics.median(t for t, _, _ in pages),
        page_cpu_ms=statistics.median(c for _, c, _ in pages),
        page_queries=statistics.median(q for _, _, q in pages),
        page_bytes=size,
        database=connection.vendor,
    )


def report(f: Figures) -> str:
    return "\n".join(
        [
            f"match thread of {f.posts} posts on {f.database}:",
            f"  declaration (services.declare): median {f.declare_ms:.1f} ms "
            f"(CPU {f.declare_cpu_ms:.1f} ms), {f.declare_queries:g} queries",
            f"  match page (GET matches:detail): median {f.page_ms:.1f} ms "
            f"(CPU {f.page_cpu_ms:.1f} ms), {f.page_queries:g} queries, "
            f"{f.page_bytes / 1024:.0f} KiB",
        ]
    )
