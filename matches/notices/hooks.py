"""Sending a league's webhooks: each hook's deliveries in the order they were written, the next
only once the one before it was accepted, so that a receiver hears a match's events in order
and each once (it may use ``X-Bbweb-Delivery`` to drop a copy, in the one window where a run
dies between the receiver's answer and the mark).

A run holds the hook by a lease (``sending_until``) so that two never send at once; each try
is written in the delivery log (``HookAttempt``). A try that fails (no answer, or any answer but
2xx) ends the run, and the task comes back after a wait that doubles with each failure in a row;
after ``settings.HOOKS_FAILURE_LIMIT`` failures in a row the hook is switched off and its GM is
told. Switched on again, it sends what waited.

The signature (README, "Webhooks"): ``X-Bbweb-Signature: sha256=HEX``, HEX the HMAC-SHA256 with
the hook's secret of the bytes ``TIMESTAMP.BODY``, TIMESTAMP the value of ``X-Bbweb-Timestamp``
(Unix seconds) and BODY the request's body as sent.
"""

import hashlib
import hmac
import json
import logging
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from matches.models import CoachPreferences, HookAttempt, HookDelivery, LeagueHook
from matches.services.hooks import refused_address

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=90)  # longer than a run: at most PER_RUN tries of the timeout
PER_RUN = 8
BUSY_WAIT = 5.0  # seconds: another run holds the hook
FIRST_WAIT = 5.0  # seconds, doubled with each failure in a row, up to RETRY_MAX_SECONDS
COLOURS = {
    "turn_posted": 0x4F81BD,
    "turn_begins": 0x2E8B57,
    "decision_waiting": 0xE6A817,
    "deadline_near": 0xD9534F,
    "match_result": 0x6F42C1,
    "dispute_opened": 0xB22222,
    "fixture_scheduled": 0x708090,
}


def signature(secret: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def json_payload(delivery: HookDelivery, league_name: str) -> dict[str, Any]:
    """The signed JSON hook's body: the event's facts as announced, the delivery's id."""
    payload = dict(delivery.payload)
    payload["league"] = {"id": payload.get("league"), "name": league_name}
    return {"id": delivery.pk, **payload}


def _team(payload: dict[str, Any], side: str | None) -> str:
    match = payload.get("match", {})
    return str(match.get("away") if side == "away" else match.get("home"))


def _sentence(payload: dict[str, Any]) -> str:
    """The event in a sentence, in the language active."""
    event = payload["event"]
    match = payload.get("match", {})
    team = _team(payload, payload.get("side"))
    if event == "turn_posted":
        return _("%(team)s posted turn %(turn)s.") % {"team": team, "turn": payload.get("turn")}
    if event == "turn_begins":
        return _("Turn %(turn)s of %(team)s begins (half %(half)s).") % {
            "team": team,
            "turn": match.get("turn"),
            "half": match.get("half"),
        }
    if event == "decision_waiting":
        return _("A decision awaits %(team)s.") % {"team": team}
    if event == "deadline_near":
        deadline = payload.get("deadline")
        when = f"<t:{int(datetime.fromisoformat(deadline).timestamp())}:f>" if deadline else "?"
        return _("A deadline of %(team)s is near: %(deadline)s.") % {
            "team": team,
            "deadline": when,
        }
    if event == "match_result":
        score = match.get("score", {})
        return _("Final score: %(home)s %(home_score)s - %(away_score)s %(away)s.") % {
            "home": match.get("home"),
            "away": match.get("away"),
            "home_score": score.get("home", 0),
            "away_score": score.get("away", 0),
        }
    if event == "dispute_opened":
        return _("%(team)s opened a dispute.") % {"team": team}
    fixture = payload.get("fixture", {})
    return str(_("Round %(round)s: %(home)s v %(away)s.") % fixture)


def discord_payload(delivery: HookDelivery, league_name: str, language: str) -> dict[str, Any]:
    """A Discord webhook's message: one embed with the match, the event, the teams, a link."""
    payload = delivery.payload
    match = payload.get("match")
    with translation.override(language):
        if match:
            title = f"{match['home']} v {match['away']}"
            url = match["url"]
            score = match.get("score", {})
            fields = [
                {"name": pgettext("team", "Home"), "value": match["home"], "inline": True},
                {"name": _("Away"), "value": match["away"], "inline": True},
                {
                    "name": _("Score"),
                    "value": f"{score.get('home', 0)} - {score.get('away', 0)}",
                    "inline": True,
                },
            ]
        else:
            title = league_name
            url = payload.get("url", "")
            fields = []
        embed = {
            "title": title[:256],
            "description": _sentence(payload)[:4096],
            "url": url,
            "color": COLOURS.get(payload["event"], 0),
            "timestamp": payload.get("occurred_at"),
            "fields": fields,
            "footer": {"text": league_name[:2048]},
        }
    return {"username": "bbweb", "embeds": [embed], "allowed_mentions": {"parse": []}}


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect would lead a hook past the address check."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def _post(hook: LeagueHook, delivery: HookDelivery, body: bytes) -> tuple[int | None, str]:
    """The receiver's status code (None without one) and what went wrong, if anything."""
    refused = refused_address(hook.url)
    if refused is not None:
        return None, refused
    timestamp = str(int(timezone.now().timestamp()))
    request = urllib.request.Request(
        hook.url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "bbweb-webhooks",
            "X-Bbweb-Event": delivery.event,
            "X-Bbweb-Delivery": str(delivery.pk),
            "X-Bbweb-Timestamp": timestamp,
            "X-Bbweb-Signature": signature(hook.secret, timestamp, body),
        },
    )
    try:
        with _opener.open(request, timeout=settings.HOOKS_TIMEOUT_SECONDS) as answer:
            return answer.status, ""
    except urllib.error.HTTPError as answer:
        return answer.code, answer.reason if isinstance(answer.reason, str) else ""
    except (OSError, ValueError) as error:
        return None, str(error) or type(error).__name__


