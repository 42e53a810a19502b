"""Every option of a turn: for the acting coach, what each of his players may declare now; for
one player, every square it can reach this action by its safest path with the chance of getting
there, and the targets of its blocks, blitzes, fouls, passes and hand-offs.

``options(state, actor)`` lists the players and their actions; ``.player(id)`` works out one
player's squares and targets. Every declaration it lists is one ``legal`` accepts.

A chance is that of every roll on the way succeeding with no reroll counted (Dodge, Sure Feet,
Sure Hands, a team reroll), as ``preview`` counts it: standing up (4+ with MA under 3), each
dodge (AG, +1, -1 per opposing tackle zone on the square entered unless Stunty, not for a Titchy
opponent, Two Heads, Titchy, -1 per Prehensile Tail on the square left, Diving Tackle's -2 when
it turns a success into a failure, escaping Tentacles), each Leap (AG, Very Long Legs,
escaping Tentacles), each Going For It (2+, 3+ in a blizzard) and the pick-up of a ball on the
way. Activation rolls (Bone-Head, Really Stupid, Wild Animal, Take Root, Blood Lust) and Break
Tackle are not counted. A safest path has the greatest chance, then the fewest squares.

Not listed although ``legal`` accepts them: a pass or hand-off by a player who cannot get the
ball this action, a hand-off to an opponent, passes aimed at squares, Throw Team-Mate throws,
Multiple Block's second target, Stab, Hypnotic Gaze and Ball & Chain facings (each player's
``actions`` still names the action where it applies).

Speed: squares are sets of bits (a column every 17 bits, so that a king step and Leap's jump of
two are shifts), grown one step at a time with one set per distinct chance.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import NamedTuple

from .actions import Actor, Declaration
from .board import HEIGHT, NAMES, NEIGHBOURS, SQUARES, WIDTH, adjacent, distance, parse_square
from .core import assists, has_tz, move_budget
from .legal import legal
from .ruleset import ruleset_for
from .state import MatchState, Player
from .tables import agility_target

# ------------------------------------------------------------------------------------------
# The pitch as bits

_STRIDE = HEIGHT + 2  # two guard bits a column: a jump of two rows never wraps into the next
_BIT: tuple[int, ...] = tuple(1 << ((s // HEIGHT) * _STRIDE + s % HEIGHT) for s in range(SQUARES))
_VALID = sum(_BIT)
_NBYTES = (WIDTH * _STRIDE + 7) // 8
_SQ_AT: dict[int, int] = {b.bit_length() - 1: s for s, b in enumerate(_BIT)}
_AROUND: tuple[int, ...] = tuple(sum(_BIT[n] for n in NEIGHBOURS[s]) for s in range(SQUARES))
_DECODE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(  # byte position, value -> squares
    tuple(
        tuple(_SQ_AT[i * 8 + j] for j in range(8) if v >> j & 1 and i * 8 + j in _SQ_AT)
        for v in range(256)
    )
    for i in range(_NBYTES)
)
_DECODE_NAMES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(NAMES[s] for s in v) for v in row) for row in _DECODE
)
_RING2 = tuple(
    dx * _STRIDE + dy for dx in range(-2, 3) for dy in range(-2, 3) if max(abs(dx), abs(dy)) == 2
)


def _grow(b: int) -> int:
    """The set and the squares one king step from it (a row step, then a column step)."""
    h = b | (b << 1) | (b >> 1)
    return (h | (h << _STRIDE) | (h >> _STRIDE)) & _VALID


def _jump(b: int) -> int:
    """The squares exactly two king steps from a square of a set (Leap)."""
    out = 0
    for k in _RING2:
        out |= b << k if k > 0 else b >> -k
    return out & _VALID


_JUMPS: tuple[int, ...] = tuple(_jump(_BIT[s]) for s in range(SQUARES))  # Leap from each


def _squares(b: int) -> list[int]:
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


def _names(b: int) -> list[str]:
    """``_squares``, as names."""
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


class _Walk:
    """What one player's steps cost this action."""

    def __init__(self, st: MatchState, p: Player, budget: int) -> None:
        assert p.at is not None
        self.st = st
        self.p = p
        self.budget = budget
        occupied = 0
        for sq in st.board:
            occupied |= _BIT[sq]
        self.empty = (_VALID & ~occupied) | _BIT[p.at]
        skills = p.skills
        stunty = "Stunty" in skills
        marked = odd = 0
        ones = twos = fours = 0  # opposing tackle zones a dodge counts, in three bit planes
        team = p.team
        for q in st.players.values():
            if q.team == team or q.at is None or q.state != "standing" or q.no_tz:
                continue
            m = _AROUND[q.at]
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
                m &= _VALID
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
            self.ball = _BIT[ball]
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
        b = _BIT[sq]
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
        bit = _BIT[frm]
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
        if self.ball & _BIT[to]:
            f *= self.pick
        return f


