"""E-mails to coaches. Called on commit, so nobody hears of a change that was rolled back.

Each notice has a key, unique per coach (it names the notice's kind and match). A ``Notice``
row with that key is claimed before the mail goes out and marked sent after, each step
committed, so a second task with the key sends nothing and a failed one is retried (the tasks
retry with backoff on database and mail errors). Sent once in effect: the one window where a
mail can go twice, and why, is in ``_deliver``. Each coach chooses the kinds it receives, the
language they come in and the time zone of their dates (``CoachPreferences``).
"""

import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bbweb import throttle
from matches.models import CoachPreferences, Decision, Match, Notice, Post
from matches.notices import unsubscribe
from matches.notices.zones import zone_of
from matches.record.mentions import mentioned as mentioned_in
from matches.thread.sentences import Names, choice_label
from matches.verification import receipts

log = logging.getLogger(__name__)
Resend = tuple[str, list[Any]]  # a task's name and its arguments
KINDS = ("turn", "decision", "warning", "applied", "contest")
LEASE = timedelta(seconds=90)  # longer than a notice task's hard time limit (30 s)
MARK_TRIES = 4
MARK_PAUSE = 0.5  # seconds, doubled at each try: 3.5 s in all, within the task's limits
# A decision answered on the page within this time gets no mail (block dice, pushes and
# follow-ups are mostly answered at once); under the tasks' longest retry wait.
DECISION_QUIET = timedelta(minutes=3)


# Notices of the GM's office rather than of a coach's preferences: no opt-out, no digest.
GM_DUTIES = frozenset(("gm_needed",))


def recipients_for(match: Match, actor: str) -> list[User]:
    if actor == "gm":
        return [match.gm] if match.gm is not None and match.gm.email else []
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


