"""A whole match as one JSON document, and its verification.

The document holds the teams, the line-up, the events with their hash chain, the thread's posts,
the record's receipt (matches.verification.receipts) and a ``dice`` object listing every roll of
the match and of its pre- and post-match sequence. Anyone holding it can check it: the chain links
every event to the one before, and once the match is over and its seed is revealed, every roll is
recomputed from the seed (``FairDice``) by reading the record in its order as the server wrote
it: every declaration resolved again from the state the record gave at that point, every GM
ruling checked against what the record before it allows and applied as the server's fold applies
it (``matches.record.folding``). The rolls, the events and the final state must come out the
same, and every face the sequence shows must be the seed's at the place it says it was read.
"""

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matches.models import Match, MatchEvent
from matches.record import folding
from matches.record.folding import ACTING_EVENTS, AROUND_PLAY, RULING_EVENTS
from matches.services import GENESIS_HASH
from matches.verification import figures, receipts
from matches.verification.receipts import team_json
from rules.engine import Dice, FairDice, MatchState, Resolution

FORMAT = "bbweb-match/1"
Doc = Mapping[str, Any]
_NOT_PRODUCED = frozenset(("match_created", "declaration", *RULING_EVENTS))


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
class _Event:
    """An exported event as the fold reads it; its post is the post's number."""

    number: int
    type: str
    data: Any
    post_id: int | None

    @classmethod
    def of(cls, event: Doc) -> "_Event":
        return cls(event["number"], event["type"], event["data"], event.get("post"))


@dataclass(frozen=True)
class _Step:
    acting: Doc  # the declaration or granted re-roll event
    events: list[Doc]  # the engine's events that follow it
    resolution: Resolution
    indexes: list[int]  # where in the stream each face it read comes from, in order


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
    """Events of the record that change no state: the pre- and post-match sequence (its own
    dice stream) and what happened around the play (disputes, clocks, coaches)."""
    return str(event["type"]).startswith("sequence_") or event["type"] in AROUND_PLAY


def _produced(event: Doc) -> bool:
    """An event the engine produced, which follows the declaration or re-roll it belongs to."""
    return not _beside_play(event) and event["type"] not in _NOT_PRODUCED


class _Unreadable(ValueError):
    def __init__(self, number: int, error: Exception) -> None:
        why = str(error) or f"the engine fails ({type(error).__name__})"
        super().__init__(f"the record cannot be replayed from event {number}: {why}")


