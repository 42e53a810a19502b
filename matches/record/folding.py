"""How a match's record folds into its state, apart from the database.

The services fold the record to rebuild the state they store, and work out from it what a GM's
ruling takes back; the export's verifier folds a downloaded record to check it. Both read the
record through these functions, so that they follow the rulings the same way. Only the rules
engine and the standard library: an event is anything with a number, a type, its data and the
id of its post.

GM rulings that change the game (``rewind``, ``granted_reroll``, ``correction``, ``award``,
``match_ended``) are applied like declarations; the state is rebuilt from the events, never
patched. A rewind or a re-roll lists in its data the events it undid (they stay in the record)
and moves the dice stream forward past every index already read, so that no roll is ever read
twice for a different purpose.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules.engine import Answer, Declaration, Dice, MatchState, Resolution, Watch, resolve

ACTING_EVENTS = frozenset(("declaration", "granted_reroll"))
RULING_EVENTS = frozenset(("rewind", "granted_reroll", "correction", "award", "match_ended"))
UNDOING_EVENTS = frozenset(("rewind", "granted_reroll"))
REWINDABLE = ACTING_EVENTS | frozenset(("correction", "award", "match_ended"))
# What happened around the play (disputes, the clocks, the coaches) is never undone.
AROUND_PLAY = frozenset(
    (
        "dispute_raised",
        "dismissed",
        "upheld",
        "deadline_extended",
        "deadline_set",
        "paused",
        "resumed",
        "locked",
        "unlocked",
        "coach_replaced",
        "match_closed",
    )
)
CORRECTABLE = frozenset(("state", "at"))
ON_PITCH = frozenset(("standing", "prone", "stunned"))


class Recorded(Protocol):
    @property
    def number(self) -> int: ...

    @property
    def type(self) -> str: ...

    @property
    def data(self) -> Any: ...


class Posted(Recorded, Protocol):
    """An event with the id of its post: the events of one declaration share it."""

    @property
    def post_id(self) -> int | None: ...


class Refused(Exception):
    """A ruling the record does not allow: ``code`` is stable, ``message`` readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def undone_numbers(events: Iterable[Recorded]) -> frozenset[int]:
    """The numbers of the events that a GM's rewind or re-roll took back."""
    gone: set[int] = set()
    for event in events:
        if event.type in UNDOING_EVENTS:
            gone.update(event.data["undone"])
    return frozenset(gone)


# -- folding -------------------------------------------------------------------------------------


class SplicedDice:
    """The dice of a granted re-roll. The engine reads indexes ``start, start + 1, ...``: the
    first ones are the rolls made before the disputed one, read again from the indexes they
    came from (``keep``); the disputed roll and every later one come from ``new_from`` on, a
    part of the stream nobody has seen."""

    def __init__(self, base: Dice, start: int, keep: list[int], new_from: int) -> None:
        self.base = base
        self.start = start
        self.keep = keep
        self.new_from = new_from

    def actual(self, index: int) -> int:
        i = index - self.start
        return self.keep[i] if i < len(self.keep) else self.new_from + i - len(self.keep)

    def face(self, index: int, sides: int) -> int:
        return self.base.face(self.actual(index), sides)


def resolve_recorded(
    state: MatchState, data: Mapping[str, Any], dice: Dice, watch: Watch | None = None
) -> Resolution:
    """A declaration (or a granted re-roll) resolved again with the answers it records;
    ``watch`` sees its events one by one (see ``rules.engine.resolve``)."""
    return resolve(
        state,
        data["actor"],
        Declaration.from_json(data["declaration"]),
        tuple(Answer.from_json(a) for a in data["answers"]),
        dice,
        watch=watch,
    )


def spliced(state: MatchState, data: Mapping[str, Any], dice: Dice) -> SplicedDice:
    """The dice a granted re-roll read, from the state it started from."""
    return SplicedDice(dice, state.dice_used, list(data["keep"]), data["new_from"])


def apply_ruling(
    state: MatchState, event: Recorded, dice: Dice, watch: Watch | None = None
) -> MatchState:
    data = event.data
    if event.type == "rewind":
        rewound = state.copy()
        rewound.pending = None
        rewound.dice_used = data["dice_used"]
        return rewound
    if event.type == "granted_reroll":
        reroll_dice = spliced(state, data, dice)
        after = resolve_recorded(state, data, reroll_dice, watch).state
        after.dice_used = reroll_dice.actual(after.dice_used)
        return after
    if event.type == "correction":
        return corrected(state, data["player"], data["changes"])
    if event.type == "award":
        return finished(state, data["winner"], data["score"], "award")
    return finished(state, leader(state.score), state.score, "gm")


def leader(score: Mapping[str, int]) -> str | None:
    if score["home"] == score["away"]:
        return None
    return "home" if score["home"] > score["away"] else "away"


def finished(
    state: MatchState, winner: str | None, score: Mapping[str, int], by: str
) -> MatchState:
    done = state.copy()
    done.pending = None
    done.phase = "finished"
    done.score = {"home": int(score["home"]), "away": int(score["away"])}
    done.result = {"winner": winner, "score": dict(done.score), "by": by}
    return done


