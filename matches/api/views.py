"""The JSON API for bots and other clients: the match page's operations, through matches.services.

A request is authenticated by the session (and then CSRF applies to what it posts) or by a
user's API token in ``Authorization: Bearer <token>`` (no cookie is involved, so no CSRF).
Errors are ``{"error": code, "message": text}``; a refused request changes nothing.
"""

import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import quote_etag
from django.views.decorators.csrf import csrf_exempt

from bbweb import throttle
from bbweb.models import ApiToken
from matches import services
from matches.access import readable_match
from matches.api import schema as api_schema
from matches.models import Decision, Match
from matches.record.markup import POST_TEXT_MAX
from matches.verification import exports
from rules.engine import options as turn_options
from rules.engine.options import PlayerOptions, Target

AnyUser = AbstractBaseUser | AnonymousUser
View = Callable[..., HttpResponse]

HTTP_STATUS = {
    "not_authenticated": 401,
    "bad_token": 401,
    "token_expired": 401,
    "csrf_failed": 403,
    "not_your_player": 403,
    "not_captain": 403,
    "not_in_match": 403,
    "no_match": 404,
    "no_route": 404,
    "method_not_allowed": 405,
    "decision_pending": 409,
    "no_decision_pending": 409,
    "wrong_decision": 409,
    "version_conflict": 409,
    "throttled": 429,
    "not_in_play": 409,
    "not_your_turn": 409,
    "wrong_phase": 409,
}  # any other code (malformed, the rules' refusals: too_far, path_illegal...) is a 400
EVENTS_PAGE = 500