class _Replay:
    """The record read in its order, as the server wrote it: each declaration resolved again
    from the state the record gave when it was made (also the ones a rewind later undid), and
    each GM ruling checked against what the record before it allows, then applied as the
    server's fold applies it."""

    def __init__(self, dice: Dice) -> None:
        self.dice = _Recorder(dice)
        self.seen: list[_Event] = []
        self.state: MatchState | None = None
        self.steps: list[_Step] = []
        self.problems: list[str] = []

    def run(self, events: Sequence[Doc]) -> None:
        i = 0
        while i < len(events):
            event = events[i]
            followers = []
            i += 1
            if event["type"] in ACTING_EVENTS:
                while i < len(events) and _produced(events[i]):
                    followers.append(events[i])
                    i += 1
            try:
                self._read(event, followers)
            except Exception as error:  # a forged record may hold what the engine never meets
                raise _Unreadable(event["number"], error) from error
            self.seen.extend(_Event.of(e) for e in (event, *followers))

    def _read(self, event: Doc, followers: list[Doc]) -> None:
        kind = event["type"]
        if kind == "match_created":
            self.state = MatchState.from_json(event["data"]["state"])
        elif _beside_play(event):
            return
        elif self.state is None or kind not in ("declaration", *RULING_EVENTS):
            raise ValueError(f"event {event['number']} ({kind}) follows no declaration")
        elif kind == "declaration":
            self._declaration(self.state, event, followers)
        elif kind == "granted_reroll":
            self._reroll(self.state, event, followers)
        elif kind == "rewind":
            self._rewind(self.state, event)
        else:
            self._ruling(self.state, event)

    def _declaration(self, state: MatchState, event: Doc, followers: list[Doc]) -> None:
        data, name = event["data"], f"declaration {event['number']}"
        resolution = folding.resolve_recorded(state, data, self.dice)
        dice_from, dice_to = state.dice_used, resolution.state.dice_used
        if (data.get("dice_from"), data.get("dice_to")) != (dice_from, dice_to):
            self.problems.append(f"{name}: its dice are not where the stream puts them")
        self._step(_Step(event, followers, resolution, list(range(dice_from, dice_to))), name)
        self.state = resolution.state

    def _reroll(self, state: MatchState, event: Doc, followers: list[Doc]) -> None:
        data, number = event["data"], event["number"]
        if not self._reads_new_dice(state, number, data.get("new_from")):
            return
        try:
            reroll = folding.reroll(self.seen, data.get("of_event"), self.dice, data["new_from"])
        except folding.Refused as refused:
            self.problems.append(f"event {number}: the GM could not grant it: {refused.message}")
            return
        self._compare_ruling(event, reroll.data)
        indexes = folding.dice_indexes(_Event(number, "granted_reroll", reroll.data, None))
        self._step(
            _Step(event, followers, reroll.resolution, indexes), f"the re-roll (event {number})"
        )
        self.state = self._fold_with(event)

    def _rewind(self, state: MatchState, event: Doc) -> None:
        data, number = event["data"], event["number"]
        if not self._reads_new_dice(state, number, data.get("dice_used")):
            return
        try:
            expected = folding.rewind(self.seen, data.get("of_event"), data["dice_used"])
        except folding.Refused as refused:
            self.problems.append(f"event {number}: the GM could not rewind: {refused.message}")
            return
        self._compare_ruling(event, expected)
        self.state = self._fold_with(event)

    def _ruling(self, state: MatchState, event: Doc) -> None:
        try:
            self.state = folding.apply_ruling(state, _Event.of(event), self.dice)
        except ValueError as error:
            self.problems.append(f"event {event['number']}: the GM could not rule so: {error}")

    def _reads_new_dice(self, state: MatchState, number: int, first: Any) -> bool:
        """A rewind or a re-roll goes on from a part of the stream nobody has seen."""
        seen = folding.recorded_high_water(self.seen, state.dice_used)
        if isinstance(first, int) and first >= seen:
            return True
        self.problems.append(
            f"event {number}: play goes on from roll {first} of the stream, but the rolls "
            f"up to {seen - 1} were read before"
        )
        return False

    def _compare_ruling(self, event: Doc, expected: Mapping[str, Any]) -> None:
        for key, value in expected.items():
            if _normal(value) != event["data"].get(key):
                self.problems.append(
                    f"event {event['number']}: its {key!r} is not what the record before it gives"
                )

    def _fold_with(self, ruling: Doc) -> MatchState:
        """The state after a ruling that undoes events, as the server's fold rebuilds it."""
        state = folding.fold([*self.seen, _Event.of(ruling)], self.dice)
        assert state is not None  # a ruling is read only after the first state
        return state

    def _step(self, step: _Step, name: str) -> None:
        self.steps.append(step)
        self.problems.extend(_check_step(step, name))


def _recorded_faces(events: Sequence[Doc]) -> dict[int, int]:
    """The face of every index of the match's stream the record shows."""
    faces: dict[int, int] = {}
    indexes: list[int] = []
    for event in events:
        if event["type"] in ACTING_EVENTS:
            indexes = folding.dice_indexes(_Event.of(event))
        elif _produced(event):
            for face in event["data"].get("faces", ()):
                if indexes:
                    faces[indexes.pop(0)] = face
    return faces


