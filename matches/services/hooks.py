"""hooks: a league's webhooks. The GM adds, changes and removes them; the services announce a
league's events to them in the transaction that makes the event, so a delivery exists exactly
when its change is committed, and a hook's deliveries are written in the order of the match's
own changes (each is written under the match's lock). The sending is matches.notices.hooks.
"""

import ipaddress
import secrets
import socket
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.urls import reverse

from matches.models import HookDelivery, LeagueHook, Match
from matches.services import buffer, jobs
from matches.services.actors import AnyUser
from matches.services.core import MatchError, now
from teams.models import League

DELIVER_HOOK = "matches.tasks.deliver_hook"
EVENTS = frozenset(LeagueHook.Event.values)
KINDS = frozenset(LeagueHook.Kind.values)
MAX_HOOKS = 10  # per league


# -- the GM's hooks ------------------------------------------------------------------------------


def _gm_league(league_id: int, user: AnyUser) -> League:
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise MatchError("no_league", "There is no such league.")
    if not user.is_authenticated or user.pk != league.gm_id:
        raise MatchError("not_gm", "Only the league's game master may do that.")
    return league


def _gm_hook(hook_id: int, user: AnyUser) -> LeagueHook:
    hook = LeagueHook.objects.select_for_update().filter(pk=hook_id).first()
    if hook is None:
        raise MatchError("no_hook", "There is no such webhook.")
    _gm_league(hook.league_id, user)
    return hook