def _error(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": code, "message": message}, status=HTTP_STATUS.get(code, 400))


class Throttled(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def _not_allowed(method: str) -> JsonResponse:
    response = _error("method_not_allowed", f"Use {method}.")
    response["Allow"] = method
    return response


def _csrf_refused(request: HttpRequest) -> bool:
    check = CsrfViewMiddleware(lambda request: HttpResponse())
    return check.process_view(request, _error, (), {}) is not None


def _user(request: HttpRequest) -> AnyUser:
    """The bearer token's user, else the session's; raises when neither may go on."""
    header = request.headers.get("Authorization", "")
    if header:
        address = throttle.client_ip(request)
        scheme, _sep, token = header.partition(" ")
        token = token.strip()
        # One round trip: the address's wrong tokens and this token's requests (a user has
        # few tokens: bbweb.models.MAX_TOKENS_PER_USER).
        wait = throttle.hit_unless_blocked("bad_token_ip", address, "token", token)
        if wait is not None:
            raise Throttled(wait)
        found = ApiToken.find(token) if scheme.lower() == "bearer" else None
        if found is None or found.expired:
            throttle.hit("bad_token_ip", address)
        if found is None:
            raise services.MatchError("bad_token", "The API token is not valid.")
        if found.expires_at is not None and found.expired:
            raise services.MatchError(
                "token_expired",
                f"The API token {found.name!r} expired at {found.expires_at.isoformat()}: "
                "make a new one on your profile page.",
            )
        return found.user
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise services.MatchError("not_authenticated", "Log in or send an API token.")
        if _csrf_refused(request):
            raise services.MatchError("csrf_failed", "The CSRF token is missing or wrong.")
    return request.user


def api_view(method: str) -> Callable[[View], View]:
    """Only ``method``; the user as the view's second argument; MatchError as JSON."""

    def decorate(view: View) -> View:
        @csrf_exempt  # the session's requests are checked in _user; the token's need no check
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method != method:
                return _not_allowed(method)
            try:
                return view(request, _user(request), *args, **kwargs)
            except services.MatchError as error:
                return _error(error.code, error.message)
            except Throttled as refused:
                response = _error(
                    "throttled", f"Too many requests; try again in {refused.retry_after} s."
                )
                response["Retry-After"] = str(refused.retry_after)
                return response

        return wrapped

    return decorate


def _body(request: HttpRequest) -> dict[str, Any]:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise services.MatchError("malformed", "The body is not JSON.") from None
    if not isinstance(body, dict):
        raise services.MatchError("malformed", "The body is a JSON object.")
    return body


def _field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = body.pop(name, default)
    if value is not default and (not isinstance(value, kind) or isinstance(value, bool)):
        raise services.MatchError("malformed", f"{name} has the wrong type.")
    return value


def match_json(
    match: Match, user: AnyUser, open_decision: Decision | None = None
) -> dict[str, Any]:
    """The match as a client sees it; ``open_decision``, when the caller has it, spares
    reading the pending decision's row."""
    state = services.load_state(match)
    pending = None
    if state.pending is not None:
        decision = open_decision
        if decision is None or decision.answered_at is not None:
            decision = match.decisions.filter(answered_at__isnull=True).first()
        pending = {
            "kind": state.pending.kind,
            "to": state.pending.to,
            "options": state.pending.options,
            "default": services.default_answer(match, state.pending),
            "deadline_at": decision.deadline_at if decision else None,
            "events": decision.preview if decision else [],
        }
    return {
        "id": match.pk,
        "status": match.status,
        "version": match.version,
        "is_public": match.is_public,
        "home": {"id": match.home_team_id, "name": match.home_team.name},
        "away": {"id": match.away_team_id, "name": match.away_team.name},
        "you": services.actors_for(match, user),
        "turn_deadline_at": match.turn_deadline_at,
        "dice": {"commitment": match.dice_commitment, "seed": match.revealed_seed},
        "last_event": services.last_event_number(match),
        "pending": pending,
        "state": services.state_json(match),
    }


def _outcome(user: AnyUser, outcome: services.Outcome) -> JsonResponse:
    """The answer to a write: the match as the write left it, from the row it locked (which
    also served the access check)."""
    return JsonResponse(
        {
            "post": outcome.post.number,
            "replayed": outcome.replayed,
            "match": match_json(outcome.post.match, user, outcome.decision),
        },
        status=200 if outcome.replayed else 201,
    )


# -- the views ---------------------------------------------------------------------------------


def openapi(request: HttpRequest) -> JsonResponse:
    if request.method not in ("GET", "HEAD"):
        return _not_allowed("GET")
    return JsonResponse(api_schema.SCHEMA)


@csrf_exempt  # it only answers 404, whatever the method
def not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    """Anything under /api/ that no route takes (a negative or non-numeric id, a typo): the
    API's JSON error, never the site's HTML page."""
    return _error("no_route", "There is no such API address; see /api/openapi.json.")


@api_view("GET")
def match(request: HttpRequest, user: AnyUser, pk: int) -> HttpResponse:
    """The match, or 304 when the client's ETag is still the match's: a bot polling an idle
    match is answered from the row alone."""
    found = readable_match(pk, user)
    etag = match_etag(found, user)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = JsonResponse(match_json(found, user))
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def match_etag(match: Match, user: AnyUser) -> str:
    """What the match's JSON is made of and may change without a write to the match: every
    write moves ``version`` on; a team renamed and who this reader coaches do not."""
    facts = [
        match.pk,
        match.version,
        match.dice_commitment,
        match.home_team.name,
        match.away_team.name,
        services.actors_for(match, user),
    ]
    return quote_etag(hashlib.sha256(json.dumps(facts).encode()).hexdigest()[:32])


@api_view("GET")
def events(request: HttpRequest, user: AnyUser, pk: int) -> JsonResponse:
    try:
        after = int(request.GET.get("after", 0))
    except ValueError:
        after = -1
    if after < 0:
        raise services.MatchError("malformed", "after is an event number (0 or more).")
    rows = list(
        readable_match(pk, user)
        .events.select_related("post")
        .filter(number__gt=after)
        .order_by("number")[: EVENTS_PAGE + 1]
    )
    return JsonResponse(
        {
            "events": [exports.event_json(e) for e in rows[:EVENTS_PAGE]],
            "more": len(rows) > EVENTS_PAGE,
        }
    )


@api_view("POST")
def declare(request: HttpRequest, user: AnyUser, pk: int) -> JsonResponse:
    body = _body(request)
    key = _field(body, "idempotency_key", str, "")
    side = _field(body, "side", str, None)
    text = _field(body, "text", str, "")
    if len(text) > POST_TEXT_MAX:
        raise services.MatchError(
            "too_long",
            f"A post has at most {POST_TEXT_MAX:,} characters; this one has {len(text):,}.",
        )
    version = _field(body, "version", int, None)
    outcome = services.declare(
        pk, user, body, side=side, text=text, idempotency_key=key, version=version
    )  # what is left of the body is the declaration; a private match is no_match to others
    return _outcome(user, outcome)


@api_view("POST")
def decide(request: HttpRequest, user: AnyUser, pk: int) -> JsonResponse:
    body = _body(request)
    key = _field(body, "idempotency_key", str, "")
    version = _field(body, "version", int, None)
    kind = _field(body, "kind", str, None)
    choice = body.get("choice")
    if kind is None or not isinstance(choice, str | int | bool):
        raise services.MatchError("malformed", "A decision is {kind, choice}.")
    outcome = services.answer(pk, user, choice, idempotency_key=key, kind=kind, version=version)
    return _outcome(user, outcome)


def _target_json(t: Target) -> dict[str, Any]:
    out: dict[str, Any] = {
        "player": t.player,
        "square": t.square,
        "path": list(t.path),
        "chance": round(t.chance, 4),
    }
    if t.dice:
        out.update(dice=t.dice, chooser=t.chooser)
    if t.band:
        out["band"] = t.band
    if t.armour:
        out["armour"] = round(t.armour, 4)
    return out


def _player_json(po: PlayerOptions) -> dict[str, Any]:
    squares = []
    if po.reach is not None:
        for name, chance in po.reach.squares.items():
            squares.append(
                {"square": name, "chance": round(chance, 4), "path": po.reach.path(name)}
            )
    return {
        "id": po.player,
        "actions": list(po.actions),
        "squares": squares,
        **{
            action: [_target_json(t) for t in targets]
            for action, targets in (
                ("block", po.block),
                ("blitz", po.blitz),
                ("foul", po.foul),
                ("pass", po.pass_),
                ("hand_off", po.hand_off),
            )
        },
    }


@api_view("GET")
def options(request: HttpRequest, user: AnyUser, pk: int) -> JsonResponse:
    """What the asking coach may declare now: his players able to act and their actions;
    with ``player``, that player's squares (safest path, chance) and targets."""
    match = readable_match(pk, user)
    state = services.load_state(match)
    coached = services.actors_for(match, user)
    if not coached:
        raise services.MatchError("not_in_match", "Only the match's coaches have options.")
    side = request.GET.get("side")
    mine = [
        a
        for a in coached
        if a.startswith(f"{state.active}:") and (side is None or a.endswith(f":{side}"))
    ]
    if not mine:
        raise services.MatchError("not_your_turn", "You coach no side that plays now.")
    turn = turn_options(state, mine[0])
    out: dict[str, Any] = {
        "actor": mine[0],
        "players": {pid: list(actions) for pid, actions in turn.players.items()},
        "team": list(turn.team),
    }
    player = request.GET.get("player")
    if player is not None:
        if player not in turn.players:
            raise services.MatchError("not_your_player", f"{player} cannot act for you now.")
        out["player"] = _player_json(turn.player(player))
    return JsonResponse(out)


@api_view("GET")
def export(request: HttpRequest, user: AnyUser, pk: int) -> JsonResponse:
    response = JsonResponse(exports.export_match(readable_match(pk, user)))
    response["Content-Disposition"] = f'attachment; filename="match-{pk}.json"'
    return response
