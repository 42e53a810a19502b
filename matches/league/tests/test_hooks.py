"""A league's webhooks against a receiver the test starts on the loopback: the Discord message's
shape, the JSON hook's signature checked the way the README tells a receiver to, a receiver
down then back (each event once, in order, the retries in the log), a hook that keeps failing
switched off and its GM told, and the addresses a hook may not post to."""

import hashlib
import hmac
import random
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail

from bbweb import outbox
from matches import services
from matches.gm.tests.conftest import play
from matches.league.tests.receiver import Receiver
from matches.models import HookDelivery, LeagueHook, Match
from matches.notices import hooks as sending
from teams.models import League, Team

ALL_EVENTS = list(LeagueHook.Event.values)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    started = Receiver().start()
    yield started
    started.stop()


@pytest.fixture(autouse=True)
def _loopback_allowed(settings: Any) -> None:
    settings.HOOKS_ALLOW_PRIVATE = True


def verified(secret: str, headers: dict[str, str], body: bytes, now: float) -> bool:
    """A receiver's check, written from the README: HMAC-SHA256 keyed with the secret over
    ``TIMESTAMP.BODY``, compared in constant time, the timestamp within five minutes."""
    timestamp = headers["x-bbweb-timestamp"]
    if abs(now - int(timestamp)) > 300:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    given = headers["x-bbweb-signature"].removeprefix("sha256=")
    return hmac.compare_digest(expected.hexdigest(), given)


def _hook(gm: User, league: League, url: str, kind: str, events: list[str]) -> LeagueHook:
    return services.add_hook(league.pk, gm, kind=kind, url=url, events=events, language="en")


def _play_until(match: Match, coaches: dict[str, User], event: str, count: int) -> None:
    """Random legal play until the match has announced ``event`` ``count`` times."""
    rng = random.Random(5)
    for _ in range(40):
        if HookDelivery.objects.filter(match=match, event=event).count() >= count:
            return
        play(match, coaches, rng, 10)
    raise AssertionError(f"no {count} {event} in 400 random steps")


def _deliver_all(hook: LeagueHook) -> None:
    for _ in range(50):
        if sending.deliver(hook.pk) is None:
            return
    raise AssertionError("the hook never finished")


def test_a_discord_hook_posts_an_embed_for_each_turn(
    gm: User, league: League, match: Match, coaches: dict[str, User], receiver: Receiver
) -> None:
    hook = _hook(gm, league, receiver.url, "discord", ["turn_posted", "turn_begins"])
    _play_until(match, coaches, "turn_begins", 2)
    _deliver_all(hook)

    sent = [r.json() for r in receiver.received]
    assert len(sent) == HookDelivery.objects.filter(hook=hook).count() >= 4
    first = sent[0]
    assert first["username"] == "bbweb"
    assert first["allowed_mentions"] == {"parse": []}
    (embed,) = first["embeds"]
    assert embed["title"] == "Reikland Reavers v Orcland Raiders"
    assert embed["url"].endswith(f"/matches/{match.pk}/")
    assert embed["footer"] == {"text": "Liga del Foro"}
    assert [f["name"] for f in embed["fields"]] == ["Home", "Away", "Score"]
    assert embed["fields"][0]["value"] == "Reikland Reavers"
    assert embed["timestamp"]
    sentences = [m["embeds"][0]["description"] for m in sent]
    assert any(" posted turn " in s for s in sentences)
    assert any(s.startswith("Turn ") and "begins (half 1)" in s for s in sentences)
    assert {r.headers["x-bbweb-event"] for r in receiver.received} == {
        "turn_posted",
        "turn_begins",
    }


