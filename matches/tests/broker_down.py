"""Run by test_broker_down.py in processes of its own, against a SQLite file database and the
REDIS_URL it is given. ``post``: plays a match through the JSON API and prints, as JSON, each
request's status and seconds and how many tasks wait in the outbox. ``relay``: runs the relay
twice and prints what each run sent."""

import json
import os
import random
import sys
import time

import django


def post() -> dict[str, object]:
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from bbweb.models import ApiToken, OutboxMessage
    from matches.models import Match
    from rules.engine import MatchState
    from tools import autoplay

    call_command("migrate", verbosity=0)
    match = autoplay.demo_match()
    tokens = {u.pk: ApiToken.issue(u) for u in User.objects.all()}
    client = Client(raise_request_exception=False)
    rng = random.Random(2)
    answers: list[tuple[int, float]] = []
    for _ in range(30):
        match = Match.objects.select_related("home_team", "away_team").get(pk=match.pk)
        pending = MatchState.from_json(match.state).pending
        if pending is not None:
            user = autoplay.coaches(match)[pending.to]
            action = "decide"
            body = {"kind": pending.kind, "choice": rng.choice(pending.options)}
        else:
            user, body, side = autoplay.next_declaration(match, rng)
            action = "declare"
            body = {**body, "side": side}
        start = time.perf_counter()
        response = client.post(
            f"/api/matches/{match.pk}/{action}",
            json.dumps(body),
            content_type="application/json",
            headers={"authorization": f"Bearer {tokens[user.pk]}"},
        )
        answers.append((response.status_code, time.perf_counter() - start))
    return {
        "statuses": [status for status, _seconds in answers],
        "seconds": [seconds for _status, seconds in answers],
        "waiting": OutboxMessage.objects.filter(sent_at__isnull=True).count(),
    }


def relay() -> dict[str, object]:
    from bbweb import outbox
    from bbweb.models import OutboxMessage

    return {
        "first": outbox.relay(),
        "second": outbox.relay(),
        "waiting": OutboxMessage.objects.filter(sent_at__isnull=True).count(),
    }


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bbweb.settings")
    django.setup()
    print(json.dumps(post() if sys.argv[1] == "post" else relay()))
