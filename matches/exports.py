"""A whole match as one JSON document, and its verification.

The document holds the teams, the line-up, the events with their hash chain, the thread's
posts and a ``dice`` object listing every roll of the match. Anyone holding it can check it:
the chain links every event to the one before, and once the match is over and its seed is
revealed, every roll is recomputed from the seed (``FairDice``) by resolving every declaration
again from the first state; the rolls, the events and the final state must come out the same.
"""

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matches.models import Match, MatchEvent
from matches.services import GENESIS_HASH
from rules.engine import Answer, Declaration, Dice, FairDice, MatchState, Resolution, resolve

FORMAT = "bbweb-match/1"
Doc = Mapping[str, Any]


class _Recorder:
    """A dice stream that notes the number of sides of every face it is asked for."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.sides: dict[int, int] = {}

    def face(self, index: int, sides: int) -> int:
        self.sides[index] = sides
        return self.inner.face(index, sides)


class _Recorded:
    """The faces the record shows, by their index in the match's stream."""

    def __init__(self, faces: dict[int, int]) -> None:
        self.faces = faces

    def face(self, index: int, sides: int) -> int:
        if index not in self.faces:
            raise ValueError(f"roll {index} is not in the record")
        return self.faces[index]


@dataclass(frozen=True)
class _Step:
    declaration: Doc  # the declaration event
    events: list[Doc]  # the engine's events that follow it
    before: MatchState
    resolution: Resolution
    sides: dict[int, int]


def _normal(value: Any) -> Any:
    """As it reads after a trip through JSON (tuples become lists...)."""
    return json.loads(json.dumps(value))


def _settled(state: Any) -> Any:
    """The state without the question it may be waiting on: a pending decision is not in the
    record until it is answered (the events of its declaration are appended then)."""
    if not isinstance(state, dict):
        return state
    return _normal({**state, "pending": None})


def _beside_play(event: Doc) -> bool:
    """Events of the record that no declaration produced: the pre- and post-match sequence
    (its own dice stream) and the GM's actions."""
    return str(event["type"]).startswith("sequence_") or "gm" in event["data"]


def _replay(events: Sequence[Doc], dice_for_step: Any) -> Iterator[_Step]:
    """Every declaration of the record resolved again from the state the record gives before
    it. ``dice_for_step(declaration_event, followers)`` is the stream to resolve it with."""
    state: MatchState | None = None
    i = 0
    while i < len(events):
        event = events[i]
        i += 1
        if event["type"] == "match_created":
            state = MatchState.from_json(event["data"]["state"])
            continue
        if _beside_play(event):
            continue
        if event["type"] != "declaration" or state is None:
            raise ValueError(f"event {event['number']} ({event['type']}) follows no declaration")
        followers = []
        while (
            i < len(events)
            and events[i]["type"] not in ("declaration", "match_created")
            and not _beside_play(events[i])
        ):
            followers.append(events[i])
            i += 1
        data = event["data"]
        dice = _Recorder(dice_for_step(event, followers))
        resolution = resolve(
            state,
            data["actor"],
            Declaration.from_json(data["declaration"]),
            tuple(Answer.from_json(a) for a in data["answers"]),
            dice,
        )
        yield _Step(event, followers, state, resolution, dice.sides)
        state = resolution.state


def _faces_of(declaration: Doc, followers: Sequence[Doc]) -> dict[int, int]:
    faces: dict[int, int] = {}
    index = declaration["data"]["dice_from"]
    for event in followers:
        for face in event["data"].get("faces", ()):
            faces[index] = face
            index += 1
    return faces


def _rolls(step: _Step) -> list[dict[str, Any]]:
    """The rolls of one declaration, each with the stored event that shows it."""
    rolls = []
    index = step.before.dice_used
    for produced, stored in zip(step.resolution.events, step.events, strict=False):
        for face in produced.data.get("faces", ()):
            rolls.append(
                {
                    "index": index,
                    "sides": step.sides.get(index),
                    "face": face,
                    "purpose": produced.data.get("purpose", produced.type),
                    "event": stored["number"],
                }
            )
            index += 1
    return rolls


def event_json(event: MatchEvent) -> dict[str, Any]:
    return {
        "number": event.number,
        "type": event.type,
        "data": event.data,
        "half": event.half,
        "turn": event.turn,
        "post": event.post.number if event.post is not None else None,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
        "created_at": event.created_at.isoformat(),
    }


def _team_json(match: Match, key: str) -> dict[str, Any]:
    team = match.home_team if key == "home" else match.away_team
    return {
        "id": team.pk,
        "name": team.name,
        "race": team.race,
        "captain": team.captain.username,
        "rival": team.rival.username if team.rival is not None else None,
    }


