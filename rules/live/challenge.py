"""The rock-paper-scissors challenge of 3-LIVE-BB, resolved as shared/LIVE.md fixes it.

Each function takes the throws made so far and says who won, or which pair must throw again;
nothing here is random: the throws come from people at the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Throw = Literal["rock", "paper", "scissors"]
THROWS: tuple[Throw, ...] = ("rock", "paper", "scissors")
BEATS: dict[str, str] = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
TIE = "tie"


class ChallengeError(ValueError):
    """Input that no challenge can come from; ``code`` is the contract's error name (LIVE.md
    names two: ``bad_throw`` for any input that is not a challenge, ``extra_throw``)."""

    code = "bad_throw"


class BadThrow(ChallengeError):
    code = "bad_throw"


class ExtraThrow(ChallengeError):
    code = "extra_throw"


def check_throw(value: object) -> Throw:
    if value not in THROWS:
        raise BadThrow(f"{value!r} is not rock, paper or scissors")
    return value


def check_pair(pair: object) -> tuple[Throw, Throw]:
    if not isinstance(pair, list | tuple) or len(pair) != 2:
        raise BadThrow(f"{pair!r} is not a pair of throws")
    return check_throw(pair[0]), check_throw(pair[1])


def beats(a: Throw, b: Throw) -> int:
    """1 when ``a`` beats ``b``, -1 when ``b`` beats ``a``, 0 for a tie."""
    if a == b:
        return 0
    return 1 if BEATS[a] == b else -1


@dataclass(frozen=True)
class Decided:
    winner: str  # a participant's id, or TIE (levelless only)
    throws_used: int


@dataclass(frozen=True)
class Pending:
    """The throws so far do not decide: the pair throws again (``redo``: the higher's one redo,
    else a tie's re-throw between equal levels)."""

    throws_used: int
    redo: bool


Outcome = Decided | Pending


def tie_meaning(level_a: int, level_b: int) -> str:
    """What a tie does at this difference: "again" (thrown again), "a" or "b" (wins it)."""
    if level_a == level_b:
        return "again"
    return "a" if level_a > level_b else "b"


def resolve_levels(
    a: str, level_a: int, b: str, level_b: int, throws: Sequence[tuple[Throw, Throw]]
) -> Outcome:
    """A two-person challenge with levels (LIVE.md's table). ``throws`` are (a's, b's)."""
    d = abs(level_a - level_b)
    high_is_a = level_a > level_b
    used = 0
    redo = False  # the higher lost the first throw and throws again once
    for pair in throws:
        ta, tb = check_pair(pair)
        used += 1
        if d == 0:
            result = beats(ta, tb)
            if result:
                return _finish(a if result > 0 else b, used, throws)
            continue
        th, tl = (ta, tb) if high_is_a else (tb, ta)
        high, low = (a, b) if high_is_a else (b, a)
        result = beats(th, tl)
        if not redo:
            if result >= 0 or d == 1:
                return _finish(high if result >= 0 else low, used, throws)
            redo = True
            continue
        if result == 0:
            return _finish(low if d == 2 else high, used, throws)
        return _finish(high if result > 0 else low, used, throws)
    return Pending(used, redo)


def resolve_levelless(
    a: str, b: str, throws: Sequence[tuple[Throw, Throw]], *, tie_to: str | None = None
) -> Outcome:
    """Plain rock-paper-scissors, one throw, no re-throw; a tie is TIE unless a rule gives it
    to one side (``tie_to``)."""
    if not throws:
        return Pending(0, False)
    ta, tb = check_pair(throws[0])
    result = beats(ta, tb)
    winner = a if result > 0 else b if result < 0 else (tie_to or TIE)
    return _finish(winner, 1, throws)


def _finish(winner: str, used: int, throws: Sequence[object]) -> Decided:
    if len(throws) > used:
        raise ExtraThrow(f"the challenge was decided after {used} throw(s)")
    return Decided(winner, used)


@dataclass(frozen=True)
class Participant:
    id: str
    level: int = 0


@dataclass(frozen=True)
class GroupOutcome:
    pairs: dict[str, Outcome]  # by attacker id, in the attackers' order

    @property
    def needs_throw(self) -> list[str]:
        return [aid for aid, out in self.pairs.items() if isinstance(out, Pending)]

    @property
    def defender_falls(self) -> bool:
        return any(
            isinstance(out, Decided) and out.winner == aid for aid, out in self.pairs.items()
        )


def group_bonus(attackers: int) -> int:
    """+1 per extra attacker, for each attacker (three attackers: +2 each)."""
    return max(0, attackers - 1)


def resolve_group(
    attackers: Sequence[Participant],
    defender: Participant,
    throws: Sequence[Mapping[str, Throw]],
) -> GroupOutcome:
    """Several attackers against one defender: everyone throws at once, each attacker against
    the defender; a pair's redo or re-throw is thrown by that pair only (one later item each)."""
    ids = [p.id for p in attackers]
    if not ids or len(set(ids)) != len(ids) or defender.id in ids:
        raise ChallengeError("a group needs attackers with distinct ids and another defender")
    per_pair: dict[str, list[tuple[Throw, Throw]]] = {aid: [] for aid in ids}
    if throws:
        first = throws[0]
        if set(first) != {*ids, defender.id}:
            raise BadThrow("the first throw of a group holds everybody's throw")
        for aid in ids:
            per_pair[aid].append((first[aid], first[defender.id]))
    for item in throws[1:]:
        pair = [key for key in item if key != defender.id]
        if len(item) != 2 or defender.id not in item or len(pair) != 1 or pair[0] not in ids:
            raise BadThrow("a later throw holds one attacker's and the defender's throws")
        per_pair[pair[0]].append((item[pair[0]], item[defender.id]))
    bonus = group_bonus(len(ids))
    pairs: dict[str, Outcome] = {}
    for attacker in attackers:
        pair_throws = per_pair[attacker.id]
        # A throw after the pair was decided is extra even if it came before another's re-throw.
        pairs[attacker.id] = resolve_levels(
            attacker.id, attacker.level + bonus, defender.id, defender.level, pair_throws
        )
    return GroupOutcome(pairs)
