"""Who is watching a match now: the people whose match page holds its stream open, each once
however many tabs they have, guests counted; an arrival and a departure reach the other
streams of the match as a ``watching`` event (which the version dedupe does not drop)."""

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches.models import Match
from matches.stream import presence
from matches.stream.tests.test_redis import through_redis
from matches.stream.tests.test_streams import client_for, in_own_loop

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["through_redis"]


@pytest.fixture(autouse=True)
def nobody_watching() -> Iterator[None]:
    presence.in_process.clear()
    yield
    presence.in_process.clear()


async def messages(response: object) -> AsyncIterator[str]:
    """Every message of the stream but the heartbeats, as they come."""
    buffer = ""
    async for chunk in response.streaming_content:  # type: ignore[attr-defined]
        buffer += chunk.decode()
        while "\n\n" in buffer:
            message, buffer = buffer.split("\n\n", 1)
            if not message.startswith(":"):
                yield message


class Heard:
    """A stream's ``watching`` events, read as they come by a task of their own."""

    def __init__(self, response: object) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.response = response
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in messages(self.response):
            if "event: watching" in message:
                await self.queue.put(message)

    async def next(self) -> str:
        return await asyncio.wait_for(self.queue.get(), 5)

    async def settled(self) -> None:
        """Nothing more heard for a while: what came before is forgotten."""
        await asyncio.sleep(0.5)
        while not self.queue.empty():
            self.queue.get_nowait()

    async def close(self) -> None:
        """As a browser going away: the reading stops, then the stream is closed, in turn (the
        stream's teardown, where its watcher leaves, must not race the reader's cancellation)."""
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.response.streaming_content.aclose()  # type: ignore[attr-defined]


def test_several_tabs_of_one_person_count_once_and_guests_are_counted(
    settings: object, match: Match
) -> None:
    settings.REDIS_URL = ""  # type: ignore[attr-defined]

    async def scenario() -> list[presence.Watchers]:
        seen = []
        await presence.arrive(match.pk, presence.entry("t1", "user:2", "bob"))
        await presence.arrive(match.pk, presence.entry("t2", "user:2", "bob"))
        await presence.arrive(match.pk, presence.entry("t3", "user:1", "alice"))
        await presence.arrive(match.pk, presence.entry("t4", "ip:10.0.0.1", ""))
        await presence.arrive(match.pk, presence.entry("t5", "ip:10.0.0.1", ""))
        await presence.arrive(match.pk, presence.entry("t6", "ip:10.0.0.2", ""))
        seen.append(presence.watchers(match.pk))
        await presence.leave(match.pk, presence.entry("t1", "user:2", "bob"))
        seen.append(presence.watchers(match.pk))  # bob's other tab is still open
        await presence.leave(match.pk, presence.entry("t2", "user:2", "bob"))
        await presence.leave(match.pk, presence.entry("t6", "ip:10.0.0.2", ""))
        seen.append(presence.watchers(match.pk))
        return seen

    seen = in_own_loop(scenario())
    assert seen == [
        presence.Watchers(["alice", "bob"], 2),
        presence.Watchers(["alice", "bob"], 2),
        presence.Watchers(["alice"], 1),
    ]


def test_a_watcher_whose_stream_stopped_renewing_expires(
    settings: object, match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.REDIS_URL = ""  # type: ignore[attr-defined]
    settings.BBWEB_STREAM_HEARTBEAT_SECONDS = 20  # type: ignore[attr-defined]
    in_own_loop(presence.arrive(match.pk, presence.entry("t1", "user:1", "alice")))
    in_own_loop(presence.arrive(match.pk, presence.entry("t2", "user:2", "bob")))
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + 40)
    in_own_loop(presence.renew(match.pk, presence.entry("t2", "user:2", "bob")))
    assert presence.watchers(match.pk) == presence.Watchers(["alice", "bob"], 0)
    monkeypatch.setattr(time, "time", lambda: now + 61)  # alice's three heartbeats missed
    assert presence.watchers(match.pk) == presence.Watchers(["bob"], 0)


