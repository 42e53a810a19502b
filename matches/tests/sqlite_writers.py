"""Run by test_sqlite_writers.py in a process of its own, against a SQLite file database (the
zero-setup default): API requests that write at the same moment as a worker sweeping
deadlines and coaches chatting, each thread with its own connection. Prints one JSON line:
the status of every request, what the threads raised, and whether the record is whole."""

import json
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bbweb.settings")
    django.setup()

    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client

    from bbweb.models import ApiToken
    from matches import services
    from matches.models import Match
    from rules.engine import MatchState
    from rules.engine.randomplay import formation
    from tools import autoplay

    call_command("migrate", verbosity=0)
    match = autoplay.demo_match()
    tokens = {u.username: ApiToken.issue(u) for u in User.objects.all()}
    statuses: list[int] = []
    raised: list[str] = []

    def at_once(*calls: Callable[[], Any]) -> None:
        barrier = threading.Barrier(len(calls))

        def run(call: Callable[[], Any]) -> None:
            try:
                barrier.wait()
                call()
            except Exception as error:
                raised.append(repr(error))
            finally:
                connections.close_all()

        with ThreadPoolExecutor(len(calls)) as pool:
            list(pool.map(run, calls))

    def post(name: str, action: str, body: dict[str, Any]) -> Callable[[], None]:
        def send() -> None:
            response = Client(raise_request_exception=False).post(
                f"/api/matches/{match.pk}/{action}",
                json.dumps(body),
                content_type="application/json",
                headers={"authorization": f"Bearer {tokens[name]}"},
            )
            statuses.append(response.status_code)

        return send

    def chat(name: str) -> Callable[[], None]:
        def write() -> None:
            for n in range(3):
                services.write_post(
                    match.pk, User.objects.get(username=name), kind="ooc", text=f"{n}"
                )

        return write

    def sweeping() -> None:
        for _ in range(5):
            services.sweep()

    pending = match.state["pending"]
    toss = {"home:captain": "alice", "away:captain": "carol"}[pending["to"]]
    decision = {"kind": pending["kind"], "choice": "kick"}
    at_once(
        *(post(toss, "decide", decision) for _ in range(5)), sweeping, chat("bob"), chat("dave")
    )

    match.refresh_from_db()
    state = MatchState.from_json(match.state)
    kicking = state.kicking
    captain = {"home": "alice", "away": "carol"}[kicking]
    plan = formation(state, kicking)
    setup = {
        "player": None,
        "action": "setup",
        "placements": {p: sq for p, sq in plan.items() if state.players[p].side == "captain"},
        "side": "captain",
        "idempotency_key": "setup",
    }
    at_once(
        *(post(captain, "declare", setup) for _ in range(5)), sweeping, chat("bob"), chat("dave")
    )

    match = Match.objects.get(pk=match.pk)
    events = list(match.events.order_by("number").values_list("number", flat=True))
    posts = list(match.posts.order_by("number").values_list("number", flat=True))
    whole = (
        events == list(range(1, len(events) + 1))
        and posts == list(range(1, len(posts) + 1))
        and services.chain_is_intact(match)
    )
    print(json.dumps({"statuses": sorted(statuses), "raised": raised, "whole": whole}))


if __name__ == "__main__":
    main()
