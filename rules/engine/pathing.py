"""The safest paths of one player's action, for ``options``: squares as sets of bits (a column
every 17 bits, so that a king step and Leap's jump of two are shifts), grown one step at a time
with one set per distinct chance, and the chances of the rolls on the way (standing up, dodges,
Leaps, Going For It, a pick-up), counted as ``options`` explains."""

from __future__ import annotations

import heapq
from functools import cache

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
_NAME_AT: tuple[str, ...] = tuple(NAMES[SQ_AT[i]] if i in SQ_AT else "" for i in range(_NBYTES * 8))
AROUND: tuple[int, ...] = tuple(sum(BIT[n] for n in NEIGHBOURS[s]) for s in range(SQUARES))
_AROUND_AT: tuple[int, ...] = tuple(
    AROUND[SQ_AT[i]] if i in SQ_AT else 0 for i in range(_NBYTES * 8)
)
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
_FEW = 6  # up to this many squares a set is read bit by bit, more a byte at a time


def grow(b: int) -> int:
    """The set and the squares one king step from it (a row step, then a column step)."""
    h = b | (b << 1) | (b >> 1)
    return (h | (h << STRIDE) | (h >> STRIDE)) & VALID


def _ring2(b: int) -> int:
    out = 0
    for k in _RING2:
        out |= b << k if k > 0 else b >> -k
    return out & VALID


_JUMPS: tuple[int, ...] = tuple(_ring2(BIT[s]) for s in range(SQUARES))  # Leap from each
_JUMP_AT: tuple[int, ...] = tuple(_JUMPS[SQ_AT[i]] if i in SQ_AT else 0 for i in range(_NBYTES * 8))


def jump(b: int) -> int:
    """The squares exactly two king steps from a square of a set (Leap); a set of one or
    two squares at a look-up each."""
    if b.bit_count() > 2:
        return _ring2(b)
    out = 0
    while b:
        low = b & -b
        out |= _JUMP_AT[low.bit_length() - 1]
        b ^= low
    return out


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
    """``bit_squares``, as names (a few squares bit by bit, more a byte at a time)."""
    if b.bit_count() <= _FEW:
        names = _NAME_AT
        few: list[str] = []
        while b:
            low = b & -b
            few.append(names[low.bit_length() - 1])
            b ^= low
        return few
    out: list[str] = []
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


class Zones:
    """The tackle zones the opponents of a mover's ``team`` put on the pitch: the
    squares they mark, those marked by a Prehensile Tail, Diving Tackle or Tentacles player
    (``odd``), and the squares by how many zones a dodge into them counts (``planes``: one
    set per count, 1 to 7; Titchy players' zones not counted; none at all for a Stunty
    mover)."""

    __slots__ = ("counted", "marked", "odd", "planes", "uncounted")

    def __init__(self, st: MatchState, team: str, *, stunty: bool) -> None:
        marked = odd = 0
        ones = twos = fours = 0  # the count on each square, in three bit planes
        players = st.players
        for at, pid in st.board.items():
            q = players[pid]
            if q.team == team or q.state != "standing" or q.no_tz:
                continue
            m = AROUND[at]
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
        self.planes = _planes(ones, twos, fours)
        self.counted = ones | twos | fours
        self.uncounted = VALID & ~self.counted


def _planes(ones: int, twos: int, fours: int) -> list[tuple[int, int]]:
    """The squares by count of zones, from the count's three bit planes (a count of three
    or more is rare: the sets of one and two first, at few operations)."""
    if not fours:
        if not twos:
            return [(1, ones)] if ones else []
        planes = [(1, ones & ~twos), (2, twos & ~ones), (3, ones & twos)]
        return [(c, m) for c, m in planes if m]
    planes = []
    for c in range(1, 8):
        m = (ones if c & 1 else ~ones) & (twos if c & 2 else ~twos)
        m &= fours if c & 4 else ~fours
        if m:
            planes.append((c, m))
    return planes


class Pitch:
    """What every mover's search reads from the state alone: the occupied squares and each
    team's tackle zones (worked out once when first asked)."""

    __slots__ = ("_zones", "occupied", "st")

    def __init__(self, st: MatchState) -> None:
        self.st = st
        self.occupied: int = sum(map(BIT.__getitem__, st.board))
        self._zones: dict[tuple[str, bool], Zones] = {}

    def zones(self, team: str, *, stunty: bool) -> Zones:
        """The zones a mover of ``team`` meets (``stunty``: its dodges count none)."""
        z = self._zones.get((team, stunty))
        if z is None:
            z = self._zones[team, stunty] = Zones(self.st, team, stunty=stunty)
        return z