def export_match(match: Match) -> dict[str, Any]:
    """The whole match as a JSON-ready dict (the seed only once the match is over)."""
    events = [event_json(e) for e in match.events.select_related("post").order_by("number").all()]
    rolls = [
        roll
        for step in _replay(events, lambda decl, followers: _Recorded(_faces_of(decl, followers)))
        for roll in _rolls(step)
    ]
    posts = [
        {
            "number": post.number,
            "kind": post.kind,
            "author": post.author.username if post.author is not None else None,
            "actor": post.actor,
            "half": post.half,
            "turn": post.turn,
            "team": post.team,
            "declaration": post.declaration,
            "notation": post.notation,
            "text": post.text,
            "summary": post.summary,
            "created_at": post.created_at.isoformat(),
        }
        for post in match.posts.select_related("author").order_by("number")
    ]
    return {
        "format": FORMAT,
        "match": {
            "id": match.pk,
            "status": match.status,
            "version": match.version,
            "gm": match.gm.username,
            "league": match.league.name if match.league is not None else None,
            "created_at": match.created_at.isoformat(),
            "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        },
        "teams": {"home": _team_json(match, "home"), "away": _team_json(match, "away")},
        "lineup": match.lineup,
        "state": match.state,
        "events": events,
        "posts": posts,
        "dice": {
            "commitment": match.dice_commitment,
            "seed": match.revealed_seed,
            "match_id": str(match.pk),
            "rolls": rolls,
        },
    }


# -- verification ------------------------------------------------------------------------------


@dataclass
class Verification:
    events: int = 0
    rolls: int = 0
    seed_revealed: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.seed_revealed and not self.problems


def check_chain(events: Sequence[Doc]) -> list[str]:
    """Numbers 1, 2, 3... each event holding the hash of the one before and its own."""
    problems = []
    prev = GENESIS_HASH
    for expected_number, event in enumerate(events, start=1):
        number = event.get("number", 0)
        if number != expected_number:
            problems.append(f"event {number} stands where event {expected_number} should")
        if event.get("prev_hash") != prev:
            problems.append(f"event {number} does not hold the hash of the event before it")
        own = MatchEvent.chain_hash(prev, number, event.get("type", ""), event.get("data", {}))
        if event.get("hash") != own:
            problems.append(f"event {number}: its hash does not match its content")
        prev = str(event.get("hash"))
    return problems


def verify(doc: Doc) -> Verification:
    """Check an exported match; every problem found is listed, none is fatal to the others."""
    events = list(doc.get("events", []))
    dice = doc.get("dice", {})
    result = Verification(events=len(events))
    if doc.get("format") != FORMAT:
        result.problems.append(f"this is not a {FORMAT} document")
        return result
    result.problems.extend(check_chain(events))
    seed = dice.get("seed")
    if not seed:
        return result
    result.seed_revealed = True
    if hashlib.sha256(bytes.fromhex(seed)).hexdigest() != dice.get("commitment"):
        result.problems.append("the seed does not match the commitment published for the match")
        return result
    fair = FairDice(bytes.fromhex(seed), str(dice.get("match_id")))
    listed = list(dice.get("rolls", []))
    computed: list[dict[str, Any]] = []
    state: MatchState | None = None
    try:
        for step in _replay(events, lambda decl, followers: fair):
            result.problems.extend(_check_step(step))
            computed.extend(_rolls(step))
            state = step.resolution.state
    except (KeyError, TypeError, ValueError) as error:
        result.problems.append(f"the record cannot be replayed: {error}")
        return result
    result.problems.extend(_compare_rolls(listed, computed))
    result.rolls = sum(1 for a, b in zip(listed, computed, strict=False) if a == b)
    if state is not None and _settled(state.to_json(compact=True)) != _settled(doc.get("state")):
        result.problems.append("the final state is not the one the events lead to")
    return result


def _check_step(step: _Step) -> list[str]:
    data = step.declaration["data"]
    number = step.declaration["number"]
    problems = []
    if step.resolution.pending is not None:
        problems.append(f"declaration {number} stops at a decision the record does not answer")
    if (data.get("dice_from"), data.get("dice_to")) != (
        step.before.dice_used,
        step.resolution.state.dice_used,
    ):
        problems.append(f"declaration {number}: its dice are not where the stream puts them")
    produced = [{"type": e.type, "data": _normal(e.data)} for e in step.resolution.events]
    stored = [{"type": e["type"], "data": e["data"]} for e in step.events]
    if produced != stored:
        at = next(
            (k for k, (a, b) in enumerate(zip(produced, stored, strict=False)) if a != b),
            min(len(produced), len(stored)),
        )
        if at < len(stored):
            wrong = step.events[at]["number"]
            problems.append(f"event {wrong} is not what declaration {number} gives")
        else:
            problems.append(f"declaration {number} gives events the record does not hold")
    return problems


def _compare_rolls(listed: list[Doc], computed: list[dict[str, Any]]) -> list[str]:
    problems = []
    for a, b in zip(listed, computed, strict=False):
        if a != b:
            problems.append(
                f"roll {b['index']}: the file says {_roll_text(a)}, the seed gives {_roll_text(b)}"
            )
    if len(listed) != len(computed):
        problems.append(f"the file lists {len(listed)} rolls, the match has {len(computed)}")
    return problems


def _roll_text(roll: Doc) -> str:
    return f"{roll.get('face')} on a D{roll.get('sides')} ({roll.get('purpose')})"