class _Class(NamedTuple):
    chance: float
    steps: int
    leapt: bool
    bits: int


# ``_Class((chance, steps, leapt, bits))`` without the Python-level ``__new__`` of a NamedTuple
_new_class: Callable[[tuple[float, int, bool, int]], _Class] = partial(tuple.__new__, _Class)


def _reach(walk: _Walk) -> list[_Class]:
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
    seen: list[_Class] = []
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

    add(walk.start, 0, False, _BIT[p.at])
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
                    d = _grow(plain) & open_
                    if d:
                        split(q, k + 1, leapt, d, dodges)
                if tz & odd:
                    for s in _squares(tz & odd):
                        d = _AROUND[s] & open_
                        if d:
                            split(q, k + 1, leapt, d, walk.odd_dodges(s))
            if leap and not leapt and k + 2 <= budget:
                q2 = q * gfi if k + 2 > ma_left else q
                open2 = empty & ~within[k + 2]
                plain = bits & ~odd
                if plain:
                    d = _jump(plain) & open2
                    if d:
                        add(q2 * walk.leaps[0], k + 2, True, d)
                if bits & odd:
                    for s in _squares(bits & odd):
                        d = _JUMPS[s] & open2
                        if d:
                            add(q2 * walk.odd_leap(s), k + 2, True, d)
            free = bits & ~marked
            d = _grow(free) & open_ if free else 0
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


def _by_steps(classes: list[_Class]) -> dict[tuple[int, bool], list[_Class]]:
    out: dict[tuple[int, bool], list[_Class]] = {}
    for c in classes:
        out.setdefault((c.steps, c.leapt), []).append(c)
    return out


def _trace(
    walk: _Walk, by_steps: dict[tuple[int, bool], list[_Class]], sq: int, cls: _Class
) -> list[int]:
    """The squares entered on the way to ``sq`` as found in ``cls``, first to last: back one
    step at a time to a set whose chance times the step's is this one."""
    path = [sq]
    cur, steps, chance, leapt = sq, cls.steps, cls.chance, cls.leapt
    start = walk.p.at
    while steps > 0:
        found = None
        for c in by_steps.get((steps - 1, leapt), ()):
            hit = c.bits & _AROUND[cur]
            if not hit:
                continue
            for t in NEIGHBOURS[cur]:
                if (
                    hit & _BIT[t]
                    and abs(c.chance * walk.factor(t, cur, steps, leap=False) - chance) <= 1e-9
                ):
                    found = (t, c)
                    break
            if found is not None:
                break
        if found is None and leapt:
            for c in by_steps.get((steps - 2, False), ()):
                for t in _squares(c.bits & _JUMPS[cur]):
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


# ------------------------------------------------------------------------------------------
# Values


class Target:
    """A player a declaration can aim at: the ``chance`` of getting by the safest ``path``
    (traced when first read) to ``square``, next to it (for a pass: the safest square in
    range); for a block or blitz the block dice and whose coach chooses the face, for a pass
    its band, for a foul the chance the armour breaks."""

    __slots__ = (
        "_make",
        "_path",
        "armour",
        "band",
        "chance",
        "chooser",
        "dice",
        "player",
        "square",
    )

    def __init__(
        self,
        player: str,
        square: int,
        chance: float,
        path: Callable[[], tuple[str, ...]] | tuple[str, ...],
        *,
        dice: int = 0,
        chooser: str = "",
        band: str = "",
        armour: float = 0.0,
    ) -> None:
        self.player = player
        self.square = NAMES[square]
        self.chance = chance
        self.dice = dice
        self.chooser = chooser
        self.band = band
        self.armour = armour
        self._path = path if isinstance(path, tuple) else None
        self._make = None if isinstance(path, tuple) else path

    @property
    def path(self) -> tuple[str, ...]:
        if self._path is None:
            assert self._make is not None
            self._path = self._make()
            self._make = None
        return self._path

    def __repr__(self) -> str:
        return f"Target({self.player!r}, from {self.square}, chance {self.chance:.3f})"