class Walk:
    """What one player's steps cost this action."""

    __slots__ = (
        "_odd_cache",
        "_odd_splits",
        "at",
        "ball",
        "base",
        "budget",
        "counted",
        "dodges",
        "empty",
        "gfi",
        "leap",
        "leaps",
        "ma_left",
        "marked",
        "odd",
        "p",
        "pick",
        "planes",
        "st",
        "start",
        "target",
        "uncounted",
    )

    def __init__(self, st: MatchState, p: Player, budget: int, pitch: Pitch | None = None) -> None:
        assert p.at is not None
        self.st = st
        self.p = p
        self.at = p.at
        self.budget = budget
        if pitch is None:
            pitch = Pitch(st)
        self.empty = (VALID & ~pitch.occupied) | BIT[p.at]
        skills = p.skills
        zones = pitch.zones(p.team, stunty="Stunty" in skills)
        self.marked = zones.marked
        self.odd = zones.odd
        self.planes = zones.planes
        self.counted = zones.counted
        self.uncounted = zones.uncounted
        prone = p.state == "prone" and "Jump Up" not in skills
        self.ma_left = max(p.ma - 3, 0) if prone else p.ma
        self.gfi = _d6(3 if st.weather == "blizzard" else 2, 0, False)
        self.target = agility_target(p.ag)
        self.base = 1 + ("Two Heads" in skills) + ("Titchy" in skills)
        self.dodges = _dodges(self.target, self.base)
        self.leap = "Leap" in skills and not p.rooted
        self.leaps = (_d6(self.target, 1 if "Very Long Legs" in skills else 0),)
        self.start = 0.5 if prone and p.ma < 3 else 1.0
        self.ball = 0
        self.pick = 1.0
        ball = st.ball_at
        if st.carrier is None and ball is not None:
            self.ball = BIT[ball]
            self.pick = self._pick(ball)
        self._odd_cache: dict[int, tuple[int, bool, float]] = {}
        self._odd_splits: dict[int, list[tuple[int, float]]] = {}

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
        known = self._odd_cache.get(frm)
        if known is not None:
            return known
        markers = self._markers(frm)
        tails = sum(1 for q in markers if "Prehensile Tail" in q.skills)
        diving = any("Diving Tackle" in q.skills for q in markers)
        escape = 1.0
        for q in markers:
            if "Tentacles" in q.skills:
                escape *= _escape(self.p.st - q.st)
        self._odd_cache[frm] = out = (tails, diving, escape)
        return out

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

    def odd_split(self, frm: int) -> list[tuple[int, float]]:
        """``split``'s sets and chances for a dodge out of ``frm``, marked by an odd player."""
        known = self._odd_splits.get(frm)
        if known is None:
            chances = self.odd_dodges(frm)
            known = [(self.uncounted, chances[0])]
            known += [(m, chances[c]) for c, m in self.planes]
            self._odd_splits[frm] = known
        return known

    def split(self) -> list[tuple[int, float]]:
        """A dodge's chance by the squares entered: (the squares, the chance) for those no
        zone is counted on, then for each count of zones."""
        dodges = self.dodges
        return [(self.uncounted, dodges[0])] + [(m, dodges[c]) for c, m in self.planes]


Class = tuple[float, int, bool, int]
"""(chance, steps, leapt, bits): squares reached with one chance, in one number of squares (a
Leap counted twice), with the Leap used or not."""

_Key = tuple[float, int, bool]  # (-chance, steps, leapt): the queue's order


