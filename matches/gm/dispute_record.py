"""The record a GM reads to rule on a dispute: the disputed roll in its context (the post that
holds it and its neighbours, a few events either side) and, on demand, the whole thread with
every event, the undone ones marked."""

from dataclasses import dataclass, field
from typing import Any

from matches import labels
from matches.models import Dispute, Match, MatchEvent, Post
from matches.record import folding
from matches.thread.page import describe as thread_describe
from matches.thread.sentences import Names

NEIGHBOUR_POSTS = 1  # posts shown before and after the disputed one
NEIGHBOUR_EVENTS = 5  # events shown before and after the disputed one


def event_text(event: MatchEvent, names: Names) -> str:
    """An event as the record lists it: its number, its type and the thread's line."""
    line = thread_describe(names, event.type, event.data)
    text = line.plain() if line is not None else labels.event_name(event.type)
    return f"#{event.number} · {text}"


@dataclass
class RecordLine:
    event: MatchEvent
    text: str
    undone: bool
    disputed: bool = False


@dataclass
class RecordPost:
    post: Post
    events: list[RecordLine] = field(default_factory=list)
    disputed: bool = False


def whole_record(match: Match) -> list[RecordPost]:
    """The thread: each post with the events it carries, the undone ones marked."""
    events = list(match.events.order_by("number"))
    posts = list(match.posts.select_related("author").order_by("number"))
    return _assembled(match, posts, events, undone=folding.undone_numbers(events))


def record_size(match: Match) -> dict[str, int]:
    return {"posts": match.posts.count(), "events": match.events.count()}


def dispute_context(match: Match, dispute: Dispute) -> list[RecordPost]:
    """The disputed post between its neighbours, with the events around the disputed roll
    (all of the disputed post's events when a post, not a roll, is disputed)."""
    event = dispute.event
    centre = _disputed_post_number(match, dispute)
    if centre is None:
        return []
    posts = list(
        match.posts.select_related("author")
        .filter(number__range=(centre - NEIGHBOUR_POSTS, centre + NEIGHBOUR_POSTS))
        .order_by("number")
    )
    events = match.events.filter(post__in=posts).order_by("number")
    if event is not None:
        events = events.filter(
            number__range=(event.number - NEIGHBOUR_EVENTS, event.number + NEIGHBOUR_EVENTS)
        )
    else:
        events = events.filter(post__number=centre)
    # An event is undone by a later rewind or re-roll, wherever in the thread that stands.
    undoing = list(match.events.filter(type__in=folding.UNDOING_EVENTS).order_by("number"))
    shown = _assembled(match, posts, list(events), folding.undone_numbers(undoing))
    for item in shown:
        item.disputed = item.post.number == centre
        for line in item.events:
            line.disputed = event is not None and line.event.number == event.number
    return shown


def _disputed_post_number(match: Match, dispute: Dispute) -> int | None:
    if dispute.post is not None:
        return dispute.post.number
    if dispute.event is None or dispute.event.post_id is None:
        return None
    number: int | None = (
        match.posts.filter(pk=dispute.event.post_id).values_list("number", flat=True).first()
    )
    return number


def _assembled(
    match: Match, posts: list[Post], events: list[MatchEvent], undone: frozenset[int]
) -> list[RecordPost]:
    names = Names(match)
    by_post: dict[Any, list[RecordLine]] = {}
    for event in events:
        by_post.setdefault(event.post_id, []).append(
            RecordLine(event, event_text(event, names), event.number in undone)
        )
    return [RecordPost(post, by_post.get(post.pk, [])) for post in posts]