class _Way(NamedTuple):
    """The safest way to a square: its chance, the square and the set it was found in."""

    chance: float
    square: int
    cls: _Class


class Reach:
    """The squares one player can reach this action, each with its best chance and a path."""

    __slots__ = ("_classes", "_squares", "_steps", "_walk")

    def __init__(self, walk: _Walk, classes: list[_Class]) -> None:
        self._walk = walk
        self._classes = classes
        self._squares: dict[str, float] | None = None
        self._steps: dict[tuple[int, bool], list[_Class]] | None = None

    def _trace(self, sq: int, c: _Class) -> tuple[str, ...]:
        if self._steps is None:
            self._steps = _by_steps(self._classes)
        return tuple(NAMES[q] for q in _trace(self._walk, self._steps, sq, c))

    def _class_of(self, sq: int) -> _Class | None:
        bit = _BIT[sq]
        for c in self._classes:
            if c.bits & bit:
                return c
        return None

    @property
    def squares(self) -> dict[str, float]:
        """Every square it can reach (its own included), with the chance of the safest path."""
        if self._squares is None:
            by_chance: dict[float, int] = {}  # (sets of one chance, in ``_classes``' order)
            done = 0
            for c in self._classes:
                new = c.bits & ~done
                if new:
                    done |= new
                    by_chance[c.chance] = by_chance.get(c.chance, 0) | new
            out: dict[str, float] = {}
            for chance, bits in by_chance.items():
                out.update(dict.fromkeys(_names(bits), chance))
            self._squares = out
        return self._squares

    def chance(self, square: str) -> float:
        c = self._class_of(parse_square(square))
        return 0.0 if c is None else c.chance

    def path(self, square: str) -> tuple[str, ...] | None:
        """The squares entered one by one on a safest way to ``square`` (empty for its own
        square); None when it is out of reach."""
        s = parse_square(square)
        c = self._class_of(s)
        if c is None:
            return None
        if c.steps == 0:
            return ()
        return self._trace(s, c)

    def best_among(self, bits: int, then: int = 0, most: int | None = None) -> _Way | None:
        """The safest way to a square of ``bits`` in at most ``most`` squares (a Leap counted
        twice), ``then`` squares more entered after it (the block of a Blitz). The sets come
        by chance, the greatest first, and what comes after can only lose chance: the first
        set that has a square of ``bits`` is the answer unless ``then`` may cost a GFI."""
        best: _Way | None = None
        best_chance = -1.0
        walk = self._walk
        ma_left, gfi = walk.ma_left, walk.gfi
        for c in self._classes:
            chance = c.chance
            if chance <= best_chance + 1e-12:
                break
            hit = c.bits & bits
            if not hit or (most is not None and c.steps > most):
                continue
            if then:
                for k in range(c.steps + 1, c.steps + 1 + then):
                    if k > ma_left:
                        chance *= gfi
            if chance > best_chance + 1e-12:
                best = _Way(chance, _SQ_AT[(hit & -hit).bit_length() - 1], c)
                best_chance = chance
                if chance == c.chance:
                    break
        return best

    def way_path(self, way: _Way) -> tuple[str, ...]:
        """The squares entered on ``way``."""
        return () if way.cls.steps == 0 else self._trace(way.square, way.cls)


@dataclass(frozen=True, slots=True)
class PlayerOptions:
    """One player's options this action: its ``actions``, the squares of a Move (``reach``)
    and the targets of each action."""

    player: str
    actions: tuple[str, ...]
    reach: Reach | None
    block: tuple[Target, ...] = ()
    blitz: tuple[Target, ...] = ()
    foul: tuple[Target, ...] = ()
    pass_: tuple[Target, ...] = ()
    hand_off: tuple[Target, ...] = ()

    def _targets(self) -> tuple[tuple[str, tuple[Target, ...]], ...]:
        return (
            ("block", self.block),
            ("blitz", self.blitz),
            ("foul", self.foul),
            ("pass", self.pass_),
            ("hand_off", self.hand_off),
        )

    def _moves(self) -> list[str] | None:
        """The squares of a Move; None for a Ball & Chain player's one Move (no path)."""
        if self.reach is None:
            return None
        return list(self.reach.squares)

    def __len__(self) -> int:
        """How many declarations are listed: a Move to each square, one per target."""
        moves = self._moves()
        n = (1 if "move" in self.actions else 0) if moves is None else len(moves)
        return n + sum(len(t) for _, t in self._targets())

    def declaration(self, i: int) -> Declaration:
        """The ``i``-th declaration listed (Moves first, by square, then the targets by action):
        a Move by the safest path, a target by its safest path."""
        moves = self._moves()
        if moves is None:
            if "move" in self.actions:
                if i == 0:
                    return Declaration(self.player, "move")
                i -= 1
        elif i < len(moves):
            assert self.reach is not None
            path = self.reach.path(moves[i])
            assert path is not None
            return Declaration(self.player, "move", path)
        else:
            i -= len(moves)
        for action, targets in self._targets():
            if i < len(targets):
                t = targets[i]
                return Declaration(self.player, action, t.path, t.player)
            i -= len(targets)
        raise IndexError(i)

    def declarations(self) -> list[Declaration]:
        """Every declaration listed, in ``declaration``'s order."""
        return [self.declaration(i) for i in range(len(self))]