def safest_classes(walk: Walk) -> list[Class]:
    """The squares a player can reach, as sets of one chance, one number of squares and one
    state of its Leap each; a square is in the first set that has it (by chance, the greatest
    first, then by squares). Dijkstra's search by chance over sets of squares: a set taken off
    the queue loses the squares already reached with as good a chance in as few squares.

    Written for speed (each operation on a set costs about as much as a line of Python):
    chances are kept negated (the queue's order), sets of squares not yet reached are kept
    rather than those reached, and ``open_k`` of ``k`` squares is kept apart only below the
    greatest number of squares of a set taken so far (above it, it is ``open_all``)."""
    budget = 0 if walk.p.rooted else walk.budget
    ma_left, gfi, leap = walk.ma_left, walk.gfi, walk.leap
    empty, ball, pick = walk.empty, walk.ball, walk.pick
    free_mask = VALID & ~walk.marked
    plain_mask = walk.marked & ~walk.odd  # marked, by no odd player
    odd = walk.odd
    split = walk.split()
    pending: dict[_Key, int] = {}
    queue: list[_Key] = []
    seen: list[Class] = []
    push, get = heapq.heappush, pending.get
    # the squares not reached in at most k squares with the Leap unused: ``open_k[k]`` for
    # k < ``top``, ``open_all`` from ``top`` on
    open_k = [0] * (budget + 2)
    open_all, top = VALID, 0
    # the same with the Leap used or not (a Leap's landing, and sets with the Leap used)
    l_open_k = [0] * (budget + 3)
    l_open_all, l_top = VALID, 0

    def add(neg: float, k: int, leapt: bool, bits: int) -> None:
        """Queue ``bits`` at chance ``-neg``: the ball's square at that of its pick-up too."""
        if bits & ball:
            key = (neg * pick, k, leapt)
            old = get(key)
            if old is None:
                pending[key] = ball
                push(queue, key)
            else:
                pending[key] = old | ball
            bits &= ~ball
            if not bits:
                return
        key = (neg, k, leapt)
        old = get(key)
        if old is None:
            pending[key] = bits
            push(queue, key)
        else:
            pending[key] = old | bits

    add(-walk.start, 0, False, BIT[walk.at])
    pop = heapq.heappop
    while queue:
        key = pop(queue)
        bits = pending.pop(key, 0)  # (0: taken already by a flood below)
        neg, k, leapt = key
        while True:
            if leapt:
                bits &= l_open_k[k] if k < l_top else l_open_all
            else:
                bits &= open_k[k] if k < top else open_all
            if not bits:
                break
            seen.append((-neg, k, leapt, bits))
            gone = ~bits
            if not leapt:
                if k < top:
                    open_k[k:top] = map(gone.__and__, open_k[k:top])
                else:
                    for j in range(top, k):
                        open_k[j] = open_all
                    top = k
                open_all &= gone
            if leap:
                if k < l_top:
                    l_open_k[k:l_top] = map(gone.__and__, l_open_k[k:l_top])
                else:
                    for j in range(l_top, k):
                        l_open_k[j] = l_open_all
                    l_top = k
                l_open_all &= gone
            if k == budget:
                break
            k1 = k + 1
            nq = neg * gfi if k1 > ma_left else neg
            # what is already reached in as few squares is reached with as good a chance (a
            # set leaves the queue by chance, the greatest first): not worth adding again
            if leapt:
                open_ = empty & (l_open_k[k1] if k1 < l_top else l_open_all)
            else:
                open_ = empty & (open_k[k1] if k1 < top else open_all)
            plain = bits & plain_mask
            if plain:
                if plain.bit_count() == 1:  # (a square's neighbours at one look-up)
                    d = _AROUND_AT[plain.bit_length() - 1] & open_
                else:
                    h = plain | (plain << 1) | (plain >> 1)
                    d = (h | (h << STRIDE) | (h >> STRIDE)) & open_
                if d:
                    for m, c in split:
                        part = d & m
                        if not part:
                            continue
                        if ball and part & ball:
                            add(nq * c, k1, leapt, part)
                            continue
                        key = (nq * c, k1, leapt)
                        old = get(key)
                        if old is None:
                            pending[key] = part
                            push(queue, key)
                        else:
                            pending[key] = old | part
            if odd and bits & odd:
                for s in bit_squares(bits & odd):
                    d = AROUND[s] & open_
                    if d:
                        for m, c in walk.odd_split(s):
                            if d & m:
                                add(nq * c, k1, leapt, d & m)
            if leap and not leapt and k + 2 <= budget:
                nq2 = nq * gfi if k + 2 > ma_left else nq
                open2 = empty & (l_open_k[k + 2] if k + 2 < l_top else l_open_all)
                plain = bits & ~odd
                if plain:
                    d = jump(plain) & open2
                    if d:
                        add(nq2 * walk.leaps[0], k + 2, True, d)
                if bits & odd:
                    for s in bit_squares(bits & odd):
                        d = _JUMPS[s] & open2
                        if d:
                            add(nq2 * walk.odd_leap(s), k + 2, True, d)
            free = bits & free_mask
            if not free:
                break
            if free.bit_count() == 1:
                d = _AROUND_AT[free.bit_length() - 1] & open_
            else:
                h = free | (free << 1) | (free >> 1)
                d = (h | (h << STRIDE) | (h >> STRIDE)) & open_
            if not d:
                break
            if nq != neg or d & ball:
                add(nq, k1, leapt, d)
                break
            # the next ring of free squares has this same chance, the greatest left: it is
            # settled at once (with what was queued for it), not queued
            bits = d | pending.pop((neg, k1, leapt), 0)
            k = k1
    return seen


def classes_by_steps(classes: list[Class]) -> dict[tuple[int, bool], list[Class]]:
    out: dict[tuple[int, bool], list[Class]] = {}
    for c in classes:
        out.setdefault((c[1], c[2]), []).append(c)
    return out


def trace(
    walk: Walk, by_steps: dict[tuple[int, bool], list[Class]], sq: int, cls: Class
) -> list[int]:
    """The squares entered on the way to ``sq`` as found in ``cls``, first to last: back one
    step at a time to a set whose chance times the step's is this one."""
    path = [sq]
    chance, steps, leapt, _ = cls
    cur, start = sq, walk.at
    while steps > 0:
        found: tuple[int, Class] | None = None
        for c in by_steps.get((steps - 1, leapt), ()):
            hit = c[3] & AROUND[cur]
            if not hit:
                continue
            for t in NEIGHBOURS[cur]:
                if (
                    hit & BIT[t]
                    and abs(c[0] * walk.factor(t, cur, steps, leap=False) - chance) <= 1e-9
                ):
                    found = (t, c)
                    break
            if found is not None:
                break
        if found is None and leapt:
            for c in by_steps.get((steps - 2, False), ()):
                for t in bit_squares(c[3] & _JUMPS[cur]):
                    if abs(c[0] * walk.factor(t, cur, steps, leap=True) - chance) <= 1e-9:
                        found = (t, c)
                        break
                if found is not None:
                    break
        assert found is not None, "every square reached has a way back"
        t, c = found
        if t == start and c[1] == 0:
            break
        path.append(t)
        cur = t
        chance, steps, leapt, _ = c
    path.reverse()
    return path
