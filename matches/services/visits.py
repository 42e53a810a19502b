"""visits: what a person saw of a match when they last opened its page, so that the page marks
what came after (the catch-up) and the replay can start at their own last action."""

from contextlib import suppress
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import Count, Min, OuterRef, Q, Subquery

from matches.models import Match, MatchEvent, Visit


@dataclass(frozen=True)
class CatchUp:
    new: int  # posts of others since the last visit
    first: int | None  # the first of them
    last_action: int | None  # the event of the person's last declaration still on record


def record_visit(match: Match, user: User) -> CatchUp:
    """What is new for ``user`` since their last visit of the match's page, and the visit
    noted: one small write, none when nothing was posted since (the page's polls never call
    this). A first visit marks nothing: it is all new. A reload with nothing new reads only
    the visit (and the last action once per version)."""
    visit = Visit.objects.filter(user=user, match=OuterRef("pk")).values("seen_post")[:1]
    latest, seen = (
        Match.objects.filter(pk=match.pk)
        .annotate(seen=Subquery(visit))
        .values_list("last_post_number", "seen")
        .get()
    )
    new, first = 0, None
    if seen is not None and latest > seen:
        others = Q(number__gt=seen) & (Q(author__isnull=True) | ~Q(author_id=user.pk))
        found = match.posts.aggregate(
            new=Count("pk", filter=others), first=Min("number", filter=others)
        )
        new, first = found["new"], found["first"]
    if seen is None or latest > seen:
        Visit.objects.bulk_create(
            [Visit(user=user, match=match, seen_post=latest)],
            update_conflicts=True,
            unique_fields=["user", "match"],
            update_fields=["seen_post"],
        )
    return CatchUp(new, first, _last_action(match, user))


def _last_action(match: Match, user: User) -> int | None:
    """The event of the person's last declaration still on record, read once per version of
    the match (every write, a rewind's included, moves the version on)."""
    key = f"last-action:{match.pk}:{match.dice_commitment}:{match.version}:{user.pk}"
    try:
        known = cache.get(key)
    except Exception:  # the cache only saves time
        known = None
    if known is not None:
        return int(known) or None
    number = (
        MatchEvent.objects.filter(
            match=match,
            type="declaration",
            post__author=user,
            post__undone_by__isnull=True,
        )
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    with suppress(Exception):  # the cache only saves time
        cache.set(key, number or 0, 3600)
    return number
