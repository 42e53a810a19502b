"""Requests that arrive at the same moment, each thread with its own database connection.

Only PostgreSQL locks rows (SQLite runs one writer at a time anyway), so this runs there; CI
sets DATABASE_URL to PostgreSQL. Whatever the interleaving: no event or post is lost,
duplicated or out of order, the hash chain holds, the stored state is the fold of the events,
and a submission sent twice with one idempotency key is applied once."""

import random
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections

from matches import services
from matches.models import Match, Post
from rules.engine import MatchState
from rules.engine.randomplay import formation
from tools import autoplay

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only() -> Iterator[None]:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; CI runs this with DATABASE_URL set")
    yield


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; their results (or the exceptions)."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait()
            return call()
        except Exception as error:  # handed back to the test to assert on
            return error
        finally:
            connections.close_all()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def user(name: str) -> User:
    return User.objects.get(username=name)


def assert_record_is_whole(match: Match) -> None:
    match.refresh_from_db()
    events = list(match.events.order_by("number").values_list("number", flat=True))
    posts = list(match.posts.order_by("number").values_list("number", flat=True))
    assert events == list(range(1, len(events) + 1))
    assert posts == list(range(1, len(posts) + 1))
    assert services.chain_is_intact(match)
    # The stored state is the fold of the events, plus the question a declaration stopped at
    # (its events are stored once the question is answered).
    folded = services.fold(match).to_json(compact=True)
    assert folded["pending"] is None
    assert folded == {**match.state, "pending": None}


def after_the_toss(match: Match) -> tuple[MatchState, str]:
    """The toss winner chose to kick: the kicking team sets up next."""
    to = match.state["pending"]["to"]
    services.answer(match.pk, user({"home:captain": "alice", "away:captain": "carol"}[to]), "kick")
    match.refresh_from_db()
    state = MatchState.from_json(match.state)
    return state, state.kicking


def setup_of(state: MatchState, team: str, side: str) -> dict[str, Any]:
    plan = formation(state, team)
    mine = {pid: sq for pid, sq in plan.items() if state.players[pid].side == side}
    return {"player": None, "action": "setup", "placements": mine}


COACHES = {"home": ("alice", "bob"), "away": ("carol", "dave")}


def test_two_coaches_declaring_and_four_chatting_at_the_same_moment_lose_nothing() -> None:
    match = autoplay.demo_match()
    state, kicking = after_the_toss(match)
    captain, rival = COACHES[kicking]
    posts_before, version_before = match.posts.count(), match.version

    def chat(name: str, n: int) -> Callable[[], Post]:
        return lambda: services.write_post(match.pk, user(name), kind="ooc", text=f"{name} {n}")

    results = at_once(
        lambda: services.declare(
            match.pk, user(captain), setup_of(state, kicking, "captain"), side="captain"
        ),
        lambda: services.declare(
            match.pk, user(rival), setup_of(state, kicking, "rival"), side="rival"
        ),
        *(chat(name, n) for name in ("alice", "bob", "carol", "dave") for n in range(3)),
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert_record_is_whole(match)
    assert match.posts.count() == posts_before + 14
    assert match.version == version_before + 14
    state = MatchState.from_json(match.state)
    assert state.teams[kicking].posted == {"captain", "rival"}
    texts = set(match.posts.filter(kind="ooc").values_list("text", flat=True))
    assert texts == {f"{name} {n}" for name in ("alice", "bob", "carol", "dave") for n in range(3)}


def test_the_same_declaration_sent_four_times_at_once_is_applied_once() -> None:
    match = autoplay.demo_match()
    state, kicking = after_the_toss(match)
    captain = COACHES[kicking][0]
    declaration = setup_of(state, kicking, "captain")
    events_before = match.events.count()

    def send() -> services.Outcome:
        return services.declare(
            match.pk, user(captain), declaration, side="captain", idempotency_key="setup-1"
        )

    outcomes = at_once(send, send, send, send)
    assert all(isinstance(o, services.Outcome) for o in outcomes), outcomes
    assert len({o.post.pk for o in outcomes}) == 1
    assert sorted(o.replayed for o in outcomes) == [False, True, True, True]
    assert_record_is_whole(match)
    assert match.posts.filter(idempotency_key="setup-1").count() == 1
    assert match.events.filter(type="declaration").count() == 2  # start_match, this setup
    assert match.events.count() == events_before + 2  # the declaration and its setup event


def test_the_same_answer_sent_twice_at_once_is_applied_once() -> None:
    match = autoplay.demo_match()
    to = match.state["pending"]["to"]
    winner = user({"home:captain": "alice", "away:captain": "carol"}[to])

    def send() -> services.Outcome:
        return services.answer(match.pk, winner, "receive", idempotency_key="toss")

    outcomes = at_once(send, send)
    assert all(isinstance(o, services.Outcome) for o in outcomes), outcomes
    assert sorted(o.replayed for o in outcomes) == [False, True]
    assert_record_is_whole(match)
    assert match.decisions.filter(answered_at__isnull=False).count() == 1
    assert match.posts.filter(kind="decision").count() == 1


def test_two_different_answers_at_once_one_wins_the_other_finds_nothing_pending() -> None:
    match = autoplay.demo_match()
    to = match.state["pending"]["to"]
    winner = user({"home:captain": "alice", "away:captain": "carol"}[to])
    results = at_once(
        lambda: services.answer(match.pk, winner, "kick", idempotency_key="a"),
        lambda: services.answer(match.pk, winner, "receive", idempotency_key="b"),
    )
    refused = [r for r in results if isinstance(r, services.MatchError)]
    assert len(refused) == 1 and refused[0].code == "no_decision_pending"
    assert_record_is_whole(match)
    assert match.posts.filter(kind="decision").count() == 1


def test_a_burst_of_random_play_and_chat_keeps_the_record_whole() -> None:
    """Random legal play in one thread while the four coaches chat in theirs."""
    match = autoplay.demo_match()
    rng = random.Random(3)

    def play() -> None:
        for _ in range(40):
            autoplay.step(match.pk, rng)

    def chat(name: str) -> Callable[[], None]:
        def run() -> None:
            for n in range(10):
                services.write_post(match.pk, user(name), kind="ic", text=f"{name} {n}")

        return run

    results = at_once(play, *(chat(name) for name in ("alice", "bob", "carol", "dave")))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert_record_is_whole(match)
    assert match.posts.filter(kind="ic").count() == 40
