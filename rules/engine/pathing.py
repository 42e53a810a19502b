"""The safest paths of one player's action, for ``options``: squares as sets of bits (a column
every 17 bits, so that a king step and Leap's jump of two are shifts), grown one step at a time
with one set per distinct chance, and the chances of the rolls on the way (standing up, dodges,
Leaps, Going For It, a pick-up), counted as ``options`` explains."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from functools import cache, partial
from typing import NamedTuple

from .board import HEIGHT, NAMES, NEIGHBOURS, SQUARES, WIDTH
from .core import has_tz
from .state import MatchState, Player
from .tables import agility_target

# ------------------------------------------------------------------------------------------
# The pitch as bits

STRIDE = HEIGHT + 2  # two guard bits a column: a jump of two rows never wraps into the next
BIT: tuple[int, ...] = tuple(1 << ((s // HEIGHT) * STRIDE + s % HEIGHT) for s in range(SQUARES))
VALID = sum(BIT)
_NBYTES = (WIDTH * STRIDE + 7) // 8
SQ_AT: dict[int, int] = {b.bit_length() - 1: s for s, b in enumerate(BIT)}
AROUND: tuple[int, ...] = tuple(sum(BIT[n] for n in NEIGHBOURS[s]) for s in range(SQUARES))
_DECODE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(  # byte position, value -> squares
    tuple(
        tuple(SQ_AT[i * 8 + j] for j in range(8) if v >> j & 1 and i * 8 + j in SQ_AT)
        for v in range(256)
    )
    for i in range(_NBYTES)
)
_DECODE_NAMES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(NAMES[s] for s in v) for v in row) for row in _DECODE
)
_RING2 = tuple(
    dx * STRIDE + dy for dx in range(-2, 3) for dy in range(-2, 3) if max(abs(dx), abs(dy)) == 2
)


def grow(b: int) -> int:
    """The set and the squares one king step from it (a row step, then a column step)."""
    h = b | (b << 1) | (b >> 1)
    return (h | (h << STRIDE) | (h >> STRIDE)) & VALID


def jump(b: int) -> int:
    """The squares exactly two king steps from a square of a set (Leap)."""
    out = 0
    for k in _RING2:
        out |= b << k if k > 0 else b >> -k
    return out & VALID


_JUMPS: tuple[int, ...] = tuple(jump(BIT[s]) for s in range(SQUARES))  # Leap from each


def bit_squares(b: int) -> list[int]:
    """The squares of a set (only the bytes between its lowest and highest square read)."""
    out: list[int] = []
    if not b:
        return out
    lo = ((b & -b).bit_length() - 1) >> 3
    n = ((b.bit_length() + 7) >> 3) - lo
    decode = _DECODE
    for i, v in enumerate((b >> (lo << 3)).to_bytes(n, "little"), lo):
        if v:
            out.extend(decode[i][v])
    return out


def bit_names(b: int) -> list[str]:
    """``bit_squares``, as names."""
    out: list[str] = []
    if not b:
        return out
    lo = ((b & -b).bit_length() - 1) >> 3
    n = ((b.bit_length() + 7) >> 3) - lo
    decode = _DECODE_NAMES
    for i, v in enumerate((b >> (lo << 3)).to_bytes(n, "little"), lo):
        if v:
            out.extend(decode[i][v])
    return out


# ------------------------------------------------------------------------------------------
# Chances


@cache
def _d6(target: int, mod: int, agility: bool = True, diving: bool = False) -> float:
    """A natural 1 fails; for an agility roll a natural 6 succeeds; Diving Tackle takes 2 more
    off a roll it would otherwise let through."""
    need = target - mod + (2 if diving else 0)
    ok = sum(1 for f in range(2, 7) if f >= need or (agility and f == 6))
    return ok / 6


@cache
def _escape(edge: int) -> float:
    """Escaping Tentacles: 2D6 + the mover's ST - the Tentacles player's ST must beat 5."""
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + edge > 5) / 36


@cache
def _dodges(target: int, base: int, tails: int = 0, diving: bool = False) -> tuple[float, ...]:
    """A dodge's chance by the opposing tackle zones counted on the square entered (0-8)."""
    return tuple(_d6(target, base - tails - c, True, diving) for c in range(9))


_ODD = frozenset(("Prehensile Tail", "Diving Tackle", "Tentacles"))