def test_a_json_hook_is_signed_as_the_readme_says(
    gm: User, league: League, home: Team, away: Team, receiver: Receiver
) -> None:
    hook = _hook(gm, league, receiver.url, "json", ["fixture_scheduled"])
    services.add_fixture(league.pk, gm, round=1, home_id=home.pk, away_id=away.pk)
    outbox.relay()  # what beat runs every few seconds: the task delivers (eagerly, here)

    (request,) = receiver.received
    assert verified(hook.secret, request.headers, request.body, time.time())
    assert not verified(hook.secret, request.headers, request.body + b" ", time.time())
    assert not verified("another secret", request.headers, request.body, time.time())
    assert not verified(hook.secret, request.headers, request.body, time.time() + 600)
    body = request.json()
    assert body["event"] == "fixture_scheduled" == request.headers["x-bbweb-event"]
    assert str(body["id"]) == request.headers["x-bbweb-delivery"]
    assert body["league"] == {"id": league.pk, "name": "Liga del Foro"}
    assert body["fixture"] == {
        "round": 1,
        "home": "Reikland Reavers",
        "away": "Orcland Raiders",
        "scheduled_for": None,
    }
    assert body["url"].endswith(f"/leagues/{league.pk}/")
    assert request.headers["content-type"] == "application/json"


def test_a_receiver_down_then_back_gets_each_event_once_in_order(
    gm: User, league: League, match: Match, coaches: dict[str, User], receiver: Receiver
) -> None:
    hook = _hook(gm, league, receiver.url, "json", ALL_EVENTS)
    receiver.stop()  # down
    _play_until(match, coaches, "turn_begins", 3)
    assert sending.deliver(hook.pk) == 5.0
    assert sending.deliver(hook.pk) == 10.0
    assert sending.deliver(hook.pk) == 20.0
    first = HookDelivery.objects.filter(hook=hook).order_by("pk").first()
    assert first is not None and first.delivered_at is None
    assert [a.ok for a in first.attempts.all()] == [False, False, False]
    assert all(a.status_code is None and a.error for a in first.attempts.all())

    receiver.start()  # back, on the same port
    _deliver_all(hook)
    _deliver_all(hook)  # a second run sends nothing again

    written = list(HookDelivery.objects.filter(hook=hook).order_by("pk"))
    assert [int(r.headers["x-bbweb-delivery"]) for r in receiver.received] == [
        d.pk for d in written
    ]
    assert all(d.delivered_at is not None for d in written)
    log = list(first.attempts.order_by("pk"))
    assert [(a.ok, a.status_code) for a in log] == [
        (False, None),
        (False, None),
        (False, None),
        (True, 204),
    ]
    # In the match's order: its turns as they went, each posted before the next begins.
    events = [(r.json()["event"], r.json()["match"]["turn"]) for r in receiver.received]
    begins = [turn for event, turn in events if event == "turn_begins"]
    assert len(begins) >= 3
    hook.refresh_from_db()
    assert hook.failures == 0 and hook.enabled


