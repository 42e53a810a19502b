"""The streams of server-sent events: one per match (its page), one per live table (the
referee's page and each phone) and one per person (the home page and "My matches").

Each is an async view. It checks who may read at connect, as the page would, then holds the
connection open on the process's hub (bbweb/push.py): a message tells the page that what it
follows has new heads, and the page asks for what changed along its usual poll, which decides
again what this reader may see. So nothing a reader may not see goes on the wire.

The id of a message is the match's version (the number each of its changes gets): a browser
that reconnects sends the last it had as ``Last-Event-ID`` and hears at once of anything newer
that the database holds; nothing older than what it has is sent again.
"""

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from bbweb import push
from bbweb.clientip import client_ip
from matches.live import services as live_services
from matches.live.models import LiveMatch
from matches.models import Match
from matches.services import may_read
from matches.stream import presence

Answer = HttpResponse | StreamingHttpResponse
WATCHING = "event: watching\ndata: {}\n\n"  # no id: the browser keeps the version it had
_open: dict[str, int] = {}  # the streams open in this process, by person
# The streams reading the database at once in this process (at connect): a thousand browsers
# reconnecting together would otherwise ask for a thousand of its connections.
ADMITTING = 4
_gates: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def _gate() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    if loop not in _gates:
        _gates.clear()  # a loop of its own per server (or test): the older ones are gone
        _gates[loop] = asyncio.Semaphore(ADMITTING)
    return _gates[loop]


def _match_heads(pks: list[int]) -> dict[int, push.Heads]:
    rows = Match.objects.filter(pk__in=pks).values_list(
        "pk", "version", "last_post_number", "last_event_number"
    )
    return {pk: {"v": v, "post": post, "event": event} for pk, v, post, event in rows}


def _live_heads(pks: list[int]) -> dict[int, push.Heads]:
    rows = LiveMatch.objects.filter(pk__in=pks).values_list("pk", "version")
    return {pk: {"v": v} for pk, v in rows}


push.register_heads("match", _match_heads)
push.register_heads("live", _live_heads)


def match_heads(match: Match) -> push.Heads:
    """What a match's message says, as the write path publishes it."""
    return {"v": match.version, "post": match.last_post_number, "event": match.last_event_number}


def _last_event_id(request: HttpRequest) -> int:
    """The version the browser last had (its reconnection's header, or the page's ``v``)."""
    text = request.headers.get("Last-Event-ID") or request.GET.get("v") or ""
    return int(text) if text.isdigit() else -1


def _person(request: HttpRequest, user: AbstractBaseUser | AnonymousUser) -> str:
    return f"user:{user.pk}" if user.is_authenticated else f"ip:{client_ip(request)}"


def _too_many(person: str) -> HttpResponse | None:
    if _open.get(person, 0) < settings.BBWEB_STREAMS_PER_PERSON:
        return None
    return HttpResponse("Too many open streams.", status=429, content_type="text/plain")


def _after_checks[**P, T](check: Callable[P, T]) -> Callable[P, Awaitable[T]]:
    """``check`` run in the request's thread, then the database connection it used closed: a
    stream lives for hours and must not hold one of the database's few connections."""

    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return check(*args, **kwargs)
        finally:
            push.release_connections()

    checked = sync_to_async(run)

    async def gated(*args: P.args, **kwargs: P.kwargs) -> T:
        async with _gate():
            return await checked(*args, **kwargs)

    return gated


def _readable_match(request: HttpRequest, pk: int) -> tuple[str, str]:
    """Who the reader is (for the cap) and the name they watch under ("" for a guest)."""
    match = (
        Match.objects.select_related("home_team", "away_team")
        .only(
            "is_public",
            "gm",
            "substitutes",
            "home_team__captain",
            "home_team__rival",
            "away_team__captain",
            "away_team__rival",
        )
        .filter(pk=pk)
        .first()
    )
    if match is None or not may_read(match, request.user):
        raise Http404
    user = request.user
    return _person(request, user), user.get_username() if user.is_authenticated else ""


def _live_reader(request: HttpRequest, pk: int, token: str | None) -> str:
    """The referee's page is the referee's; a phone's stream is its token's (as its page)."""
    match = LiveMatch.objects.filter(pk=pk).only("referee", "state").first()
    if match is None:
        raise Http404
    if token is None:
        if request.user.pk != match.referee_id:
            raise Http404
    elif live_services.player_of(match.state, token) is None:
        raise Http404
    return _person(request, request.user)


