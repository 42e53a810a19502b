"""Live push: what changed reaches every open screen at once, over server-sent events.

A writer calls ``publish`` inside its transaction; the message leaves once the transaction
commits (never for a change rolled back). It names the thing that changed (a match, a live
table) and its new heads: its version, the number each change of it gets, and the numbers of
its last post and event. It carries nothing a reader could not read on the page itself: a
screen that hears of a change asks the page for it (its usual poll), and the page decides what
this reader may see. A private match, a GM's panel or the throws of a live table before the
reveal are never on the stream's wire.

With ``REDIS_URL`` the message goes through Redis pub/sub, so any web node delivers any match's
change; each process keeps one subscription (``Hub``) whatever the number of its streams.
Without Redis (the demo, one process) it goes through the process itself.

Nothing is missed: a stream subscribes before it reads the heads from the database, and when
the hub (re)connects to Redis it reads the heads of every thing its streams follow, in one
query (``register_heads``), so a change published while Redis was away reaches them too.
Nothing is doubled: a stream sends a version only if it is newer than the last it sent.
"""

import asyncio
import contextlib
import json
import logging
import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections, transaction

log = logging.getLogger(__name__)
PREFIX = "bbweb:push:"
QUIET = 3.0  # after a failed publish, the seconds this process stops trying
Heads = dict[str, Any]
HeadsReader = Callable[[list[int]], dict[int, Heads]]
_readers: dict[str, HeadsReader] = {}
_quiet_until = 0.0
_client: redis.Redis | None = None
_client_lock = threading.Lock()


def channel(kind: str, pk: int) -> str:
    return f"{PREFIX}{kind}:{pk}"


def register_heads(kind: str, reader: HeadsReader) -> None:
    """How the heads of things of ``kind`` are read from the database: ``reader(pks)`` gives
    each pk's heads (a dict with at least ``v``, the version)."""
    _readers[kind] = reader


def read_heads(kind: str, pks: list[int]) -> dict[int, Heads]:
    """The heads as the database has them now, then the connection closed: a stream lives for
    hours and must not hold one of the database's few connections meanwhile."""
    try:
        return _readers[kind](pks)
    finally:
        release_connections()


def release_connections() -> None:
    """Close this thread's database connections, all but one inside a transaction: only a
    test's (the test client runs a view in the test's own thread and transaction) can be."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def publish(kind: str, pk: int, heads: Heads) -> None:
    """Tell every stream following ``kind`` ``pk`` its new heads, once the transaction commits."""
    message = json.dumps(heads, separators=(",", ":"))
    # robust: a message that cannot go never fails the write it tells of
    transaction.on_commit(lambda: _send(channel(kind, pk), message), robust=True)


def _send(name: str, message: str) -> None:
    global _quiet_until
    if not settings.REDIS_URL:
        hub.deliver_threadsafe(name, message)
        return
    if time.monotonic() < _quiet_until:
        return  # the streams read what they missed when the hub is back
    try:
        _redis().publish(name, message)
    except redis.RedisError as error:
        _quiet_until = time.monotonic() + QUIET
        log.warning("push: publishing to Redis failed (%s); quiet for %.0f s", error, QUIET)


def redis_client() -> redis.Redis:
    """This process's (sync) connection to Redis, for a view's quick read."""
    return _redis()


def _redis() -> redis.Redis:
    global _client
    with _client_lock:
        if _client is None:
            _client = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=1
            )
        return _client


class Subscription:
    """One stream's queue: (channel, heads) pairs, in the order they came."""

    def __init__(self, channels: Iterable[str]) -> None:
        self.channels = list(channels)
        self.queue: asyncio.Queue[tuple[str, Heads]] = asyncio.Queue()

    async def next(self, timeout: float) -> tuple[str, Heads] | None:
        """The next message, or None after ``timeout`` seconds without one."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


class Hub:
    """The streams of this process by channel, and the one Redis subscription that feeds them."""

    def __init__(self) -> None:
        self.subscribers: dict[str, set[Subscription]] = defaultdict(set)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listener: asyncio.Task[None] | None = None
        self.connected = False
        self.name = f"bbweb-push-{os.getpid()}-{id(self)}"  # its connection, in CLIENT LIST

    def subscribe(self, channels: Iterable[str]) -> Subscription:
        """A queue for the messages of ``channels``, until ``unsubscribe``."""
        self._start()
        subscription = Subscription(channels)
        for name in subscription.channels:
            self.subscribers[name].add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        for name in subscription.channels:
            followers = self.subscribers.get(name)
            if followers is not None:
                followers.discard(subscription)
                if not followers:
                    del self.subscribers[name]

    def open_streams(self) -> int:
        return len({s for followers in self.subscribers.values() for s in followers})

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is not loop:  # a new loop (a test's, a restarted server's): start anew
            self.loop, self.listener, self.connected = loop, None, False
        if settings.REDIS_URL and (self.listener is None or self.listener.done()):
            self.listener = loop.create_task(self._listen(settings.REDIS_URL))

    def deliver_threadsafe(self, name: str, message: str) -> None:
        """From any thread (a sync view's, under the in-process channel)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.deliver, name, message)

    def deliver(self, name: str, message: str | bytes) -> None:
        followers = self.subscribers.get(name)
        if not followers:
            return
        heads = json.loads(message)
        for subscription in followers:
            subscription.queue.put_nowait((name, heads))

    async def _listen(self, url: str) -> None:
        pause = 0.2
        while True:
            again: asyncio.TimerHandle | None = None
            client = redis.asyncio.Redis.from_url(
                url, socket_connect_timeout=1, client_name=self.name
            )
            try:
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                await pubsub.psubscribe(PREFIX + "*")
                self.connected, pause = True, 0.2
                await self._catch_up()
                # and once more when every writer's quiet time begun while Redis was away is
                # over: what they did not publish meanwhile is in the database
                again = asyncio.get_running_loop().call_later(
                    QUIET + 1, lambda: asyncio.ensure_future(self._catch_up())
                )
                while True:
                    message = await pubsub.get_message(timeout=30.0)
                    if message is not None and message["type"] == "pmessage":
                        self.deliver(message["channel"].decode(), message["data"])
            except (redis.RedisError, OSError) as error:
                if again is not None:
                    again.cancel()
                if self.connected:
                    log.warning("push: the subscription to Redis was lost (%s)", error)
                self.connected = False
            finally:
                with contextlib.suppress(redis.RedisError, OSError):
                    await client.aclose()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)

    async def _catch_up(self) -> None:
        """Once subscribed: the heads of all that is followed, for what was published while the
        subscription was away (or before it was made)."""
        by_kind: dict[str, list[int]] = defaultdict(list)
        for name in list(self.subscribers):
            kind, _, number = name.removeprefix(PREFIX).partition(":")
            if kind in _readers:
                by_kind[kind].append(int(number))
            else:  # a thing without heads (who watches a match): a nudge to look again
                self.deliver(name, "{}")
        for kind, pks in by_kind.items():
            heads = await sync_to_async(read_heads, thread_sensitive=False)(kind, pks)
            for pk, value in heads.items():
                self.deliver(channel(kind, pk), json.dumps(value))


hub = Hub()


def event(heads: Heads, *, name: str = "change", event_id: str | None = None) -> str:
    """One server-sent event."""
    lines = [f"id: {event_id if event_id is not None else heads['v']}", f"event: {name}"]
    lines.append("data: " + json.dumps(heads, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


HEARTBEAT = ": still here\n\n"