def refused_address(url: str) -> str | None:
    """Why a hook may not post to ``url``, or None. Only http and https; and unless
    ``settings.HOOKS_ALLOW_PRIVATE``, no host that resolves to a private, loopback, link-local
    or reserved address: a hook must not become a way to reach the server's own network."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "A webhook's address starts with http:// or https:// and names a host."
    if parts.username or parts.password:
        return "A webhook's address carries no user name or password."
    if settings.HOOKS_ALLOW_PRIVATE:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(parts.hostname, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError):
        return "The webhook's host is not found."
    for *_rest, address in found:
        ip = ipaddress.ip_address(str(address[0]).split("%")[0])
        if not ip.is_global or ip.is_multicast:
            return "A webhook may not post to a private or local address."
    return None


def _checked(kind: str, url: str, events: list[str]) -> tuple[str, str, list[str]]:
    url = url.strip()
    if kind not in KINDS:
        raise MatchError("malformed", "Choose Discord or JSON.")
    unknown = set(events) - EVENTS
    if unknown or not events:
        raise MatchError("malformed", "Choose the events the webhook receives.")
    why = refused_address(url)
    if why is not None:
        raise MatchError("bad_address", why)
    return kind, url, [event for event in LeagueHook.Event.values if event in events]


def add_hook(
    league_id: int, user: AnyUser, *, kind: str, url: str, events: list[str], language: str
) -> LeagueHook:
    """The GM adds a webhook; a signed one gets its own secret, shown on the league's hooks
    page for the receiver to check signatures with."""
    kind, url, events = _checked(kind, url, events)
    with transaction.atomic():
        league = _gm_league(league_id, user)
        if league.hooks.count() >= MAX_HOOKS:
            raise MatchError("too_many", f"A league has at most {MAX_HOOKS} webhooks.")
        return LeagueHook.objects.create(
            league=league,
            kind=kind,
            url=url,
            events=events,
            language=language,
            secret=secrets.token_hex(32),
        )


def switch_hook(hook_id: int, user: AnyUser, *, on: bool) -> LeagueHook:
    """The GM switches a hook off, or on again: switched on, it sends what waited, in order,
    with its count of failures back at zero."""
    with transaction.atomic():
        hook = _gm_hook(hook_id, user)
        hook.enabled, hook.failures, hook.disabled_at = on, 0, None
        hook.save(update_fields=["enabled", "failures", "disabled_at"])
        if on and hook.deliveries.filter(delivered_at__isnull=True).exists():
            jobs.enqueue_on_commit(DELIVER_HOOK, hook.pk)
        return hook


def remove_hook(hook_id: int, user: AnyUser) -> None:
    with transaction.atomic():
        _gm_hook(hook_id, user).delete()


def new_secret(hook_id: int, user: AnyUser) -> LeagueHook:
    with transaction.atomic():
        hook = _gm_hook(hook_id, user)
        hook.secret = secrets.token_hex(32)
        hook.save(update_fields=["secret"])
        return hook


# -- announcing ----------------------------------------------------------------------------------


def match_facts(match: Match) -> dict[str, Any]:
    """What a receiver learns of a match with each of its events."""
    state = match.state or {}
    active = state.get("active", "home")
    return {
        "id": match.pk,
        "url": settings.SITE_URL.rstrip("/") + reverse("matches:detail", args=[match.pk]),
        "home": match.home_team.name,
        "away": match.away_team.name,
        "status": match.status,
        "half": state.get("half"),
        "active": active,
        "turn": state.get("turn", {}).get(active),
        "score": state.get("score", {}),
    }


def _hooks_for(league_id: int | None, event: str) -> list[int]:
    assert event in EVENTS, event
    if league_id is None:
        return []
    writes = buffer.current()
    if writes is not None:
        # In a batch of the sweep: one query for the whole batch, not one per match.
        if "hooks" not in writes.batch.__dict__:
            writes.batch.__dict__["hooks"] = _enabled_hooks()
        hooked = writes.batch.__dict__["hooks"]
        return [pk for pk, events in hooked.get(league_id, []) if event in events]
    return [pk for pk, events in _league_hooks(league_id) if event in events]


def _league_hooks(league_id: int | None) -> list[tuple[int, list[str]]]:
    if league_id is None:
        return []
    enabled = LeagueHook.objects.filter(league_id=league_id, enabled=True)
    return list(enabled.values_list("pk", "events"))


def _enabled_hooks() -> dict[int, list[tuple[int, list[str]]]]:
    found: dict[int, list[tuple[int, list[str]]]] = {}
    enabled = LeagueHook.objects.filter(enabled=True)
    for pk, league_id, events in enabled.values_list("pk", "league_id", "events"):
        found.setdefault(league_id, []).append((pk, events))
    return found


def wanted(league_id: int | None, event: str) -> bool:
    """Whether an enabled hook of the league chose ``event``."""
    return bool(_hooks_for(league_id, event))


def leagues_wanting(event: str) -> frozenset[int]:
    """The leagues with an enabled hook that chose ``event``: one query for a whole sweep."""
    enabled = LeagueHook.objects.filter(enabled=True).values_list("league_id", "events")
    return frozenset(league for league, events in enabled if event in events)


def _queue(hooks: list[int], match_id: int | None, payload: dict[str, Any], key: str) -> int:
    created = HookDelivery.objects.bulk_create(
        [
            HookDelivery(
                hook_id=pk, match_id=match_id, event=payload["event"], key=key, payload=payload
            )
            for pk in hooks
        ],
        ignore_conflicts=True,
    )
    for pk in hooks:
        jobs.enqueue_on_commit(DELIVER_HOOK, pk)
    return len(created)


def announce(league_id: int | None, event: str, key: str, **data: Any) -> int:
    """Queue ``event`` for each enabled hook of the league that chose it, once per ``key``
    (unique per hook, naming the event and what it is about); how many were queued. In the
    caller's transaction: nothing goes out for a change rolled back."""
    hooks = _hooks_for(league_id, event)
    if not hooks:
        return 0
    payload = {"event": event, "occurred_at": now().isoformat(), "league": league_id, **data}
    return _queue(hooks, None, payload, key)


def announce_match(match: Match, event: str, key: str, **data: Any) -> int:
    """As ``announce``, for an event of ``match`` (its facts go along); the key names the
    match. One query per write of the match (kept on the instance the write locked), however
    many events it announces."""
    if buffer.current() is not None:
        hooks = _hooks_for(match.league_id, event)
    else:
        if "league_hooks" not in match.__dict__:
            match.__dict__["league_hooks"] = _league_hooks(match.league_id)
        hooks = [pk for pk, events in match.__dict__["league_hooks"] if event in events]
    if not hooks:
        return 0
    payload = {
        "event": event,
        "occurred_at": now().isoformat(),
        "league": match.league_id,
        "match": match_facts(match),
        **data,
    }
    return _queue(hooks, match.pk, payload, f"{event}:{match.pk}:{key}")