def _rolls(step: _Step, sides: Mapping[int, int]) -> list[dict[str, Any]]:
    """The rolls of one declaration or re-roll, each with the stored event that shows it."""
    rolls = []
    indexes = iter(step.indexes)
    for produced, stored in zip(step.resolution.events, step.events, strict=False):
        for face in produced.data.get("faces", ()):
            index = next(indexes, None)
            rolls.append(
                {
                    "index": index,
                    "sides": sides.get(index) if index is not None else None,
                    "face": face,
                    "purpose": produced.data.get("purpose", produced.type),
                    "event": stored["number"],
                }
            )
    return rolls


def rolls(events: Sequence[Doc], dice: Dice) -> list[dict[str, Any]]:
    """Every roll of the record read from ``dice`` (the seed's stream once it is revealed), as
    the export lists them (raises ValueError when the record cannot be replayed)."""
    return _replayed(_Replay(dice), events)


def _replayed(replay: _Replay, events: Sequence[Doc]) -> list[dict[str, Any]]:
    """Every roll of the record, in its order (raises ``_Unreadable``)."""
    replay.run(events)
    return [roll for step in replay.steps for roll in _rolls(step, replay.dice.sides)]


# -- the sequence's rolls ----------------------------------------------------------------------
#
# The pre- and post-match sequence reads its own stream (winnings, fan factor, improvement rolls,
# the draws made for a coach who missed a deadline) and shows again the match's opening rolls.
# Its events show every face beside where it was read (see services.sequence._roll): a list KEY
# beside KEY_at, and KEY_sides when the dice are not D6.

SEQUENCE_SHOWN = ("dice", "fan_factor_dice", "die")  # faces of the sequence's own stream
MATCH_SHOWN = ("faces",)  # the match's opening rolls, shown again


@dataclass(frozen=True)
class _Shown:
    """A face a sequence event shows, and where in its stream it was read."""

    event: int
    purpose: str
    index: int
    sides: int
    face: int

    def json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "sides": self.sides,
            "face": self.face,
            "purpose": self.purpose,
            "event": self.event,
        }


def _sequence_events(events: Sequence[Doc]) -> list[Doc]:
    return [e for e in events if str(e["type"]).startswith("sequence_")]


def _nodes(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Doc]]:
    """Every mapping within ``value`` (itself included), with the keys that lead to it."""
    if isinstance(value, Mapping):
        yield path, value
        for key, inner in value.items():
            yield from _nodes(inner, (*path, str(key)))
    elif isinstance(value, list):
        for inner in value:
            yield from _nodes(inner, path)


def _listed(value: Any) -> list[Any] | None:
    if value is None or isinstance(value, list):
        return value
    return [value]


def _shown(event: Doc, keys: Sequence[str]) -> tuple[list[_Shown], bool]:
    """The faces the event shows under these keys, where each was read; and whether every
    face it shows says where (no for a record made before the sequence's rolls did)."""
    step = str(event["type"]).removeprefix("sequence_")
    found: list[_Shown] = []
    indexed = True
    for path, node in _nodes(event["data"]):
        for key in keys:
            faces = _listed(node.get(key))
            if faces is None:
                continue
            at = _listed(node.get(f"{key}_at"))
            sides = _listed(node.get(f"{key}_sides")) or [6] * len(faces)
            if at is None or not _a_roll_each(faces, at, sides):
                indexed = False
                continue
            purpose = "fan_factor" if key == "fan_factor_dice" else step
            purpose += " draw" if "drawn" in path else ""
            found.extend(
                _Shown(event["number"], purpose, i, n, f)
                for f, i, n in zip(faces, at, sides, strict=True)
            )
    return found, indexed


def sequence_rolls(events: Sequence[Doc]) -> list[dict[str, Any]]:
    """Every roll of the sequence's stream where the record shows it first, as the export
    lists them."""
    return [shown.json() for shown in _first_showings(events)]


def _first_showings(events: Sequence[Doc]) -> list[_Shown]:
    """Each roll of the sequence's stream where the record shows it first, by index."""
    first: dict[Any, _Shown] = {}
    for event in _sequence_events(events):
        for shown in _shown(event, SEQUENCE_SHOWN)[0]:
            first.setdefault(shown.index, shown)
    return sorted(first.values(), key=lambda shown: shown.index)


