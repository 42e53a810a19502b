"""The production smoke test's player (.ci/prod_smoke runs it with the clean virtualenv):
a short match over HTTP through the JSON API, against gunicorn, PostgreSQL, Redis, a Celery
worker and beat. ``setup`` and ``check`` run inside Django (``manage.py shell``); ``play``
speaks HTTP only, and uses the rules engine (pure Python) to choose legal declarations.

    python .ci/prod_smoke.py play URL SETUP_JSON
"""

import json
import random
import sys
import time
import urllib.error
import urllib.request
from typing import Any

SETUP = """
import json
from django.contrib.auth.models import User
from bbweb.models import ApiToken
from tools import autoplay
match = autoplay.demo_match()
for user in User.objects.all():
    user.email = f"{user.username}@smoke.test"
    user.save(update_fields=["email"])
tokens = {actor: ApiToken.issue(user) for actor, user in autoplay.coaches(match).items()}
print("SETUP " + json.dumps({"match": match.pk, "tokens": tokens}))
"""

DEADLINE = """
from datetime import timedelta
from django.utils import timezone
from matches.models import Match
Match.objects.filter(pk={match}).update(turn_deadline_at=timezone.now() + timedelta(seconds=1))
"""

CHECK = """
import json
from bbweb.models import OutboxMessage
from matches import services
from matches.models import Match, Post
match = Match.objects.get(pk={match})
print("CHECK " + json.dumps({{
    "deadline_posts": Post.objects.filter(
        match=match, kind=Post.Kind.SYSTEM, summary__message="deadline_passed"
    ).count(),
    "chain": services.chain_is_intact(match),
    "unsent": OutboxMessage.objects.filter(sent_at__isnull=True).count(),
}}))
"""


class ServerError(Exception):
    pass


def call(url: str, token: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, payload = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, payload = error.code, error.read()
    if status >= 500:
        raise ServerError(f"{status} from {url}: {payload[:500]!r}")
    return status, json.loads(payload)


def play(base: str, setup: dict[str, Any]) -> None:
    from rules.engine import MatchState
    from rules.engine.randomplay import choose

    match, tokens = setup["match"], setup["tokens"]
    url = f"{base}/api/matches/{match}"
    rng = random.Random(7)
    done = {"declare": 0, "decide": 0}
    for _ in range(60):
        _status, current = call(url, tokens["home:captain"])
        pending = current["pending"]
        if pending is not None:
            choice = pending["default"] if pending["default"] is not None else pending["options"][0]
            body = {"kind": pending["kind"], "choice": choice, "version": current["version"]}
            status, answer = call(f"{url}/decide", tokens[pending["to"]], body)
            kind = "decide"
        else:
            if done["declare"] >= 8 and done["decide"] >= 1 and current["turn_deadline_at"]:
                break
            actor, declaration = choose(MatchState.from_json(current["state"]), rng, whole=True)
            body = {**declaration.to_json(), "side": actor.side, "version": current["version"]}
            status, answer = call(f"{url}/declare", tokens[str(actor)], body)
            kind = "declare"
        if status != 201:
            raise SystemExit(f"{kind} answered {status}: {answer}")
        done[kind] += 1
    print(f"played: {done['declare']} declarations, {done['decide']} decisions")
    if done["declare"] < 8 or done["decide"] < 1:
        raise SystemExit("the match did not reach a turn with a deadline")


def wait_for_deadline(base: str, setup: dict[str, Any], version: int, seconds: float) -> None:
    url = f"{base}/api/matches/{setup['match']}"
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        _status, current = call(url, setup["tokens"]["home:captain"])
        if current["version"] > version:
            print(f"the worker applied the deadline: version {version} -> {current['version']}")
            return
        time.sleep(0.5)
    raise SystemExit("the worker did not apply the deadline")


def version(base: str, setup: dict[str, Any]) -> int:
    _status, current = call(f"{base}/api/matches/{setup['match']}", setup["tokens"]["home:captain"])
    return int(current["version"])


if __name__ == "__main__":
    command = sys.argv[1]
    if command in ("setup", "deadline", "check"):
        setup = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
        code = {"setup": SETUP, "deadline": DEADLINE, "check": CHECK}[command]
        print(code.format(**setup) if command != "setup" else code)
    elif command == "play":
        play(sys.argv[2], json.loads(sys.argv[3]))
    elif command == "version":
        print(version(sys.argv[2], json.loads(sys.argv[3])))
    elif command == "wait":
        wait_for_deadline(sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4]), 60)
    else:
        raise SystemExit(f"unknown command {command}")
