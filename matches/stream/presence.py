"""Who is watching a match now: the people whose match page holds its stream open.

Each open stream is one entry of the match's presence, keyed by the stream and naming its
person (``user:<pk>`` or, for a guest, ``ip:<address>``) and the name the page shows. An entry
lives ``ttl()`` seconds; the stream's heartbeat renews it, its closing removes it, and an entry
whose stream died with its process expires. Several tabs of one person are one watcher.

With ``REDIS_URL`` the entries are a sorted set per match in Redis (score: when the entry
expires), so every web node sees every watcher; without it (the single-process demo) they are
kept in the process. Presence is a courtesy: when Redis cannot be reached the stream goes on
and the list shows who it last could.

When someone arrives or leaves, a message goes on the match's ``watch`` channel; the match's
stream passes it on to the page as a ``watching`` event (it carries no version, so the
version dedupe of the stream never drops it) and the page asks for the list again.
"""

import asyncio
import logging
import time
from dataclasses import dataclass

import redis
import redis.asyncio
from django.conf import settings

from bbweb import push

log = logging.getLogger(__name__)
KEY = "bbweb:presence:match:"
KIND = "watch"  # the channel of the arrivals and departures: bbweb:push:watch:<pk>
GUEST = "ip:"

# the demo's presence: match pk -> entry -> when it expires
in_process: dict[int, dict[str, float]] = {}
_clients: dict[asyncio.AbstractEventLoop, redis.asyncio.Redis] = {}


@dataclass(frozen=True)
class Watchers:
    names: list[str]  # the people signed in, each once, in alphabetical order
    guests: int  # the others, each once


def ttl() -> float:
    """An entry outlives two heartbeats missed."""
    return 3.0 * settings.BBWEB_STREAM_HEARTBEAT_SECONDS


def entry(stream: str, person: str, name: str) -> str:
    return f"{stream}|{person}|{name}"


def loop_client() -> redis.asyncio.Redis:
    """This event loop's connection to Redis, made on first use."""
    loop = asyncio.get_running_loop()
    if loop not in _clients:
        _clients.clear()  # a loop per server (or test): the older ones are gone
        _clients[loop] = redis.asyncio.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=1
        )
    return _clients[loop]


async def _store(pk: int, member: str) -> bool:
    """Add or renew ``member``; True if it was new."""
    expires = time.time() + ttl()
    if not settings.REDIS_URL:
        entries = in_process.setdefault(pk, {})
        new = member not in entries
        entries[member] = expires
        return new
    client = loop_client()
    added = await client.zadd(KEY + str(pk), {member: expires})
    await client.expire(KEY + str(pk), int(ttl()) + 1)
    return bool(added)


async def _drop(pk: int, member: str) -> None:
    if not settings.REDIS_URL:
        entries = in_process.get(pk, {})
        entries.pop(member, None)
        if not entries:
            in_process.pop(pk, None)
        return
    await loop_client().zrem(KEY + str(pk), member)


async def _tell(pk: int) -> None:
    """Every stream of the match: its watchers changed."""
    name = push.channel(KIND, pk)
    if not settings.REDIS_URL:
        push.hub.deliver(name, "{}")
        return
    await loop_client().publish(name, "{}")


async def arrive(pk: int, member: str) -> None:
    try:
        await _store(pk, member)
        await _tell(pk)
    except (redis.RedisError, OSError) as error:
        log.warning("presence: could not record a watcher of match %s (%s)", pk, error)


async def renew(pk: int, member: str) -> None:
    try:
        if await _store(pk, member):  # it had expired (Redis was away): it is back
            await _tell(pk)
    except (redis.RedisError, OSError) as error:
        log.warning("presence: could not renew a watcher of match %s (%s)", pk, error)


async def leave(pk: int, member: str) -> None:
    try:
        await _drop(pk, member)
        await _tell(pk)
    except (redis.RedisError, OSError) as error:
        log.warning("presence: could not remove a watcher of match %s (%s)", pk, error)


def _members(pk: int) -> list[str]:
    now = time.time()
    if not settings.REDIS_URL:
        entries = in_process.get(pk, {})
        return [member for member, expires in list(entries.items()) if expires > now]
    client = push.redis_client()
    client.zremrangebyscore(KEY + str(pk), "-inf", now)
    members: list[bytes] = client.zrange(KEY + str(pk), 0, -1)  # type: ignore[assignment]
    return [member.decode() for member in members]


def watchers(pk: int) -> Watchers:
    """Who watches match ``pk`` now (from a sync view)."""
    try:
        members = _members(pk)
    except redis.RedisError as error:
        log.warning("presence: could not read the watchers of match %s (%s)", pk, error)
        members = []
    names: dict[str, str] = {}
    guests: set[str] = set()
    for member in members:
        _stream, person, name = member.split("|", 2)
        if person.startswith(GUEST):
            guests.add(person)
        else:
            names[person] = name
    return Watchers(sorted(names.values(), key=str.casefold), len(guests))