def _receipt_line(match: Match) -> str:
    """Every e-mail carries the match record's receipt: kept, it proves what the record held
    (``verify_match FILE --head RECEIPT``)."""
    return "\n\n" + _("Receipt of the match record (keep it to check an export): %(receipt)s") % {
        "receipt": receipts.for_match(match)
    }


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
        body = _("Answer it before %(deadline)s: %(link)s") % {**names, "deadline": deadline}
        if "default" in context:
            shown = choice_label(context["kind"], context["default"], Names(match))
            body += "\n" + _("If nobody answers in time: %(default)s.") % {"default": shown}
        return _("bbweb: a decision awaits you in %(match)s") % names, body
    if kind == "warning":
        return (
            _("bbweb: a deadline is near in %(match)s") % names,
            _(
                "If nobody acts before %(deadline)s, the server applies the default. "
                "The match: %(link)s"
            )
            % {**names, "deadline": deadline},
        )
    if kind == "gm_needed":
        return (
            _("bbweb: %(match)s waits for your ruling") % names,
            _(
                "A time bank ran out (%(sides)s) and the match is paused. Give time back, "
                "award or end the match, then resume it: %(link)s"
            )
            % {**names, "sides": _sides(match, context.get("ran_out", []))},
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


def _sides(match: Match, actors: list[str]) -> str:
    """``home:captain``... as "Reikland Reavers, the captain's side"."""
    names = Names(match)
    side_names = {"captain": _("the captain's side"), "rival": _("the rival's side")}
    return "; ".join(
        f"{names.team(team)}, {side_names.get(side, side)}"
        for team, _sep, side in (actor.partition(":") for actor in actors)
    )


def send(
    kind: str,
    match_id: int,
    actors: list[str],
    key: str,
    context: dict[str, Any],
    resend: Resend | None = None,
) -> int:
    """Send one kind of notice to the coaches of ``actors``; returns how many e-mails went.
    Raises ``NotSentYet`` when one could not go now (the others went): the task retries.
    ``resend``: the task call that sends it again, kept on the notice's row for the sweep (the
    tasks give theirs; without one the sweep leaves a lapsed claim to the task's retries)."""
    match = Match.objects.select_related("home_team", "away_team").get(pk=match_id)
    users = {u.pk: u for actor in actors for u in recipients_for(match, actor)}
    sent = 0
    waiting: list[str] = []
    duty = kind in GM_DUTIES
    for user in users.values():
        preferences = CoachPreferences.objects.filter(user=user).first()
        if preferences is not None and not duty and not preferences.wants(kind):
            continue
        if kind == "warning" and preferences is not None and preferences.reminder_hours:
            continue  # their own reminders stand for the fixed warnings (``remind``)
        if preferences is not None and not duty and kind in preferences.digest_kinds:
            _hold_for_digest(user, match, kind, key)
            continue
        language = preferences.language if preferences else settings.LANGUAGE_CODE
        zone = zone_of(preferences)

        def compose(
            language: str = language, zone: ZoneInfo = zone, reader: int = user.pk
        ) -> tuple[str, str]:
            with translation.override(language), timezone.override(zone):
                subject, body = _compose(kind, match, context)
                footer = "" if duty else unsubscribe.footer(reader, kind)
                return subject, body + _receipt_line(match) + footer

        try:
            sent += _deliver(user, match, kind, key, compose, resend)
        except NotSentYet as why:
            waiting.append(str(why))
    if waiting:
        raise NotSentYet("; ".join(waiting))
    return sent


def decision_awaits(
    decision_id: int, resend: Resend | None = None, *, wait: bool = True
) -> timedelta | None:
    """Mail the coach a decision awaits once it has waited ``DECISION_QUIET`` unanswered: a
    coach answering on the page gets no mail for it. Returns how much longer to wait when it
    is too early (the task comes back then), None once done; a decision already answered or
    gone (a task sent late, after a broker outage) is never mailed. ``wait``: False where
    nothing could come back later (tasks run eagerly)."""
    decision = Decision.objects.filter(pk=decision_id).first()
    if decision is None or decision.answered_at is not None or decision.contested_at:
        return None
    waited = timezone.now() - decision.created_at
    if wait and waited < DECISION_QUIET:
        return DECISION_QUIET - waited
    # The row's default was written by ``services.default_answer``, as the deadline applies it.
    context = {"kind": decision.kind, "default": decision.default}
    key = f"decision:{decision_id}"
    send("decision", decision.match_id, [decision.to], key, context, resend)
    return None


def remind(
    user_id: int, match_id: int, deadline: str, hours: int, key: str, resend: Resend | None = None
) -> int:
    """One of the reminders a person chose, ``hours`` before their ``deadline``, in their
    language and time zone, under the notice ``key`` (``services.reminder_key``); 1 when it
    went. Its notice row was written by the sweep that queued it (``services.send_reminders``):
    a deadline met or gone by now, or warnings turned off, drops the row unsent."""
    match = Match.objects.select_related("home_team", "away_team").get(pk=match_id)
    moment = _still_due(match, deadline)
    user = User.objects.filter(pk=user_id).first()
    preferences = CoachPreferences.objects.filter(user_id=user_id).first()
    if moment is None or user is None or not user.email:
        Notice.objects.filter(user_id=user_id, key=key, sent=False).delete()
        return 0
    if preferences is not None and not preferences.wants("warning"):
        Notice.objects.filter(user_id=user_id, key=key, sent=False).delete()
        return 0
    language = preferences.language if preferences else settings.LANGUAGE_CODE
    zone = zone_of(preferences)

    def compose() -> tuple[str, str]:
        with translation.override(language), timezone.override(zone):
            names = {"match": str(match), "link": _link(match)}
            subject = ngettext(
                "bbweb: your deadline in %(match)s is %(count)d hour away",
                "bbweb: your deadline in %(match)s is %(count)d hours away",
                hours,
            ) % {**names, "count": hours}
            body = _(
                "If nobody acts before %(deadline)s, the server applies the default. "
                "The match: %(link)s"
            ) % {**names, "deadline": _when(moment)}
            return subject, body + _receipt_line(match) + unsubscribe.footer(user_id, "warning")

    return _deliver(user, match, "warning", key, compose, resend)


def _still_due(match: Match, deadline: str) -> datetime | None:
    """When the deadline falls, while it is still open; None once met or gone."""
    what, _sep, ref = deadline.partition(":")
    if what == "decision":
        return (
            Decision.objects.filter(pk=int(ref), match=match, answered_at__isnull=True)
            .values_list("deadline_at", flat=True)
            .first()
        )
    half, team, turn = current_turn(match.pk)
    *turn_ref, actor = ref.split(":", 3) if ref.count(":") > 2 else [*ref.split(":"), ""]
    if ":".join(turn_ref) != f"{half}:{team}:{turn}" or match.status != Match.Status.IN_PLAY:
        return None
    if actor:  # a side's own time bank: due while it runs
        started = (match.banks or {}).get("since", {}).get(actor)
        if started is None:
            return None
        left = timedelta(seconds=match.banks["left"][actor])
        return datetime.fromisoformat(started) + left
    return match.turn_deadline_at


def current_turn(match_id: int) -> tuple[int, str, int]:
    """(half, team, turn) of the match's team turn now."""
    state = Match.objects.values_list("state", flat=True).get(pk=match_id)
    team = state.get("active", "home")
    return state.get("half", 1), team, state.get("turn", {}).get(team, 0)


def turn_starts(
    match_id: int, half: int, team: str, turn: int, resend: Resend | None = None
) -> None:
    """The "your turn" notice of the team turn named when it was queued: a retry that runs
    after the match moved on comes back to that notice (and its claim), not to the turn of the
    moment."""
    actors = [f"{team}:captain", f"{team}:rival"]
    send("turn", match_id, actors, f"turn:{match_id}:{half}:{team}:{turn}", {}, resend)


def mentioned(post_id: int, resend: Resend | None = None) -> None:
    post = Post.objects.select_related("match__home_team", "match__away_team", "author").get(
        pk=post_id
    )
    match = post.match
    users = [u for u in mentioned_in(match, post.text) if u.email and u.pk != post.author_id]
    if users and throttle.hit("mentions", str(post.author_id)):
        log.info("post %s: its author sent too many mentions this hour; no mail", post_id)
        return
    author = post.author.username if post.author else "bbweb"
    waiting: list[str] = []
    for user in users:
        preferences = CoachPreferences.objects.filter(user=user).first()
        if preferences is not None and not preferences.wants("mention"):
            continue
        if preferences is not None and "mention" in preferences.digest_kinds:
            _hold_for_digest(user, match, "mention", f"mention:{post_id}")
            continue
        language = preferences.language if preferences else settings.LANGUAGE_CODE

        def compose(language: str = language, reader: int = user.pk) -> tuple[str, str]:
            with translation.override(language):
                subject = _("bbweb: %(author)s mentioned you in %(match)s") % {
                    "author": author,
                    "match": match,
                }
                body = _("%(text)s\n\nRead the thread: %(link)s") % {
                    "text": post.text,
                    "link": _link(match),
                } + _receipt_line(match)
                body += unsubscribe.footer(reader, "mention")
            return subject, body

        try:
            _deliver(user, match, "mention", f"mention:{post_id}", compose, resend)
        except NotSentYet as why:
            waiting.append(str(why))
    if waiting:
        raise NotSentYet("; ".join(waiting))


# -- sending once -------------------------------------------------------------------------------


class NotSentYet(Exception):
    """A notice that could not go now (the mail server failed, or another run holds it): the
    task retries it later, and a notice already sent is never sent again by the retry."""


def _deliver(
    user: User,
    match: Match,
    kind: str,
    key: str,
    compose: Callable[[], tuple[str, str]],
    resend: Resend | None,
) -> int:
    """Send the notice ``key`` to ``user`` unless it was sent; 1 when this call sent it.

    Three steps, each committed on its own: the notice's row is claimed (written unsent with a
    lease, or an unsent row whose lease expired taken over with compare-and-set), the mail is
    sent, the row is marked sent (tried again at once on a database error). A run that finds
    the row sent sends nothing; one that finds it held by a live lease waits for a retry.

    At least once, not exactly once, in one window: a process that dies, or loses its database
    for good, after the mail server accepted the mail and before the row is marked leaves the
    row claimed, and once the lease expires a retry sends the mail again. Both copies carry the
    same Message-ID (from the notice's row), which mail servers and clients use to recognise
    the second as a duplicate. Nothing is ever lost: a claim that is never marked expires, and
    the sweep queues ``resend`` again for it (``services.release_lapsed_notices``).
    """
    notice = _claim(user, match, kind, key, resend)
    if notice is None:
        return 0
    subject, body = compose()
    headers = {"Message-ID": _message_id(notice)}
    if kind in unsubscribe.KINDS:
        headers.update(unsubscribe.headers(user.pk, kind))
    message = EmailMessage(subject, body, None, [user.email], headers=headers)
    try:
        message.send()
    except OSError as error:  # smtplib's errors are OSErrors
        log.warning("mail to %s failed, retried later: %s", user.pk, error)
        Notice.objects.filter(pk=notice.pk, sending_until=notice.sending_until).update(
            sending_until=None
        )
        raise NotSentYet(f"{key} to {user.pk}: {error}") from error
    _mark_sent(notice)
    return 1


def _hold_for_digest(user: User, match: Match, kind: str, key: str) -> None:
    """The notice waits for its reader's daily digest (matches.notices.digest), once."""
    try:
        with transaction.atomic():
            Notice.objects.create(user=user, match=match, kind=kind, key=key, digest=True)
    except IntegrityError:
        pass  # held or sent before


def headline(kind: str, match: Match) -> str:
    """A notice in one line (its subject), in the language active: a digest lists them."""
    if kind == "mention":
        return _("You were mentioned in %(match)s") % {"match": match}
    return _compose(kind, match, {})[0]


def link(match: Match) -> str:
    return _link(match)


def _claim(user: User, match: Match, kind: str, key: str, resend: Resend | None) -> Notice | None:
    """This run's hold on the notice, or None when it was sent; NotSentYet while another run
    holds it."""
    now = timezone.now()
    until = now + LEASE
    try:
        with transaction.atomic():
            return Notice.objects.create(
                user=user,
                match=match,
                kind=kind,
                key=key,
                sent=False,
                sending_until=until,
                resend=[resend[0], list(resend[1])] if resend else [],
            )
    except IntegrityError:
        pass  # written before: sent, or being sent, or left by a run that died
    unsent = Notice.objects.filter(user=user, key=key, sent=False, digest=False)
    if unsent.filter(Q(sending_until__isnull=True) | Q(sending_until__lt=now)).update(
        sending_until=until
    ):
        return unsent.get()
    if unsent.exists():
        raise NotSentYet(f"{key} to {user.pk} is being sent by another run")
    return None


def _mark_sent(notice: Notice) -> None:
    for attempt in range(MARK_TRIES):
        try:
            Notice.objects.filter(pk=notice.pk).update(sent=True, sending_until=None)
            return
        except DatabaseError:
            if attempt == MARK_TRIES - 1:
                log.error("notice %s was sent but not marked: it may be sent again", notice.pk)
                raise
            log.warning("marking notice %s sent failed, tried again", notice.pk, exc_info=True)
            if not connection.in_atomic_block:
                connection.close()  # the next query opens a fresh connection
            time.sleep(MARK_PAUSE * 2**attempt)


def _message_id(notice: Notice) -> str:
    """The same for every copy of one notice, so a second copy is seen as a duplicate."""
    host = urlsplit(settings.SITE_URL).hostname or "bbweb.local"
    return f"<notice-{notice.pk}@{host}>"