def test_through_redis_several_tabs_count_once_and_an_entry_expires(
    through_redis: str, match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> list[presence.Watchers]:
        await presence.loop_client().delete(presence.KEY + str(match.pk))
        await presence.arrive(match.pk, presence.entry("t1", "user:2", "bob"))
        await presence.arrive(match.pk, presence.entry("t2", "user:2", "bob"))
        await presence.arrive(match.pk, presence.entry("t3", "ip:10.0.0.1", ""))
        seen = [presence.watchers(match.pk)]
        await presence.leave(match.pk, presence.entry("t1", "user:2", "bob"))
        seen.append(presence.watchers(match.pk))
        now = time.time()
        monkeypatch.setattr(time, "time", lambda: now + presence.ttl() + 1)
        seen.append(presence.watchers(match.pk))
        await presence.loop_client().aclose()
        return seen

    assert in_own_loop(scenario()) == [
        presence.Watchers(["bob"], 1),
        presence.Watchers(["bob"], 1),
        presence.Watchers([], 0),
    ]


def test_an_arrival_and_a_departure_reach_the_other_streams_of_the_match(
    match: Match, cast: dict[str, User]
) -> None:
    async def scenario() -> tuple[list[str], presence.Watchers, presence.Watchers]:
        alice = Heard(await client_for(cast["alice"]).get(f"/matches/{match.pk}/stream/"))
        await alice.next()  # her own arrival (or, through Redis, the hub's look once it is in)
        await alice.settled()
        erin = Heard(await client_for(cast["erin"]).get(f"/matches/{match.pk}/stream/"))
        heard = [await alice.next()]  # erin arrives
        both = presence.watchers(match.pk)
        await alice.settled()
        await erin.close()
        heard.append(await alice.next())  # erin leaves
        after = presence.watchers(match.pk)
        await alice.close()
        return heard, both, after

    heard, both, after = in_own_loop(scenario())
    assert both == presence.Watchers(["alice", "erin"], 0)
    assert after == presence.Watchers(["alice"], 0)
    # no id: the browser keeps the match's version it had for its reconnection
    assert all(not message.startswith("id:") for message in heard)
    assert _once_settled(match.pk) == presence.Watchers([], 0)


def _once_settled(match_id: int, wait: float = 5.0) -> presence.Watchers:
    """Who watches once the last stream's teardown has run: a closed stream leaves the list
    from its own task, which may finish a moment after the client has closed."""
    until = time.monotonic() + wait
    while (now := presence.watchers(match_id)).names and time.monotonic() < until:
        time.sleep(0.05)
    return now


def test_the_list_reads_as_the_page_shows_it_in_each_language(
    settings: object, match: Match, cast: dict[str, User]
) -> None:
    settings.REDIS_URL = ""  # type: ignore[attr-defined]
    presence.in_process[match.pk] = {
        presence.entry("t1", "user:1", "bob"): time.time() + 60,
        presence.entry("t2", "user:2", "alice"): time.time() + 60,
        presence.entry("t3", "ip:10.0.0.1", ""): time.time() + 60,
        presence.entry("t4", "ip:10.0.0.2", ""): time.time() + 60,
    }
    client = Client()
    client.force_login(cast["erin"])
    answer = client.get(f"/matches/{match.pk}/watching/")
    assert answer.content.decode().strip() == "Watching now: alice, bob (and 2 guests)"
    answer = client.get(f"/matches/{match.pk}/watching/", headers={"accept-language": "es"})
    assert "alice, bob" in answer.content.decode()
    assert "Watching" not in answer.content.decode()
    del presence.in_process[match.pk][presence.entry("t1", "user:1", "bob")]
    del presence.in_process[match.pk][presence.entry("t2", "user:2", "alice")]
    answer = client.get(f"/matches/{match.pk}/watching/")
    assert answer.content.decode().strip() == "Watching now: 2 guests"