def _followed(request: HttpRequest) -> tuple[str, list[int]]:
    """A person's matches still running: as coach (captain, rival, or substitute) or as GM."""
    user = request.user
    if not user.is_authenticated:
        raise Http404
    mine = (
        Q(gm=user)
        | Q(home_team__captain=user)
        | Q(home_team__rival=user)
        | Q(away_team__captain=user)
        | Q(away_team__rival=user)
    )
    pks = (
        Match.objects.filter(mine)
        .exclude(status=Match.Status.FINISHED)
        .values_list("pk", flat=True)
    )
    return _person(request, user), list(pks[: settings.BBWEB_PERSON_STREAM_MATCHES])


def _response(events: AsyncIterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each message on as it comes
    return response


async def _follow(
    person: str,
    kind: str,
    pks: list[int],
    last: int,
    *,
    several: bool = False,
    watcher: str | None = None,
) -> AsyncIterator[str]:
    """Messages for ``kind`` ``pks``: first what the database holds past ``last`` (for one
    thing followed) or a change to look at (for ``several``, after a reconnection), then what
    the hub brings, with a heartbeat when nothing came for a while.

    With ``watcher`` (a match page's stream, one match), the stream is one of the match's
    watchers while it is open (its heartbeat renews it), and passes on to the page each
    arrival or departure of a watcher as a ``watching`` event, which has no version."""
    _open[person] = _open.get(person, 0) + 1
    channels = [push.channel(kind, pk) for pk in pks]
    watch = push.channel(presence.KIND, pks[0]) if watcher is not None else None
    subscription = push.hub.subscribe([*channels, watch] if watch else channels)
    sent: dict[str, int] = {}
    try:
        if watcher is not None:
            await presence.arrive(pks[0], watcher)
        async with _gate():
            heads = await sync_to_async(push.read_heads)(kind, pks)
        yield "retry: 2000\n\n"
        for pk, value in heads.items():
            sent[push.channel(kind, pk)] = value["v"]
            if not several and value["v"] > last >= 0:
                yield push.event(value)
        if several and last >= 0:  # back after a break: whatever it was, look again
            yield push.event({"v": 0}, event_id="0")
        while True:
            item = await subscription.next(settings.BBWEB_STREAM_HEARTBEAT_SECONDS)
            if item is None:
                if watcher is not None:
                    await presence.renew(pks[0], watcher)
                yield push.HEARTBEAT
                continue
            name, value = item
            if name == watch:
                yield WATCHING
                continue
            if value["v"] <= sent.get(name, -1):
                continue  # already sent, or older than what was sent
            sent[name] = value["v"]
            if not several:
                yield push.event(value)
            else:
                pk = int(name.rpartition(":")[2])
                yield push.event({**value, "match": pk}, event_id="0")
    finally:
        push.hub.unsubscribe(subscription)
        if watcher is not None:
            await presence.leave(pks[0], watcher)
        _open[person] -= 1
        if not _open[person]:
            del _open[person]


@require_GET
async def match_stream(request: HttpRequest, pk: int) -> Answer:
    """The match page's stream: a message per change of the match."""
    person, name = await _after_checks(_readable_match)(request, pk)
    watcher = presence.entry(uuid.uuid4().hex, person, name)
    last = _last_event_id(request)
    return _too_many(person) or _response(_follow(person, "match", [pk], last, watcher=watcher))


@require_GET
async def live_stream(request: HttpRequest, pk: int, token: str | None = None) -> Answer:
    """The live table's stream, for the referee's page or a player's phone."""
    person = await _after_checks(_live_reader)(request, pk, token)
    return _too_many(person) or _response(_follow(person, "live", [pk], _last_event_id(request)))


@require_GET
async def person_stream(request: HttpRequest) -> Answer:
    """A person's stream: a message when any of their running matches changes."""
    person, pks = await _after_checks(_followed)(request)
    last = 0 if request.headers.get("Last-Event-ID") else -1
    return _too_many(person) or _response(_follow(person, "match", pks, last, several=True))


@require_GET
def watching(request: HttpRequest, pk: int) -> HttpResponse:
    """Who watches the match now, for its page (asked again at each arrival or departure)."""
    _readable_match(request, pk)
    now = presence.watchers(pk)
    context = {"names": now.names, "guests": now.guests}
    return render(request, "matches/_watching.html", context)