@dataclass(frozen=True, slots=True)
class TurnOptions:
    """The acting coach's options: each of his players able to act with its actions, and the
    team's own declarations (``end_turn``, ``claim_blitz``)."""

    state: MatchState
    actor: Actor
    players: dict[str, tuple[str, ...]] = field(default_factory=dict)
    team: tuple[str, ...] = ()

    def player(self, player_id: str) -> PlayerOptions:
        """The squares and targets of one of the players listed."""
        return player_options(self.state, self.actor, player_id)


# ------------------------------------------------------------------------------------------
# The options


def _walkable(st: MatchState, p: Player, budget: int) -> list[int]:
    """Squares reachable (chances aside) by paths of exactly 0..budget squares, as the set
    reached within each number of squares."""
    assert p.at is not None
    occupied = 0
    for s in st.board:
        occupied |= _BIT[s]
    empty = (_VALID & ~occupied) | _BIT[p.at]
    within = [_BIT[p.at]]
    if p.rooted:
        return within * (budget + 1)
    leap = "Leap" in p.skills
    plain = [within[0]]  # reached with the Leap not used
    leapt = 0  # reached with it used
    for k in range(1, budget + 1):
        prev = plain[-1]
        plain.append(prev | (_grow(prev) & empty))
        if leap:
            leapt |= _grow(leapt) & empty
            if k >= 2:
                leapt |= _jump(plain[k - 2]) & empty
        within.append(plain[-1] | leapt)
    return within


def options(state: MatchState, actor: Actor | str) -> TurnOptions:
    """What the acting coach may declare now: for each of his players able to act, its
    actions (move, block, blitz, foul, pass, hand_off, bomb); and ``end_turn`` and
    ``claim_blitz`` when they are legal. Empty when it is not his turn to declare."""
    act = Actor.parse(actor) if isinstance(actor, str) else actor
    out: dict[str, tuple[str, ...]] = {}
    team: list[str] = []
    if state.pending is not None or act.team != state.active:
        return TurnOptions(state, act, out, ())
    rs = ruleset_for(state)
    for p in state.players.values():
        if p.team != act.team or p.at is None or not rs.controls(act.team, act.side, p):
            continue
        if legal(state, act, Declaration(p.id, "move")) is not None:
            continue
        out[p.id] = _actions(state, act, p)
    if legal(state, act, Declaration(None, "claim_blitz")) is None:
        team.append("claim_blitz")
    if legal(state, act, Declaration(None, "end_turn")) is None:
        team.append("end_turn")
    return TurnOptions(state, act, out, tuple(team))


def _within(classes: list[_Class], budget: int) -> list[int]:
    """``_walkable`` read from ``_reach``'s sets: a square reachable in k squares is in a set
    of at most k squares (a set only loses the squares reached in as few squares)."""
    within = [0] * (budget + 1)
    for c in classes:
        within[c.steps] |= c.bits
    for k in range(1, budget + 1):
        within[k] |= within[k - 1]
    return within


