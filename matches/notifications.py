"""E-mails to coaches. Called on commit, so nobody hears of a change that was rolled back.

Each notice has a key; a ``Notice`` row with that key and user is written before the mail goes
out, in the same transaction, so a coach is never sent the same notice twice (a second task
with the key finds the row and sends nothing). Each coach chooses the kinds it receives and
the language they come in (``CoachPreferences``).
"""

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from bbweb import throttle
from matches.mentions import mentioned as mentioned_in
from matches.models import CoachPreferences, Decision, Match, Notice, Post

log = logging.getLogger(__name__)
KINDS = ("turn", "decision", "warning", "applied", "contest")


def _users_for(match: Match, actor: str) -> list[User]:
    team_key, _sep, side = actor.partition(":")
    team = match.home_team if team_key == "home" else match.away_team
    user = team.captain if side == "captain" or team.rival is None else team.rival
    return [user] if user.email else []


def _link(match: Match) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("matches:detail", args=[match.pk])


def _when(moment: datetime | None) -> str:
    if moment is None:
        return _("no deadline")
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def _deadline_of(match: Match, kind: str) -> datetime | None:
    if kind == "decision" or (kind == "warning" and match.turn_deadline_at is None):
        decision = match.decisions.filter(answered_at__isnull=True).order_by("-pk").first()
        return decision.deadline_at if decision else None
    return match.turn_deadline_at


def _compose(kind: str, match: Match, context: dict[str, Any]) -> tuple[str, str]:
    """Subject and body in the language active when called."""
    names = {"match": str(match), "link": _link(match)}
    deadline = _when(_deadline_of(match, kind))
    if kind == "turn":
        return (
            _("bbweb: your team's turn in %(match)s") % names,
            _("Post your turn before %(deadline)s: %(link)s") % {**names, "deadline": deadline},
        )
    if kind == "decision":
        return (
            _("bbweb: a decision awaits you in %(match)s") % names,
            _("Answer it before %(deadline)s: %(link)s") % {**names, "deadline": deadline},
        )
    if kind == "warning":
        return (
            _("bbweb: a deadline is near in %(match)s") % names,
            _(
                "Your deadline is %(deadline)s. If nobody acts by then, the server applies "
                "the default: %(link)s"
            )
            % {**names, "deadline": deadline},
        )
    if kind == "applied":
        return (
            _("bbweb: a deadline passed in %(match)s") % names,
            _("The server applied the default for you. See the thread: %(link)s") % names,
        )
    winner = _("the rival's side") if context.get("winner") == "rival" else _("the captain's side")
    return (
        _("bbweb: the Blitz contest in %(match)s") % names,
        _(
            "Rival %(rival)s = %(rival_total)s; captain %(captain)s + 2 = %(captain_total)s. "
            "The Blitz goes to %(winner)s. %(link)s"
        )
        % {
            **names,
            "rival": " ".join(str(d) for d in context.get("rival", [])),
            "captain": " ".join(str(d) for d in context.get("captain", [])),
            "rival_total": context.get("rival_total", ""),
            "captain_total": context.get("captain_total", ""),
            "winner": winner,
        },
    )


def send(kind: str, match_id: int, actors: list[str], key: str, context: dict[str, Any]) -> int:
    """Send one kind of notice to the coaches of ``actors``; returns how many e-mails went."""
    match = Match.objects.select_related("home_team", "away_team").get(pk=match_id)
    users = {u.pk: u for actor in actors for u in _users_for(match, actor)}
    sent = 0
    for user in users.values():
        preferences = CoachPreferences.objects.filter(user=user).first()
        if preferences is not None and not preferences.wants(kind):
            continue
        language = preferences.language if preferences else settings.LANGUAGE_CODE
        try:
            with transaction.atomic():
                Notice.objects.create(user=user, match=match, kind=kind, key=key, sent=True)
                with translation.override(language):
                    subject, body = _compose(kind, match, context)
                send_mail(subject, body, None, [user.email])
        except IntegrityError:
            continue  # sent before
        except OSError:
            log.warning("mail to %s failed; the notice may be sent again", user.pk, exc_info=True)
            continue
        sent += 1
    return sent


def decision_awaits(decision_id: int) -> None:
    decision = Decision.objects.get(pk=decision_id)
    send("decision", decision.match_id, [decision.to], f"decision:{decision_id}", {})


def turn_starts(match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    active = match.state.get("active", "home")
    half = match.state.get("half", 1)
    turn = match.state.get("turn", {}).get(active, 0)
    actors = [f"{active}:captain", f"{active}:rival"]
    send("turn", match_id, actors, f"turn:{match_id}:{half}:{active}:{turn}", {})


def mentioned(post_id: int) -> None:
    post = Post.objects.select_related("match__home_team", "match__away_team", "author").get(
        pk=post_id
    )
    match = post.match
    users = [u for u in mentioned_in(match, post.text) if u.email and u.pk != post.author_id]
    if users and throttle.hit("mentions", str(post.author_id)):
        log.info("post %s: its author sent too many mentions this hour; no mail", post_id)
        return
    author = post.author.username if post.author else "bbweb"
    for user in users:
        preferences = CoachPreferences.objects.filter(user=user).first()
        language = preferences.language if preferences else settings.LANGUAGE_CODE
        with translation.override(language):
            subject = _("bbweb: %(author)s mentioned you in %(match)s") % {
                "author": author,
                "match": match,
            }
            body = _("%(text)s\n\nRead the thread: %(link)s") % {
                "text": post.text,
                "link": _link(match),
            }
        try:  # the notice's row makes a second run of the task send nothing
            with transaction.atomic():
                Notice.objects.create(
                    user=user, match=match, kind="mention", key=f"mention:{post_id}", sent=True
                )
                send_mail(subject, body, None, [user.email])
        except IntegrityError:
            continue
        except OSError:
            log.warning("mail to %s failed; the notice may be sent again", user.pk, exc_info=True)