def _body(hook: LeagueHook, delivery: HookDelivery) -> bytes:
    name = hook.league.name
    if hook.kind == LeagueHook.Kind.DISCORD:
        payload = discord_payload(delivery, name, hook.language)
    else:
        payload = json_payload(delivery, name)
    return json.dumps(payload, separators=(",", ":")).encode()


def deliver(hook_id: int) -> float | None:
    """Send the hook's waiting deliveries in order; the seconds to wait before the next run
    when one failed or more wait (the task comes back then), None when done."""
    now = timezone.now()
    free = Q(sending_until__isnull=True) | Q(sending_until__lt=now)
    held = LeagueHook.objects.filter(pk=hook_id, enabled=True)
    if not held.filter(free).update(sending_until=now + LEASE):
        return BUSY_WAIT if held.exists() else None
    hook = LeagueHook.objects.select_related("league__gm").get(pk=hook_id)
    try:
        return _send_waiting(hook)
    finally:
        LeagueHook.objects.filter(pk=hook_id).update(sending_until=None)


def _send_waiting(hook: LeagueHook) -> float | None:
    waiting = list(hook.deliveries.filter(delivered_at__isnull=True).order_by("pk")[: PER_RUN + 1])
    for delivery in waiting[:PER_RUN]:
        status, error = _post(hook, delivery, _body(hook, delivery))
        ok = status is not None and 200 <= status < 300
        HookAttempt.objects.create(
            delivery=delivery, status_code=status, ok=ok, error=error[:200] if not ok else ""
        )
        if not ok:
            log.info("hook %s: delivery %s failed (%s %s)", hook.pk, delivery.pk, status, error)
            return _failed(hook)
        HookDelivery.objects.filter(pk=delivery.pk).update(delivered_at=timezone.now())
        if hook.failures:
            LeagueHook.objects.filter(pk=hook.pk).update(failures=0)
            hook.failures = 0
    return 0.0 if len(waiting) > PER_RUN else None


def _failed(hook: LeagueHook) -> float | None:
    LeagueHook.objects.filter(pk=hook.pk).update(failures=F("failures") + 1)
    hook.refresh_from_db(fields=["failures"])
    failures = int(hook.failures)
    if failures < settings.HOOKS_FAILURE_LIMIT:
        wait: float = FIRST_WAIT * 2.0 ** (failures - 1)
        return min(wait, float(settings.RETRY_MAX_SECONDS))
    if LeagueHook.objects.filter(pk=hook.pk, enabled=True).update(
        enabled=False, disabled_at=timezone.now()
    ):
        _tell_the_gm(hook)
    return None


def _tell_the_gm(hook: LeagueHook) -> None:
    gm = hook.league.gm
    if not gm.email:
        return
    preferences = CoachPreferences.objects.filter(user=gm).first()
    language = preferences.language if preferences else settings.LANGUAGE_CODE
    link = settings.SITE_URL.rstrip("/") + reverse("gm:hooks", args=[hook.league_id])
    with translation.override(language):
        subject = _("bbweb: a webhook of %(league)s is switched off") % {"league": hook.league}
        body = _(
            "The webhook to %(url)s failed %(count)s times in a row and is switched off. "
            "What it had not sent waits; switch it on again once its receiver answers: %(link)s"
        ) % {"url": hook.url, "count": hook.failures, "link": link}
    try:
        send_mail(subject, body, None, [gm.email])
    except OSError as error:
        log.warning("hook %s switched off; its GM could not be told: %s", hook.pk, error)
