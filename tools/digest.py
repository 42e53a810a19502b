"""One digest of many random matches, to show that a change of the code's shape changed no
result: the engine's whole matches (their events, final states and star player points) and
matches played through the write path (every event and the stored state), all from fixed seeds.
``manage.py random_digest`` prints both; the same code gives the same digests on any machine
with the same database engine (the served matches are compared on SQLite, the default)."""

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

from matches.models import Match, MatchEvent
from matches.record.spp import achievements
from matches.services import core
from rules.engine import FairDice
from rules.engine.randomplay import play_match
from tools.autoplay import demo_match, step

POSTS_PER_MATCH = 400  # a served match stops here if it has not ended: the digest stays quick


@dataclass(frozen=True)
class Digest:
    matches: int
    posts: int
    sha256: str


def _dumped(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=str).encode()


def engine_digest(matches: int) -> Digest:
    """Whole random matches played by the engine alone, the seed of each its number."""
    digest = hashlib.sha256()
    declarations = 0
    for number in range(matches):
        played = play_match(FairDice(f"seed-{number}".encode(), str(number)), random.Random(number))
        events = [event.to_json() for event in played.events]
        counts = achievements((event["type"], event) for event in events)
        digest.update(_dumped(played.state.to_json()))
        digest.update(_dumped(events))
        digest.update(_dumped({player: dict(count) for player, count in counts.items()}))
        declarations += played.declarations
    return Digest(matches, declarations, digest.hexdigest())


def served_digest(matches: int) -> Digest:
    """Random matches between the demo teams played through the services (in the database the
    caller chose: a throwaway one), each match's dice fixed by its id."""
    core.dice_for = lambda match: FairDice(b"digest", str(match.pk))
    core.sequence_dice = lambda match: FairDice(b"digest", f"{match.pk}:sequence")
    digest = hashlib.sha256()
    posts = 0
    for number in range(matches):
        match = demo_match()
        rng = random.Random(number)
        for _ in range(POSTS_PER_MATCH):
            status = Match.objects.values_list("status", flat=True).get(pk=match.pk)
            if status != Match.Status.IN_PLAY:
                break
            step(match.pk, rng)
            posts += 1
        rows = MatchEvent.objects.filter(match=match).order_by("number")
        for row in rows.values_list("number", "type", "data"):
            digest.update(_dumped(list(row)))
        digest.update(_dumped(Match.objects.get(pk=match.pk).state))
    return Digest(matches, posts, digest.hexdigest())