def _actions(
    st: MatchState, act: Actor, p: Player, within: list[int] | None = None
) -> tuple[str, ...]:
    """The player's actions; ``within`` is ``_walkable``'s answer when already known."""
    assert p.at is not None
    if "Ball & Chain" in p.skills:
        return ("move",)
    rs = ruleset_for(st)
    tm = st.teams[p.team]
    out = ["move"]
    budget = move_budget(p)
    if within is None:
        within = _walkable(st, p, budget)
    stand_opp = ground_opp = mates = 0
    for q in st.players.values():
        if q.at is None or q.id == p.id:
            continue
        if q.team != p.team:
            if q.state == "standing":
                stand_opp |= _BIT[q.at]
            elif q.state in ("prone", "stunned"):
                ground_opp |= _BIT[q.at]
        elif q.state == "standing":
            mates |= _BIT[q.at]
    if (p.state == "standing" or "Jump Up" in p.skills) and _AROUND[p.at] & stand_opp:
        out.append("block")
    if rs.blitz_free(tm, act.side) and budget >= 1 and _grow(within[budget - 1]) & stand_opp:
        out.append("blitz")
    if rs.foul_free(tm, act.side) and _grow(within[budget]) & ground_opp:
        out.append("foul")
    ball = _ball_from(st, p, within[budget])
    if ball is not None:
        if not tm.pass_used and _others_on_pitch(st, p):
            out.append("pass")
        if not tm.hand_off_used and _grow(ball) & mates:
            out.append("hand_off")
    if "Bombardier" in p.skills and p.state == "standing":
        out.append("bomb")
    return tuple(out)


def _ball_from(st: MatchState, p: Player, reach: int) -> int | None:
    """The squares where the player may hold the ball this action: all it reaches when it
    carries it; those after the ball's square when the ball is on the ground within reach."""
    if st.carrier == p.id:
        return reach
    if st.carrier is None and st.ball_at is not None and reach & _BIT[st.ball_at]:
        return reach
    return None


def _others_on_pitch(st: MatchState, p: Player) -> bool:
    return any(q.team == p.team and q.id != p.id and q.at is not None for q in st.players.values())


def reach(state: MatchState, player_id: str) -> Reach | None:
    """The squares a player on the pitch can reach by a Move now, with their safest paths and
    chances (whether it may act is not checked: ``options`` does that); None for a Ball &
    Chain player, whose squares are rolled."""
    p = state.players[player_id]
    if p.at is None or "Ball & Chain" in p.skills:
        return None
    walk = _Walk(state, p, move_budget(p))
    return Reach(walk, _reach(walk))


def player_options(state: MatchState, actor: Actor | str, player_id: str) -> PlayerOptions:
    """One player's actions, the squares of its Move with their safest paths and chances, and
    the targets of its blocks, blitzes, fouls, passes and hand-offs."""
    act = Actor.parse(actor) if isinstance(actor, str) else actor
    p = state.players.get(player_id)
    if (
        p is None
        or p.at is None
        or state.pending is not None
        or legal(state, act, Declaration(player_id, "move")) is not None
    ):
        return PlayerOptions(player_id, (), None)
    if "Ball & Chain" in p.skills:
        return PlayerOptions(player_id, _actions(state, act, p), None)
    budget = move_budget(p)
    walk = _Walk(state, p, budget)
    classes = _reach(walk)
    reach = Reach(walk, classes)  # (``reach``, inlined: ``walk`` is needed below)
    actions = _actions(state, act, p, _within(classes, budget))
    block: list[Target] = []
    blitz: list[Target] = []
    foul: list[Target] = []
    passes: list[Target] = []
    hand_off: list[Target] = []
    for q in state.players.values():
        if q.at is None or q.id == p.id:
            continue
        near = _AROUND[q.at]
        if q.team != p.team and q.state == "standing":
            if "block" in actions and adjacent(p.at, q.at):
                dice, chooser = _dice(state, p, q, p.at, blitz=False)
                block.append(Target(q.id, p.at, walk.start, (), dice=dice, chooser=chooser))
            if "blitz" in actions:
                way = reach.best_among(near, then=1, most=budget - 1)
                if way is not None:
                    dice, chooser = _dice(state, p, q, way.square, blitz=True)
                    blitz.append(
                        Target(
                            q.id,
                            way.square,
                            way.chance,
                            partial(reach.way_path, way),
                            dice=dice,
                            chooser=chooser,
                        )
                    )
        elif q.team != p.team and q.state in ("prone", "stunned") and "foul" in actions:
            way = reach.best_among(near)
            if way is not None:
                armour = _armour(state, p, q, way.square)
                path = partial(reach.way_path, way)
                foul.append(Target(q.id, way.square, way.chance, path, armour=armour))
        elif q.team == p.team:
            if "hand_off" in actions and q.state == "standing":
                carried = _with_ball(state, p, reach, near)
                if carried is not None:
                    hand_off.append(Target(q.id, *carried))
            if "pass" in actions:
                carried = _with_ball(state, p, reach, _in_range(state, p, q.at))
                if carried is not None:
                    band = _band(carried[0], q.at)
                    passes.append(Target(q.id, *carried, band=band))
    return PlayerOptions(
        player_id,
        actions,
        reach,
        tuple(block),
        tuple(blitz),
        tuple(foul),
        tuple(passes),
        tuple(hand_off),
    )