def corrected(state: MatchState, player: str, changes: Mapping[str, Any]) -> MatchState:
    """The state with one player's state or square changed (raises ValueError if illegal)."""
    data = state.to_json()
    if player not in data["players"]:
        raise ValueError(f"There is no player {player}.")
    if not set(changes) <= CORRECTABLE or not changes:
        raise ValueError("A correction changes a player's state or square.")
    shown = data["players"][player]
    shown.update(changes)
    if shown["state"] not in ON_PITCH:
        shown["at"] = None
    if data["ball"]["carrier"] == player:
        if shown["state"] != "standing" or shown["at"] is None:
            raise ValueError("The ball carrier must stay standing on the pitch.")
        data["ball"]["at"] = shown["at"]
    return MatchState.from_json(data)


def fold(
    events: Sequence[Recorded], dice: Dice, also_undone: frozenset[int] = frozenset()
) -> MatchState | None:
    """The state the record gives: the first state, then every declaration resolved again
    with its answers from the dice stream, and every GM ruling applied. Events a rewind undid
    stay in the record and are skipped. None for a record without a first state."""
    undone = undone_numbers(events) | also_undone
    state: MatchState | None = None
    for event in events:
        if event.number in undone:
            continue
        if event.type == "match_created":
            state = MatchState.from_json(event.data["state"])
        elif event.type == "declaration" and state is not None:
            state = resolve_recorded(state, event.data, dice).state
        elif event.type in RULING_EVENTS and state is not None:
            state = apply_ruling(state, event, dice)
    return state


# -- what a ruling takes back ----------------------------------------------------------------------


def live[E: Posted](events: Sequence[E], number: int | None) -> E:
    found = next((e for e in events if e.number == number), None)
    if found is None or found.number in undone_numbers(events):
        raise Refused("no_event", "There is no such event in play.")
    return found


def acting_event[E: Posted](events: Sequence[E], event: E) -> E:
    """The event to go back before: the declaration (or re-roll) whose resolution produced
    ``event``, or the ruling itself."""
    if event.type in REWINDABLE:
        return event
    undone = undone_numbers(events)
    acting = [
        e
        for e in events
        if e.type in ACTING_EVENTS
        and e.number < event.number
        and e.post_id == event.post_id
        and e.number not in undone
    ]
    if event.post_id is None or not acting:
        raise Refused("not_rewindable", "That event is not part of the play.")
    return acting[-1]


def taken_back(events: Sequence[Posted], target: Posted) -> list[int]:
    undone = undone_numbers(events)
    return [
        e.number
        for e in events
        if e.number >= target.number and e.number not in undone and e.type not in AROUND_PLAY
    ]


def dice_indexes(event: Recorded) -> list[int]:
    """The stream indexes a declaration or a re-roll read, in order."""
    data = event.data
    if event.type == "declaration":
        return list(range(data["dice_from"], data["dice_to"]))
    return [*data["keep"], *range(data["new_from"], data["dice_to"])]


def recorded_high_water(events: Iterable[Recorded], dice_used: int) -> int:
    """The first index of the stream past ``dice_used`` and every roll the record shows."""
    high = dice_used
    for event in events:
        high = max(high, event.data.get("dice_to", 0), event.data.get("dice_used", 0))
    return high


def rewind(events: Sequence[Posted], number: int | None, high_water: int) -> dict[str, Any]:
    """The data of a rewind to before the action that produced event ``number``; play goes
    on from ``high_water``, the first index of the stream nobody has seen."""
    target = acting_event(events, live(events, number))
    return {
        "to": target.number,
        "of_event": number,
        "undone": taken_back(events, target),
        "dice_used": high_water,
    }


@dataclass(frozen=True)
class Reroll:
    data: dict[str, Any]  # the granted_reroll event's
    start: MatchState  # the state the action is resolved again from
    resolution: Resolution  # its events follow the granted_reroll event


def reroll(events: Sequence[Posted], number: int | None, dice: Dice, high_water: int) -> Reroll:
    """Roll event ``number`` again with new dice from ``high_water`` on: the rolls before it
    in the same action stand, everything after it is resolved anew (later questions take
    their defaults)."""
    roll = live(events, number)
    acting = acting_event(events, roll) if roll.data.get("faces") else None
    if acting is None or acting.type not in ACTING_EVENTS:
        raise Refused("not_a_roll", "Only a roll of the dice can be rolled again.")
    before = [e for e in events if acting.number < e.number < roll.number]
    read_before = sum(len(e.data.get("faces", ())) for e in before)
    answered_before = sum(1 for e in before if e.type == "decision")
    gone = taken_back(events, acting)
    start = fold(events, dice, frozenset(gone))
    if start is None:
        raise Refused("no_record", "The match has no record to fold.")
    new_dice = SplicedDice(dice, start.dice_used, dice_indexes(acting)[:read_before], high_water)
    decl = Declaration.from_json(acting.data["declaration"])
    answers = tuple(Answer.from_json(a) for a in acting.data["answers"][:answered_before])
    while True:
        resolution = resolve(start, acting.data["actor"], decl, answers, new_dice)
        if resolution.pending is None:
            break
        answers = (*answers, Answer(resolution.pending.kind, resolution.pending.default))
    data = {
        "actor": acting.data["actor"],
        "declaration": acting.data["declaration"],
        "answers": [a.to_json() for a in answers],
        "of_event": roll.number,
        "to": acting.number,
        "undone": gone,
        "keep": new_dice.keep,
        "new_from": new_dice.new_from,
        "dice_to": new_dice.actual(resolution.state.dice_used),
    }
    return Reroll(data, start, resolution)