class Walk:
    """What one player's steps cost this action."""

    def __init__(self, st: MatchState, p: Player, budget: int) -> None:
        assert p.at is not None
        self.st = st
        self.p = p
        self.budget = budget
        occupied = 0
        for sq in st.board:
            occupied |= BIT[sq]
        self.empty = (VALID & ~occupied) | BIT[p.at]
        skills = p.skills
        stunty = "Stunty" in skills
        marked = odd = 0
        ones = twos = fours = 0  # opposing tackle zones a dodge counts, in three bit planes
        team = p.team
        for q in st.players.values():
            if q.team == team or q.at is None or q.state != "standing" or q.no_tz:
                continue
            m = AROUND[q.at]
            marked |= m
            if q.skills & _ODD:
                odd |= m
            if not stunty and "Titchy" not in q.skills:
                c1 = ones & m
                ones ^= m
                c2 = twos & c1
                twos ^= c1
                fours |= c2
        self.marked = marked
        self.odd = odd
        planes = []
        if ones | twos | fours:
            for c in range(1, 8):
                m = (ones if c & 1 else ~ones) & (twos if c & 2 else ~twos)
                m &= fours if c & 4 else ~fours
                m &= VALID
                if m:
                    planes.append((c, m))
        self.planes = planes
        self.counted = ones | twos | fours
        prone = p.state == "prone" and "Jump Up" not in skills
        self.ma_left = max(p.ma - 3, 0) if prone else p.ma
        self.gfi = _d6(3 if st.weather == "blizzard" else 2, 0, False)
        self.target = agility_target(p.ag)
        self.base = 1 + ("Two Heads" in skills) + ("Titchy" in skills)
        self.dodges = _dodges(self.target, self.base)
        self.leap = "Leap" in skills and not p.rooted
        self.vll = 1 if "Very Long Legs" in skills else 0
        self.leaps = (_d6(self.target, self.vll),)
        self.start = 0.5 if prone and p.ma < 3 else 1.0
        self.ball = 0
        self.pick = 1.0
        ball = st.ball_at
        if st.carrier is None and ball is not None:
            self.ball = BIT[ball]
            self.pick = self._pick(ball)

    def _pick(self, ball: int) -> float:
        p, st = self.p, self.st
        if "No Hands" in p.skills:
            return 0.0
        mod = 1
        if "Big Hand" not in p.skills:
            mod -= len(self._markers(ball))
            if st.weather == "pouring_rain":
                mod -= 1
        if "Extra Arms" in p.skills:
            mod += 1
        return _d6(self.target, mod)

    def count(self, sq: int) -> int:
        b = BIT[sq]
        for c, m in self.planes:
            if m & b:
                return c
        return 0

    def _markers(self, sq: int) -> list[Player]:
        st = self.st
        out = []
        for n in NEIGHBOURS[sq]:
            o = st.board.get(n)
            if o is not None and (q := st.players[o]).team != self.p.team and has_tz(q):
                out.append(q)
        return out

    def _odd(self, frm: int) -> tuple[int, bool, float]:
        """Prehensile Tails, Diving Tackle and the chance of escaping Tentacles on ``frm``."""
        markers = self._markers(frm)
        tails = sum(1 for q in markers if "Prehensile Tail" in q.skills)
        diving = any("Diving Tackle" in q.skills for q in markers)
        escape = 1.0
        for q in markers:
            if "Tentacles" in q.skills:
                escape *= _escape(self.p.st - q.st)
        return tails, diving, escape

    def odd_dodges(self, frm: int) -> list[float]:
        tails, diving, escape = self._odd(frm)
        return [c * escape for c in _dodges(self.target, self.base, tails, diving)]

    def odd_leap(self, frm: int) -> float:
        """A Leap takes no Prehensile Tail (LRB5 Leap: no modifiers but Very Long Legs); it
        still has to escape Tentacles."""
        _, _, escape = self._odd(frm)
        return self.leaps[0] * escape

    def leave(self, frm: int, to: int, *, leap: bool) -> float:
        """The chance of the roll(s) for going from ``frm`` to ``to`` (a step or a Leap)."""
        bit = BIT[frm]
        if leap:
            return self.odd_leap(frm) if self.odd & bit else self.leaps[0]
        if not self.marked & bit:
            return 1.0
        if self.odd & bit:
            return self.odd_dodges(frm)[self.count(to)]
        return self.dodges[self.count(to)]

    def factor(self, frm: int, to: int, steps: int, *, leap: bool) -> float:
        """Everything rolled for entering ``to`` as the ``steps``-th square of the action."""
        f = self.leave(frm, to, leap=leap)
        for k in (steps - 1, steps) if leap else (steps,):
            if k > self.ma_left:
                f *= self.gfi
        if self.ball & BIT[to]:
            f *= self.pick
        return f


class ChanceClass(NamedTuple):
    chance: float
    steps: int
    leapt: bool
    bits: int


# ``ChanceClass((chance, steps, leapt, bits))`` without the Python-level ``__new__`` of a NamedTuple
_new_class: Callable[[tuple[float, int, bool, int]], ChanceClass] = partial(
    tuple.__new__, ChanceClass
)