class _SequenceCheck:
    """Every face the sequence events show against the seed. Each event shows, as new, the
    next rolls of the sequence's stream (the sequence reads it in order and shows each roll in
    the event it posts next); a roll shown again is the same die."""

    def __init__(self, sequence_dice: Dice, match_faces: Mapping[int, int]) -> None:
        self.dice = sequence_dice
        self.match_faces = match_faces
        self.first: dict[int, _Shown] = {}
        self.wrong: set[int] = set()
        self.next = 0
        self.unindexed = False  # once some rolls do not say where, the order cannot be known
        self.problems: list[str] = []

    @property
    def checked(self) -> int:
        return len(set(self.first) - self.wrong)

    def run(self, events: Sequence[Doc]) -> None:
        for event in _sequence_events(events):
            shown, indexed = _shown(event, SEQUENCE_SHOWN)
            again, indexed_again = _shown(event, MATCH_SHOWN)
            if not (indexed and indexed_again):
                self.unindexed = True
                self.problems.append(
                    f"event {event['number']} ({event['type']}): its dice do not say where in "
                    "the stream each was read, so they cannot be checked (a record made before "
                    "the sequence's rolls were indexed)"
                )
            self._in_order(event["number"], shown)
            for one in shown:
                self._check(one)
            for one in again:
                self._check_match_roll(one)

    def _in_order(self, number: int, shown: list[_Shown]) -> None:
        new = sorted({s.index for s in shown if s.index not in self.first})
        if new and new != list(range(self.next, self.next + len(new))) and not self.unindexed:
            self.problems.append(
                f"event {number}: it shows the sequence's rolls {new}, but the stream's next "
                f"rolls are from {self.next} on"
            )
        self.next = max([self.next, *(i + 1 for i in new)])

    def _check(self, shown: _Shown) -> None:
        where = f"event {shown.event}: the sequence's roll {shown.index}"
        first = self.first.setdefault(shown.index, shown)
        if first.sides != shown.sides:
            self.problems.append(
                f"{where} is a D{shown.sides}, but a D{first.sides} in event {first.event}"
            )
            self.wrong.add(shown.index)
        face = self.dice.face(shown.index, shown.sides)
        if shown.face != face:
            self.problems.append(f"{where} shows {shown.face}, the seed gives {face}")
            self.wrong.add(shown.index)

    def _check_match_roll(self, shown: _Shown) -> None:
        face = self.match_faces.get(shown.index)
        if shown.face != face:
            self.problems.append(
                f"event {shown.event}: the match's roll {shown.index} shows {shown.face}, "
                f"the record's dice give {face}"
            )


def _a_roll_each(faces: list[Any], at: list[Any], sides: list[Any]) -> bool:
    """Each face with its index and its number of sides, all of them whole numbers."""
    if not len(at) == len(sides) == len(faces):
        return False
    numbers = [*faces, *at, *sides]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        return False
    return min(at, default=0) >= 0 and min(sides, default=1) > 0


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


def export_match(match: Match) -> dict[str, Any]:
    """The whole match as a JSON-ready dict (the seed only once the match is over)."""
    events = [event_json(e) for e in match.events.select_related("post").order_by("number").all()]
    rolls = _replayed(_Replay(_Recorded(_recorded_faces(events))), events)
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
    doc = {
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
        "teams": {"home": team_json(match, "home"), "away": team_json(match, "away")},
        "lineup": match.lineup,
        "state": match.state,
        "events": events,
        "posts": posts,
        "dice": {
            "commitment": match.dice_commitment,
            "seed": match.revealed_seed,
            "match_id": str(match.pk),
            "rolls": rolls,
            "sequence_rolls": sequence_rolls(events),
        },
    }
    doc["receipt"] = receipts.of_export(doc)  # the one shown on the page as the export is made
    return doc


# -- verification ------------------------------------------------------------------------------