def test_a_hook_that_keeps_failing_is_switched_off_and_its_gm_told(
    gm: User,
    league: League,
    home: Team,
    away: Team,
    receiver: Receiver,
    settings: Any,
) -> None:
    settings.HOOKS_FAILURE_LIMIT = 3
    gm.email = "gm@example.org"
    gm.save()
    receiver.status = 500
    hook = _hook(gm, league, receiver.url, "discord", ["fixture_scheduled"])
    services.add_fixture(league.pk, gm, round=1, home_id=home.pk, away_id=away.pk)
    assert sending.deliver(hook.pk) == 5.0
    assert sending.deliver(hook.pk) == 10.0
    assert sending.deliver(hook.pk) is None
    hook.refresh_from_db()
    assert not hook.enabled and hook.disabled_at is not None
    (told,) = mail.outbox
    assert told.to == ["gm@example.org"]
    assert "Liga del Foro" in told.subject and receiver.url in told.body
    delivery = HookDelivery.objects.get(hook=hook)
    assert [a.status_code for a in delivery.attempts.all()] == [500, 500, 500]
    assert sending.deliver(hook.pk) is None  # off: nothing tried
    assert len(receiver.received) == 3

    # Off, it takes no new event; switched on, what waited goes out.
    services.add_fixture(league.pk, gm, round=2, home_id=away.pk, away_id=home.pk)
    assert HookDelivery.objects.filter(hook=hook).count() == 1
    receiver.status = 204
    services.switch_hook(hook.pk, gm, on=True)
    assert sending.deliver(hook.pk) is None
    delivery.refresh_from_db()
    assert delivery.delivered_at is not None
    assert len(receiver.received) == 4


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("ftp://example.org/hook", False),
        ("javascript:alert(1)", False),
        ("http://user:pass@example.org/hook", False),
        ("http://127.0.0.1:9/hook", False),
        ("http://localhost/hook", False),
        ("http://10.1.2.3/hook", False),
        ("http://169.254.169.254/latest/meta-data/", False),
        ("http://[::1]/hook", False),
        ("https://93.184.215.14/hook", True),
    ],
)
def test_a_hook_posts_only_to_public_http_addresses(
    gm: User, league: League, settings: Any, url: str, allowed: bool
) -> None:
    settings.HOOKS_ALLOW_PRIVATE = False
    if allowed:
        assert _hook(gm, league, url, "json", ALL_EVENTS).url == url
        return
    with pytest.raises(services.MatchError):
        _hook(gm, league, url, "json", ALL_EVENTS)
    assert not LeagueHook.objects.exists()


def test_a_hook_checks_its_address_again_at_each_try(
    gm: User, league: League, home: Team, away: Team, receiver: Receiver, settings: Any
) -> None:
    hook = _hook(gm, league, receiver.url, "json", ["fixture_scheduled"])
    settings.HOOKS_ALLOW_PRIVATE = False  # production's rule, after the hook was added
    services.add_fixture(league.pk, gm, round=1, home_id=home.pk, away_id=away.pk)
    assert sending.deliver(hook.pk) == 5.0
    assert receiver.received == []
    (attempt,) = HookDelivery.objects.get(hook=hook).attempts.all()
    assert "private or local" in attempt.error


def test_only_the_league_gm_manages_its_hooks(
    gm: User, otto: User, alice: User, league: League, receiver: Receiver
) -> None:
    for stranger in (otto, alice):
        with pytest.raises(services.MatchError) as refused:
            _hook(stranger, league, receiver.url, "json", ALL_EVENTS)
        assert refused.value.code == "not_gm"
    hook = _hook(gm, league, receiver.url, "json", ALL_EVENTS)
    with pytest.raises(services.MatchError):
        services.remove_hook(hook.pk, otto)
    with pytest.raises(services.MatchError):
        services.switch_hook(hook.pk, alice, on=False)
    with pytest.raises(services.MatchError):
        _hook(gm, league, receiver.url, "json", ["no_such_event"])
    services.remove_hook(hook.pk, gm)
    assert not LeagueHook.objects.exists()


def test_a_deadline_near_is_told_with_its_moment(
    gm: User, league: League, match: Match, coaches: dict[str, User], receiver: Receiver
) -> None:
    hook = _hook(gm, league, receiver.url, "json", ["deadline_near"])
    rng = random.Random(5)
    for _ in range(40):
        match.refresh_from_db()
        if match.turn_deadline_at is not None and match.state.get("pending") is None:
            break
        play(match, coaches, rng, 1)
    deadline = match.turn_deadline_at
    assert deadline is not None
    services.send_deadline_warnings(now=deadline - timedelta(hours=1))
    _deliver_all(hook)
    bodies = [r.json() for r in receiver.received]
    assert bodies and {b["event"] for b in bodies} == {"deadline_near"}
    assert bodies[0]["deadline"] == deadline.isoformat()
    assert bodies[0]["side"] == match.state.get("active", "home")
    services.send_deadline_warnings(now=deadline - timedelta(minutes=30))
    assert HookDelivery.objects.filter(hook=hook).count() == len(bodies)  # each stage once
