"""Rate limits kept in Django's cache (Redis in production, so every web process counts the
same attempts): a fixed window per scope and key. ``hit`` counts one attempt; ``blocked`` only
asks. Both answer the seconds to wait (for ``Retry-After``), or None when the attempt may go.

The limits, per scope: (attempts, window in seconds)."""

import hashlib
import logging
import time
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from redis import Redis
from redis.exceptions import RedisError

from bbweb import clientip

log = logging.getLogger(__name__)

LIMITS: dict[str, tuple[int, int]] = {
    "login_pair": (10, 15 * 60),  # wrong passwords for one account from one address
    "login_ip": (20, 15 * 60),  # wrong passwords from one address
    "login_device": (10, 15 * 60),  # wrong passwords from a browser that logged in before
    "signup_ip": (5, 60 * 60),
    "reset_ip": (5, 60 * 60),
    "reset_email": (3, 60 * 60),  # reset mails to one address
    "bad_token_ip": (20, 10 * 60),  # wrong API tokens from one address
    "token": (300, 60),  # requests with one API token (counted before it is checked)
    "mentions": (10, 60 * 60),  # mention mails one author sends
}


def _key(scope: str, key: str) -> str:
    digest = hashlib.sha256(key.strip().casefold().encode()).hexdigest()[:32]
    return f"throttle:{scope}:{digest}"


def _wait(started: float, window: int) -> int:
    return max(1, int(started + window - time.time()) + 1)


def _open_without_the_cache(count: Callable[..., int | None]) -> Callable[..., int | None]:
    """An unreachable cache lets the attempt go: a limit is worth less than a site that
    answers (the sessions and the posts do not need the cache)."""

    def guarded(scope: str, *keys: str) -> int | None:
        try:
            return count(scope, *keys)
        except (RedisError, OSError):
            log.warning("throttle %s: the cache is unreachable; the attempt goes", scope)
            return None

    guarded.__doc__ = count.__doc__
    return guarded


def _redis(name: str) -> tuple[Redis, str] | None:
    """Redis's client and the cache's key for ``name`` when the cache is Redis: a count is
    then one round trip (the window's start is the key's time to live), instead of the three
    or four that the cache's portable calls make."""
    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, RedisCache):
        return None
    key = backend.make_and_validate_key(name)
    client = _CLIENTS.get(backend)
    if client is None:  # Django makes a new one per call, which costs more than the call
        client = _CLIENTS[backend] = backend._cache.get_client(key, write=True)
    return client, key


_CLIENTS: WeakKeyDictionary[RedisCache, Redis] = WeakKeyDictionary()


@_open_without_the_cache
def blocked(scope: str, key: str) -> int | None:
    limit, window = LIMITS[scope]
    name = _key(scope, key)
    redis = _redis(name)
    if redis is not None:
        client, full_key = redis
        pipe = client.pipeline(transaction=False)
        pipe.get(full_key)
        pipe.ttl(full_key)
        count, left = pipe.execute()
        return None if int(count or 0) < limit else max(1, left + 1)
    found = cache.get_many([name, name + ":start"])
    if found.get(name, 0) < limit:
        return None
    return _wait(found.get(name + ":start", time.time()), window)


@_open_without_the_cache
def hit(scope: str, key: str) -> int | None:
    """Count one attempt (atomically: cache.incr); the seconds to wait if it is one too
    many, else None."""
    limit, window = LIMITS[scope]
    name = _key(scope, key)
    redis = _redis(name)
    if redis is not None:
        client, full_key = redis
        pipe = client.pipeline(transaction=True)
        pipe.set(full_key, 0, ex=window, nx=True)
        pipe.incr(full_key)
        pipe.ttl(full_key)
        _new, count, left = pipe.execute()
        return None if count <= limit else max(1, left + 1)
    if cache.add(name, 0, timeout=window):
        cache.set(name + ":start", time.time(), timeout=window)
    try:
        count = cache.incr(name)
    except ValueError:  # the window ran out between add and incr
        cache.set(name, 1, timeout=window)
        cache.set(name + ":start", time.time(), timeout=window)
        count = 1
    if count > limit:
        return _wait(cache.get(name + ":start", time.time()), window)
    return None


@_open_without_the_cache
def hit_unless_blocked(blocked_scope: str, blocked_key: str, scope: str, key: str) -> int | None:
    """``blocked(blocked_scope, blocked_key)``, then ``hit(scope, key)`` if it is not: the
    seconds to wait if either refuses, else None. On Redis both are one script, one round
    trip (and the hit is counted even when the other refuses)."""
    redis = _redis(_key(blocked_scope, blocked_key))
    if redis is None:
        return blocked(blocked_scope, blocked_key) or hit(scope, key)
    client, blocked_name = redis
    hit_name = caches[DEFAULT_CACHE_ALIAS].make_and_validate_key(_key(scope, key))
    limit, window = LIMITS[scope]
    script = _SCRIPTS.get(client)
    if script is None:
        script = _SCRIPTS[client] = client.register_script(_HIT_UNLESS_BLOCKED)
    wait = int(
        script(keys=[blocked_name, hit_name], args=[LIMITS[blocked_scope][0], limit, window])
    )
    return wait or None


# KEYS: the blocking count, the count to hit; ARGV: the blocking limit, the hit's limit and
# window. Answers the seconds to wait, 0 when the attempt may go.
_HIT_UNLESS_BLOCKED = """
local refused = tonumber(redis.call('GET', KEYS[1]) or '0')
if redis.call('SET', KEYS[2], 0, 'EX', ARGV[3], 'NX') then end
local count = redis.call('INCR', KEYS[2])
if refused >= tonumber(ARGV[1]) then
  return math.max(1, redis.call('TTL', KEYS[1]) + 1)
end
if count > tonumber(ARGV[2]) then
  return math.max(1, redis.call('TTL', KEYS[2]) + 1)
end
return 0
"""
_SCRIPTS: WeakKeyDictionary[Redis, Any] = WeakKeyDictionary()


def client_ip(request: HttpRequest) -> str:
    """The address every per-address limit counts: the client's, through the trusted proxies
    only (bbweb/clientip.py)."""
    return clientip.client_ip(request)


def too_many(request: HttpRequest, retry_after: int) -> HttpResponse:
    """The page for a refused attempt: 429 with Retry-After and a message in the reader's
    language."""
    log.info(
        "refused %s %s from %s for %d s",
        request.method,
        request.path,
        client_ip(request),
        retry_after,
    )
    minutes = max(1, (retry_after + 59) // 60)
    message = _("Too many attempts. Try again in %(minutes)d minutes.") % {"minutes": minutes}
    response = render(request, "throttled.html", {"message": message}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