@dataclass
class Verification:
    events: int = 0
    rolls: int = 0
    sequence_rolls: int = 0
    seed_revealed: bool = False
    values_itemised: bool = False  # the team values recomputed from itemised rosters
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


def verify(doc: Doc, head: str | None = None) -> Verification:
    """Check an exported match; every problem found is listed, none is fatal to the others.
    ``head``: a receipt (matches.verification.receipts) the file must give back."""
    events = list(doc.get("events", []))
    dice = doc.get("dice", {})
    result = Verification(events=len(events))
    if doc.get("format") != FORMAT:
        result.problems.append(f"this is not a {FORMAT} document")
        return result
    result.problems.extend(check_chain(events))
    if "receipt" in doc and doc["receipt"] != receipts.of_export(doc):
        result.problems.append(
            f"the file's receipt {doc['receipt']} is not the one its events, posts and teams give"
        )
    if head is not None:
        result.problems.extend(receipts.check(doc, head))
    seed = dice.get("seed")
    if not seed:
        return result
    result.seed_revealed = True
    if hashlib.sha256(bytes.fromhex(seed)).hexdigest() != dice.get("commitment"):
        result.problems.append("the seed does not match the commitment published for the match")
        return result
    fair = FairDice(bytes.fromhex(seed), str(dice.get("match_id")))
    listed = list(dice.get("rolls", []))
    replay = _Replay(fair)
    try:
        computed = _replayed(replay, events)
    except _Unreadable as error:
        result.problems.extend([*replay.problems, str(error)])
        return result
    result.problems.extend(replay.problems)
    result.problems.extend(_compare_rolls(listed, computed))
    result.rolls = sum(1 for a, b in zip(listed, computed, strict=False) if a == b)
    sequence = _SequenceCheck(
        FairDice(bytes.fromhex(seed), f"{dice.get('match_id')}:sequence"),
        {roll["index"]: roll["face"] for roll in computed},
    )
    sequence.run(events)
    result.problems.extend(sequence.problems)
    if "sequence_rolls" in dice:  # exports made before they were listed do not list them
        shown = [one.json() for one in _first_showings(events)]
        result.problems.extend(_compare_rolls(dice["sequence_rolls"], shown, "sequence roll"))
    result.sequence_rolls = sequence.checked
    state = replay.state
    if state is not None and _settled(state.to_json(compact=True)) != _settled(doc.get("state")):
        result.problems.append("the final state is not the one the events lead to")
    result.problems.extend(figures.check(events, doc.get("lineup") or {}, state))
    result.values_itemised = figures.values_itemised(events)
    return result


def _check_step(step: _Step, name: str) -> list[str]:
    """``name``: how the problems call the declaration or the re-roll."""
    problems = []
    if step.resolution.pending is not None:
        problems.append(f"{name} stops at a decision the record does not answer")
    produced = [{"type": e.type, "data": _normal(e.data)} for e in step.resolution.events]
    stored = [{"type": e["type"], "data": e["data"]} for e in step.events]
    if produced != stored:
        at = next(
            (k for k, (a, b) in enumerate(zip(produced, stored, strict=False)) if a != b),
            min(len(produced), len(stored)),
        )
        if at < len(stored):
            problems.append(f"event {step.events[at]['number']} is not what {name} gives")
        else:
            problems.append(f"{name} gives events the record does not hold")
    return problems


def _compare_rolls(listed: Sequence[Doc], computed: Sequence[Doc], name: str = "roll") -> list[str]:
    problems = []
    for a, b in zip(listed, computed, strict=False):
        if a != b:
            problems.append(
                f"{name} {b['index']}: the file says {_roll_text(a)}, the record and the seed "
                f"give {_roll_text(b)}"
            )
    if len(listed) != len(computed):
        problems.append(f"the file lists {len(listed)} {name}s, the match has {len(computed)}")
    return problems


def _roll_text(roll: Doc) -> str:
    return f"{roll.get('face')} on a D{roll.get('sides')} ({roll.get('purpose')})"
