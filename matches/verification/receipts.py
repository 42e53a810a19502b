"""Receipts: the head of a match's whole record, which a coach keeps to hold the server to it.

The events already form a hash chain (``MatchEvent.chain_hash``), unchanged since the first
match, so every match ever played stays verifiable. The posts and the teams are anchored
beside it rather than inside it (a new version of the event chain would leave two kinds of
match to verify, and a chain written by the posting path would cost every post a read of the
previous post's hash): the posts form a second chain, computed from the record as it stands,
each link holding the one before and the post's number, kind, author and text (its first text:
an edit within the edit window shows as an edit and breaks no receipt), and the teams are
hashed as they played (names, races, coaches and the line-up of the players the match began
with). A receipt binds the three at one moment:

    <events>.<posts>.<sha256 of [event chain head, post chain head, teams]>

It is shown on the match page, in every e-mail and in the post-match report. ``verify_match
FILE --head RECEIPT`` recomputes the heads of the file at those counts: a file that changed
any event, post or team the receipt had seen (an alternative history regenerated from the
revealed seed included) does not give the receipt back.
"""

import contextlib
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.cache import cache

from matches.models import Match

GENESIS = "0" * 64
Doc = Mapping[str, Any]


def _sha(value: Any) -> str:
    body = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(body.encode()).hexdigest()


def post_link(prev: str, post: Doc) -> str:
    """The post chain's next head: the post as it was first written, after ``prev``."""
    text = (post.get("summary") or {}).get("original", post.get("text", ""))
    return _sha([prev, post.get("number"), post.get("kind"), post.get("author"), text])


def post_heads(posts: Sequence[Doc]) -> list[str]:
    """The post chain's head after each post: ``heads[k]`` after the first k posts."""
    heads = [GENESIS]
    for post in posts:
        heads.append(post_link(heads[-1], post))
    return heads


def teams_hash(teams: Doc, lineup: Doc, created_state: Doc | None) -> str:
    """The teams as they played: names, races and coaches, and the line-up of the players the
    match began with (the players the kick-off adds, inducements, are in the events)."""
    players = (created_state or {}).get("players", {})
    began = set(players) if isinstance(players, Mapping) else {p.get("id") for p in players}
    return _sha(
        [
            {key: {k: v for k, v in team.items() if k != "id"} for key, team in teams.items()},
            {pid: entry for pid, entry in lineup.items() if pid in began},
        ]
    )


def team_json(match: Match, key: str) -> dict[str, Any]:
    team = match.home_team if key == "home" else match.away_team
    return {
        "id": team.pk,
        "name": team.name,
        "race": team.race,
        "captain": team.captain.username,
        "rival": team.rival.username if team.rival is not None else None,
    }


def receipt(events: int, event_head: str, posts: int, post_head: str, teams: str) -> str:
    return f"{events}.{posts}.{_sha([event_head, post_head, teams])}"


def _created_state(events: Sequence[Doc], legacy: bool = False) -> Doc | None:
    """The match's first state: in its ``match_created`` event, which follows the pre-match
    sequence's events when the match had one. ``legacy``: as receipts made before this looked
    for it, in the first event only (so a match with a pre-match sequence hashed no line-up;
    such receipts still hold the file to what they covered)."""
    for event in events[:1] if legacy else events:
        if event.get("type") == "match_created":
            state: Doc = event.get("data", {}).get("state")
            return state
    return None


def of_export(doc: Doc) -> str:
    """The receipt of an exported match as it ends."""
    return at(doc, len(doc.get("events", [])), len(doc.get("posts", [])))


def at(doc: Doc, events: int, posts: int, legacy: bool = False) -> str:
    """The receipt the export ``doc`` gives after its first ``events`` events and ``posts``
    posts (``legacy``: as made before the line-up of a match with a pre-match sequence was
    hashed)."""
    listed = list(doc.get("events", []))
    return receipt(
        events,
        str(listed[events - 1].get("hash")) if events else GENESIS,
        posts,
        post_heads(list(doc.get("posts", []))[:posts])[-1],
        teams_hash(doc.get("teams", {}), doc.get("lineup") or {}, _created_state(listed, legacy)),
    )


def check(doc: Doc, held: str) -> list[str]:
    """What keeps the export ``doc`` from giving back the receipt ``held`` (none if it does).
    The export's own event chain is checked elsewhere; this recomputes its heads at the counts
    the receipt names."""
    try:
        events_at, posts_at, _digest = held.split(".")
        e, p = int(events_at), int(posts_at)
    except ValueError:
        return [f"{held!r} is not a receipt (<events>.<posts>.<hash>)"]
    events, posts = len(doc.get("events", [])), len(doc.get("posts", []))
    if not (0 <= e <= events and 0 <= p <= posts):
        return [
            f"the receipt was taken at {e} events and {p} posts; the file holds "
            f"{events} events and {posts} posts"
        ]
    if held not in (at(doc, e, p), at(doc, e, p, legacy=True)):
        return [
            f"the file does not give back the receipt {held}: its first {e} events, its first "
            f"{p} posts or its teams are not the ones the receipt was taken on"
        ]
    return []


RECEIPT_QUERIES = 2  # what the receipt costs the first page after a change


def for_match(match: Match) -> str:
    """The match's receipt now. Cached by the match's version (every change bumps it); after
    a change it reads only the posts added since (their links never change: an edit keeps the
    first text) and the event chain's head."""
    # The dice commitment, random for each match, keeps apart two matches that had one pk (a
    # database restored, or recreated, beside the same cache).
    ours = f"{match.pk}:{match.dice_commitment[:16]}"
    key = f"receipt2:{ours}:{match.version}"  # 2: the line-up after a pre-match sequence
    found = _cache_get(key)
    if isinstance(found, str):
        return found
    known = _cache_get(f"receipt2-posts:{ours}")
    count, head, teams = known if isinstance(known, tuple) else (0, GENESIS, None)
    if teams is None:
        created = (
            match.events.filter(type="match_created")
            .order_by("number")
            .values_list("data", flat=True)
            .first()
        )
        teams = teams_hash(
            {side: team_json(match, side) for side in ("home", "away")},
            match.lineup or {},
            (created or {}).get("state"),
        )
    for number, kind, author, text, summary in (
        match.posts.filter(number__gt=count)
        .order_by("number")
        .values_list("number", "kind", "author__username", "text", "summary")
    ):
        post = {"number": number, "kind": kind, "author": author, "text": text}
        head = post_link(head, {**post, "summary": summary})
        count = number
    last = match.events.order_by("-number").values_list("number", "hash").first()
    made = receipt(last[0] if last else 0, last[1] if last else GENESIS, count, head, teams)
    _cache_set(f"receipt2-posts:{ours}", (count, head, teams))
    _cache_set(key, made)
    return made


def _cache_get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # the cache only saves time
        return None


def _cache_set(key: str, value: Any) -> None:
    with contextlib.suppress(Exception):  # the cache only saves time
        cache.set(key, value, 7 * 24 * 3600)
