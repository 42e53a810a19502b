"""notices: the coach's side of notifications: the mentions a post queues, the notification
preferences, and what awaits a coach across its matches."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from bbweb import outbox
from matches.models import CoachPreferences, Decision, Match, Notice, Post
from matches.record.mentions import mentioned
from matches.services import core, jobs
from matches.services.actors import AnyUser, actors_for, coached_by


def notify_mentions(match: Match, post: Post) -> None:
    if post.text and mentioned(match, post.text):
        jobs.enqueue_on_commit(jobs.NOTIFY_MENTIONS, post)


def release_lapsed_notices(now: datetime | None = None, limit: int = 500) -> int:
    """The sweep's part: a notice still claimed past its lease was held by a run that died (a
    worker killed, its database lost) and whose retry may never come. Its claim is released and
    the task call kept on its row queued again through the outbox, in one transaction; that
    task's claim, a compare-and-set, lets one run only send it. Returns how many."""
    now = now or core.now()
    with transaction.atomic():
        lapsed = list(
            Notice.objects.select_for_update(skip_locked=True)
            .filter(sent=False, sending_until__lt=now)
            .exclude(resend=[])
            .order_by("sending_until")[:limit]
        )
        for notice in lapsed:
            task, args = notice.resend
            outbox.enqueue(task, args)
        Notice.objects.filter(pk__in=[n.pk for n in lapsed]).update(sending_until=None)
    return len(lapsed)


def save_preferences(user: User, **preferences: Any) -> CoachPreferences:
    current, _created = CoachPreferences.objects.get_or_create(user_id=user.pk)
    for name, value in preferences.items():
        setattr(current, name, value)
    current.full_clean(exclude=["user"])
    current.save()
    return current


# -- what awaits a coach --------------------------------------------------------------------------


@dataclass(frozen=True)
class Awaiting:
    match: Match
    what: str  # "decision" or "turn"
    deadline_at: datetime | None
    decision: Decision | None = None


def awaiting(user: AnyUser) -> list[Awaiting]:
    """Every match where something awaits this coach, the soonest deadline first."""
    if not user.is_authenticated:
        return []
    matches = (
        Match.objects.select_related("home_team", "away_team", "league")
        .filter(status=Match.Status.IN_PLAY)
        .filter(coached_by(user))
    )
    open_decisions = {
        d.match_id: d for d in Decision.objects.filter(answered_at__isnull=True, match__in=matches)
    }
    found: list[Awaiting] = []
    for match in matches:
        mine = actors_for(match, user)
        decision = open_decisions.get(match.pk)
        if decision is not None:
            if decision.to in mine and decision.contested_at is None:
                found.append(Awaiting(match, "decision", decision.deadline_at, decision))
            continue
        active = match.state.get("active", "home")
        ended = match.state.get("teams", {}).get(active, {}).get("ended", [])
        if any(a.startswith(active + ":") and a.split(":")[1] not in ended for a in mine):
            found.append(Awaiting(match, "turn", match.turn_deadline_at))
    far = core.now() + timedelta(days=3650)
    return sorted(found, key=lambda item: (item.deadline_at or far, item.match.pk))