def _with_ball(
    st: MatchState, p: Player, reach: Reach, bits: int
) -> tuple[int, float, Callable[[], tuple[str, ...]]] | None:
    """The safest way to a square of ``bits`` holding the ball (any way for its carrier; for
    another player, its safest way to the ball's square, then the shortest on): (the square,
    the chance, the path when asked)."""
    if st.carrier == p.id:
        way = reach.best_among(bits)
        return None if way is None else (way.square, way.chance, partial(reach.way_path, way))
    ball = st.ball_at
    if ball is None or st.carrier is not None:
        return None
    first = reach.best_among(_BIT[ball])
    if first is None:
        return None
    if _BIT[ball] & bits:
        return ball, first.chance, partial(reach.way_path, first)
    # from the ball's square, the nearest square of ``bits`` the rest of the move reaches
    walk = reach._walk
    frontier = _BIT[ball]
    trail = [frontier]
    for _ in range(walk.budget - first.cls.steps):
        frontier |= _grow(frontier) & walk.empty
        trail.append(frontier)
        if frontier & bits:
            break
    if not frontier & bits:
        return None
    # back from a square of ``bits`` to the ball's square, one ring at a time
    tail = [_squares(frontier & bits)[0]]
    for ring in reversed(trail[:-1]):
        if tail[-1] == ball:
            break
        tail.append(_squares(ring & _AROUND[tail[-1]])[0])
    tail.reverse()
    if tail[0] == ball:
        tail = tail[1:]
    chance = first.chance
    k, cur = first.cls.steps, ball
    for sq in tail:
        k += 1
        chance *= walk.factor(cur, sq, k, leap=False)
        cur = sq
    rest = tuple(NAMES[sq] for sq in tail)

    def path() -> tuple[str, ...]:
        return reach.way_path(first) + rest

    return tail[-1], chance, path


def _in_range(st: MatchState, p: Player, at: int) -> int:
    """The squares a pass to ``at`` may be thrown from (Long Bomb, or Short in a blizzard,
    Hail Mary Pass anywhere)."""
    if "Hail Mary Pass" in p.skills and st.weather != "blizzard":
        return _VALID
    return _box(at, 8 if st.weather == "blizzard" else 16)


@cache
def _box(at: int, reach: int) -> int:
    """The squares at most ``reach`` squares from ``at``, ``at`` aside."""
    x, y = divmod(at, HEIGHT)
    out = 0
    for cx in range(max(0, x - reach), min(WIDTH, x + reach + 1)):
        lo, hi = max(0, y - reach), min(HEIGHT - 1, y + reach)
        out |= ((1 << (hi - lo + 1)) - 1) << (cx * _STRIDE + lo)
    return out & ~_BIT[at]


def _band(frm: int, to: int) -> str:
    """The pass band from ``frm`` to ``to``."""
    counted = distance(frm, to) + 1
    for limit, band in ((5, "quick"), (9, "short"), (13, "long"), (17, "long_bomb")):
        if counted <= limit:
            return band
    return "hail_mary"


def _moved(p: Player, sq: int) -> Player:
    q = p.copy()
    q.at = sq
    return q


def _dice(st: MatchState, p: Player, q: Player, frm: int, *, blitz: bool) -> tuple[int, str]:
    """Block dice from ``frm`` (before Dauntless) and whose coach picks the face."""
    att = _moved(p, frm)
    a = att.st + (1 if blitz and "Horns" in att.skills else 0) + assists(st, att, q, exclude=p.id)
    b = q.st + assists(st, q, att, exclude=q.id)
    if a == b:
        return 1, "attacker"
    if a > b:
        return (3 if a > 2 * b else 2), "attacker"
    return (3 if b > 2 * a else 2), "defender"


def _armour(st: MatchState, p: Player, q: Player, frm: int) -> float:
    """The chance a foul from ``frm`` breaks the armour (assists on both sides)."""
    att = _moved(p, frm)
    mod = assists(st, att, q, exclude=p.id) - assists(st, q, att, exclude=q.id)
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + mod > q.av) / 36