def safest_classes(walk: Walk) -> list[ChanceClass]:
    """The squares a player can reach, as sets of one chance, one number of squares and one
    state of its Leap each; a square is in the first set that has it (by chance, the greatest
    first, then by squares). Dijkstra's search by chance over sets of squares: a set taken off
    the queue loses the squares already reached with as good a chance in as few squares."""
    p = walk.p
    assert p.at is not None
    budget = 0 if p.rooted else walk.budget
    ma_left, gfi = walk.ma_left, walk.gfi
    pending: dict[tuple[float, int, bool], int] = {}
    queue: list[tuple[float, int, bool]] = []
    # squares reached in at most k squares (``within``), and those with the Leap unused
    leap = walk.leap
    within = [0] * (budget + 1)
    within_plain = [0] * (budget + 1) if leap else within  # (one list without a Leap)
    seen: list[ChanceClass] = []
    empty, marked, odd, ball, pick = walk.empty, walk.marked, walk.odd, walk.ball, walk.pick
    planes, counted, dodges = walk.planes, walk.counted, walk.dodges
    push = heapq.heappush

    def add(chance: float, k: int, leapt: bool, bits: int) -> None:
        if ball and bits & ball:
            key = (-chance * pick, k, leapt)
            old = pending.get(key)
            if old is None:
                pending[key] = bits & ball
                push(queue, key)
            else:
                pending[key] = old | (bits & ball)
            bits &= ~ball
            if not bits:
                return
        key = (-chance, k, leapt)
        old = pending.get(key)
        if old is None:
            pending[key] = bits
            push(queue, key)
        else:
            pending[key] = old | bits

    def split(chance: float, k: int, leapt: bool, d: int, chances: Sequence[float]) -> None:
        rest = d & ~counted
        if rest:
            add(chance * chances[0], k, leapt, rest)
        for c, m in planes:
            part = d & m
            if part:
                add(chance * chances[c], k, leapt, part)

    add(walk.start, 0, False, BIT[p.at])
    pop = heapq.heappop
    while queue:
        key = pop(queue)
        bits = pending.pop(key, 0)  # (0: taken already by a flood below)
        neg, k, leapt = key
        chance = -neg
        while True:
            bits &= ~(within[k] if leapt else within_plain[k])
            if not bits:
                break
            seen.append(_new_class((chance, k, leapt, bits)))
            within[k:] = [w | bits for w in within[k:]]
            if leap and not leapt:
                within_plain[k:] = [w | bits for w in within_plain[k:]]
            if k == budget:
                break
            q = chance * gfi if k + 1 > ma_left else chance
            # what is already reached in as few squares is reached with as good a chance (a
            # set leaves the queue by chance, the greatest first): not worth adding again
            open_ = empty & ~(within[k + 1] if leapt else within_plain[k + 1])
            tz = bits & marked
            if tz:
                plain = tz & ~odd
                if plain:
                    d = grow(plain) & open_
                    if d:
                        split(q, k + 1, leapt, d, dodges)
                if tz & odd:
                    for s in bit_squares(tz & odd):
                        d = AROUND[s] & open_
                        if d:
                            split(q, k + 1, leapt, d, walk.odd_dodges(s))
            if leap and not leapt and k + 2 <= budget:
                q2 = q * gfi if k + 2 > ma_left else q
                open2 = empty & ~within[k + 2]
                plain = bits & ~odd
                if plain:
                    d = jump(plain) & open2
                    if d:
                        add(q2 * walk.leaps[0], k + 2, True, d)
                if bits & odd:
                    for s in bit_squares(bits & odd):
                        d = _JUMPS[s] & open2
                        if d:
                            add(q2 * walk.odd_leap(s), k + 2, True, d)
            free = bits & ~marked
            d = grow(free) & open_ if free else 0
            if not d:
                break
            if q != chance or d & ball:
                add(q, k + 1, leapt, d)
                break
            # the next ring of free squares has this same chance, the greatest left: it is
            # settled at once (with what was queued for it), not queued
            bits = d | pending.pop((neg, k + 1, leapt), 0)
            k += 1
    return seen


def classes_by_steps(classes: list[ChanceClass]) -> dict[tuple[int, bool], list[ChanceClass]]:
    out: dict[tuple[int, bool], list[ChanceClass]] = {}
    for c in classes:
        out.setdefault((c.steps, c.leapt), []).append(c)
    return out


def trace(
    walk: Walk, by_steps: dict[tuple[int, bool], list[ChanceClass]], sq: int, cls: ChanceClass
) -> list[int]:
    """The squares entered on the way to ``sq`` as found in ``cls``, first to last: back one
    step at a time to a set whose chance times the step's is this one."""
    path = [sq]
    cur, steps, chance, leapt = sq, cls.steps, cls.chance, cls.leapt
    start = walk.p.at
    while steps > 0:
        found = None
        for c in by_steps.get((steps - 1, leapt), ()):
            hit = c.bits & AROUND[cur]
            if not hit:
                continue
            for t in NEIGHBOURS[cur]:
                if (
                    hit & BIT[t]
                    and abs(c.chance * walk.factor(t, cur, steps, leap=False) - chance) <= 1e-9
                ):
                    found = (t, c)
                    break
            if found is not None:
                break
        if found is None and leapt:
            for c in by_steps.get((steps - 2, False), ()):
                for t in bit_squares(c.bits & _JUMPS[cur]):
                    if abs(c.chance * walk.factor(t, cur, steps, leap=True) - chance) <= 1e-9:
                        found = (t, c)
                        break
                if found is not None:
                    break
        assert found is not None, "every square reached has a way back"
        t, c = found
        if t == start and c.steps == 0:
            break
        path.append(t)
        cur, steps, chance, leapt = t, c.steps, c.chance, c.leapt
    path.reverse()
    return path
