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
two are shifts), grown one step at a time with one set per distinct chance (``pathing``). What
depends on the state alone (the occupied squares, each team's tackle zones) is read once per
``options`` call and shared by its players (``TurnOptions.reach`` and ``.player``); the targets
of a kind are found at one pass over a player's sets. ``manage.py bench`` prints the costs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, partial
from typing import NamedTuple

from .actions import Actor, Declaration
from .board import HEIGHT, NAMES, WIDTH, adjacent, distance, parse_square
from .core import assists, move_budget
from .legal import legal
from .pathing import (
    AROUND,
    BIT,
    SQ_AT,
    STRIDE,
    VALID,
    Class,
    Pitch,
    Walk,
    bit_names,
    bit_squares,
    classes_by_steps,
    grow,
    jump,
    safest_classes,
    trace,
)
from .ruleset import ruleset_for
from .state import MatchState, Player

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
    cls: Class


class Reach:
    """The squares one player can reach this action, each with its best chance and a path."""

    __slots__ = ("_classes", "_squares", "_steps", "_walk")

    def __init__(self, walk: Walk, classes: list[Class]) -> None:
        self._walk = walk
        self._classes = classes
        self._squares: dict[str, float] | None = None
        self._steps: dict[tuple[int, bool], list[Class]] | None = None

    def _trace(self, sq: int, c: Class) -> tuple[str, ...]:
        if self._steps is None:
            self._steps = classes_by_steps(self._classes)
        return tuple(NAMES[q] for q in trace(self._walk, self._steps, sq, c))

    def _class_of(self, sq: int) -> Class | None:
        bit = BIT[sq]
        for c in self._classes:
            if c[3] & bit:
                return c
        return None

    @property
    def squares(self) -> dict[str, float]:
        """Every square it can reach (its own included), with the chance of the safest path."""
        if self._squares is None:
            out: dict[str, float] = {}
            left = VALID  # the squares not met yet
            group, group_chance = 0, -1.0  # (the sets come by chance: one chance's together)
            for chance, _, _, bits in self._classes:
                new = bits & left
                if new:
                    left ^= new
                    if chance == group_chance:
                        group |= new
                        continue
                    for name in bit_names(group):
                        out[name] = group_chance
                    group, group_chance = new, chance
            for name in bit_names(group):
                out[name] = group_chance
            self._squares = out
        return self._squares

    def chance(self, square: str) -> float:
        c = self._class_of(parse_square(square))
        return 0.0 if c is None else c[0]

    def path(self, square: str) -> tuple[str, ...] | None:
        """The squares entered one by one on a safest way to ``square`` (empty for its own
        square); None when it is out of reach."""
        s = parse_square(square)
        c = self._class_of(s)
        if c is None:
            return None
        if c[1] == 0:
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
            chance, steps, _, found = c
            if chance <= best_chance + 1e-12:
                break
            hit = found & bits
            if not hit or (most is not None and steps > most):
                continue
            if then:
                for k in range(steps + 1, steps + 1 + then):
                    if k > ma_left:
                        chance *= gfi
            if chance > best_chance + 1e-12:
                best = _Way(chance, SQ_AT[(hit & -hit).bit_length() - 1], c)
                best_chance = chance
                if chance == c[0]:
                    break
        return best

    def best_ways(
        self, targets: list[int], then: int = 0, most: int | None = None
    ) -> list[_Way | None]:
        """``best_among`` of each set of ``targets``, at one pass over the sets found: a
        target is settled at the first set whose chance cannot beat its way, and sets that
        meet none of the targets left are passed over at one test."""
        best: list[_Way | None] = [None] * len(targets)
        best_chance = [-1.0] * len(targets)
        left = list(range(len(targets)))
        union = 0
        for t in targets:
            union |= t
        walk = self._walk
        ma_left, gfi = walk.ma_left, walk.gfi
        for c in self._classes:
            chance, steps, _, found = c
            if not found & union or (most is not None and steps > most):
                continue
            reached = chance  # with ``then`` squares more
            for k in range(steps + 1, steps + 1 + then):
                if k > ma_left:
                    reached *= gfi
            still = []
            union = 0
            for i in left:
                if chance <= best_chance[i] + 1e-12:
                    continue  # no later set beats its way
                t = targets[i]
                hit = found & t
                if hit and reached > best_chance[i] + 1e-12:
                    best[i] = _Way(reached, SQ_AT[(hit & -hit).bit_length() - 1], c)
                    best_chance[i] = reached
                    if reached == chance:
                        continue
                still.append(i)
                union |= t
            left = still
            if not left:
                break
        return best

    def way_path(self, way: _Way) -> tuple[str, ...]:
        """The squares entered on ``way``."""
        return () if way.cls[1] == 0 else self._trace(way.square, way.cls)


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
    pitch: Pitch | None = None  # what every player's search reads from the state, found once

    def reach(self, player_id: str) -> Reach | None:
        """``reach`` of one of the players listed, from the pitch already read (None when it
        is not listed or is a Ball & Chain player)."""
        if player_id not in self.players:
            return None
        pitch = self.pitch if self.pitch is not None else Pitch(self.state)
        return reach(self.state, player_id, pitch)

    def player(self, player_id: str) -> PlayerOptions:
        """The squares and targets of one of the players listed (of the state as it was when
        listed: the players' actions and the pitch are not worked out again)."""
        actions = self.players.get(player_id)
        if actions is None:
            return PlayerOptions(player_id, (), None)
        pitch = self.pitch if self.pitch is not None else Pitch(self.state)
        p = self.state.players[player_id]
        return _player_options(self.state, self.actor, p, actions, pitch)


# ------------------------------------------------------------------------------------------
# The options


def _walkable(st: MatchState, p: Player, budget: int, occupied: int) -> list[int]:
    """Squares reachable (chances aside) by paths of exactly 0..budget squares, as the set
    reached within each number of squares (``occupied``: the squares players stand on)."""
    assert p.at is not None
    empty = (VALID & ~occupied) | BIT[p.at]
    within = [BIT[p.at]]
    if p.rooted:
        return within * (budget + 1)
    leap = "Leap" in p.skills
    plain = [within[0]]  # reached with the Leap not used
    leapt = 0  # reached with it used
    for k in range(1, budget + 1):
        prev = plain[-1]
        plain.append(prev | (grow(prev) & empty))
        if leap:
            leapt |= grow(leapt) & empty
            if k >= 2:
                leapt |= jump(plain[k - 2]) & empty
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
    pitch = Pitch(state)
    for p in state.players.values():
        if p.team != act.team or p.at is None or not rs.controls(act.team, act.side, p):
            continue
        if legal(state, act, Declaration(p.id, "move")) is not None:
            continue
        out[p.id] = _actions(state, act, p, occupied=pitch.occupied)
    if legal(state, act, Declaration(None, "claim_blitz")) is None:
        team.append("claim_blitz")
    if legal(state, act, Declaration(None, "end_turn")) is None:
        team.append("end_turn")
    return TurnOptions(state, act, out, tuple(team), pitch)


def _within(classes: list[Class], budget: int) -> list[int]:
    """``_walkable`` read from ``safest_classes``'s sets: a square reachable in k squares is in
    a set of at most k squares (a set only loses the squares reached in as few squares)."""
    within = [0] * (budget + 1)
    for _, steps, _, bits in classes:
        within[steps] |= bits
    for k in range(1, budget + 1):
        within[k] |= within[k - 1]
    return within


def _actions(
    st: MatchState,
    act: Actor,
    p: Player,
    within: list[int] | None = None,
    *,
    occupied: int | None = None,
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
        if occupied is None:
            occupied = Pitch(st).occupied
        within = _walkable(st, p, budget, occupied)
    stand_opp = ground_opp = mates = 0
    for q in st.players.values():
        if q.at is None or q.id == p.id:
            continue
        if q.team != p.team:
            if q.state == "standing":
                stand_opp |= BIT[q.at]
            elif q.state in ("prone", "stunned"):
                ground_opp |= BIT[q.at]
        elif q.state == "standing":
            mates |= BIT[q.at]
    if (p.state == "standing" or "Jump Up" in p.skills) and AROUND[p.at] & stand_opp:
        out.append("block")
    if rs.blitz_free(tm, act.side) and budget >= 1 and grow(within[budget - 1]) & stand_opp:
        out.append("blitz")
    if rs.foul_free(tm, act.side) and grow(within[budget]) & ground_opp:
        out.append("foul")
    ball = _ball_from(st, p, within[budget])
    if ball is not None:
        if not tm.pass_used and _others_on_pitch(st, p):
            out.append("pass")
        if not tm.hand_off_used and grow(ball) & mates:
            out.append("hand_off")
    if "Bombardier" in p.skills and p.state == "standing":
        out.append("bomb")
    return tuple(out)


def _ball_from(st: MatchState, p: Player, reach: int) -> int | None:
    """The squares where the player may hold the ball this action: all it reaches when it
    carries it; those after the ball's square when the ball is on the ground within reach."""
    if st.carrier == p.id:
        return reach
    if st.carrier is None and st.ball_at is not None and reach & BIT[st.ball_at]:
        return reach
    return None


def _others_on_pitch(st: MatchState, p: Player) -> bool:
    return any(q.team == p.team and q.id != p.id and q.at is not None for q in st.players.values())


def reach(state: MatchState, player_id: str, pitch: Pitch | None = None) -> Reach | None:
    """The squares a player on the pitch can reach by a Move now, with their safest paths and
    chances (whether it may act is not checked: ``options`` does that); None for a Ball &
    Chain player, whose squares are rolled. ``pitch``: the state's pitch, when already read."""
    p = state.players[player_id]
    if p.at is None or "Ball & Chain" in p.skills:
        return None
    walk = Walk(state, p, move_budget(p), pitch)
    return Reach(walk, safest_classes(walk))


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
    return _player_options(state, act, p, None, Pitch(state))


def _player_options(
    state: MatchState, act: Actor, p: Player, actions: tuple[str, ...] | None, pitch: Pitch
) -> PlayerOptions:
    """``player_options`` of a player that may act (``actions``: its actions when known)."""
    assert p.at is not None
    if "Ball & Chain" in p.skills:
        return PlayerOptions(p.id, actions or _actions(state, act, p), None)
    budget = move_budget(p)
    walk = Walk(state, p, budget, pitch)
    classes = safest_classes(walk)
    reach = Reach(walk, classes)  # (``reach``, inlined: ``walk`` is needed below)
    if actions is None:
        actions = _actions(state, act, p, _within(classes, budget))
    block: list[Target] = []
    standing: list[Player] = []  # opponents a Blitz may aim at
    down: list[Player] = []  # opponents a Foul may aim at
    passes: list[Target] = []
    hand_off: list[Target] = []
    carry = _Carry(state, p, reach) if "pass" in actions or "hand_off" in actions else None
    for q in state.players.values():
        if q.at is None or q.id == p.id:
            continue
        if q.team != p.team:
            if q.state == "standing":
                if "block" in actions and adjacent(p.at, q.at):
                    dice, chooser = _dice(state, p, q, p.at, blitz=False)
                    block.append(Target(q.id, p.at, walk.start, (), dice=dice, chooser=chooser))
                standing.append(q)
            elif q.state in ("prone", "stunned"):
                down.append(q)
        elif carry is not None:
            if "hand_off" in actions and q.state == "standing":
                carried = carry.to(AROUND[q.at])
                if carried is not None:
                    hand_off.append(Target(q.id, *carried))
            if "pass" in actions:
                carried = carry.to(_in_range(state, p, q.at))
                if carried is not None:
                    band = _band(carried[0], q.at)
                    passes.append(Target(q.id, *carried, band=band))
    return PlayerOptions(
        p.id,
        actions,
        reach,
        tuple(block),
        _blitzes(state, p, reach, standing) if "blitz" in actions else (),
        _fouls(state, p, reach, down) if "foul" in actions else (),
        tuple(passes),
        tuple(hand_off),
    )


def _blitzes(
    state: MatchState, p: Player, reach: Reach, opponents: list[Player]
) -> tuple[Target, ...]:
    """The Blitz targets among ``opponents``: the safest way next to each with a square left
    for the block, and the block dice from there."""
    near = [AROUND[q.at] for q in opponents if q.at is not None]
    ways = reach.best_ways(near, then=1, most=reach._walk.budget - 1)
    out = []
    for q, way in zip(opponents, ways, strict=True):
        if way is not None:
            dice, chooser = _dice(state, p, q, way.square, blitz=True)
            path = partial(reach.way_path, way)
            out.append(Target(q.id, way.square, way.chance, path, dice=dice, chooser=chooser))
    return tuple(out)


def _fouls(
    state: MatchState, p: Player, reach: Reach, opponents: list[Player]
) -> tuple[Target, ...]:
    """The Foul targets among ``opponents`` (down): the safest way next to each, and the
    chance the armour breaks from there."""
    ways = reach.best_ways([AROUND[q.at] for q in opponents if q.at is not None])
    out = []
    for q, way in zip(opponents, ways, strict=True):
        if way is not None:
            armour = _armour(state, p, q, way.square)
            path = partial(reach.way_path, way)
            out.append(Target(q.id, way.square, way.chance, path, armour=armour))
    return tuple(out)


class _Carry:
    """The safest ways to a square holding the ball: any way for its carrier; for another
    player, its safest way to the ball's square, then the shortest on (the rings of squares
    walked from the ball found once)."""

    def __init__(self, st: MatchState, p: Player, reach: Reach) -> None:
        self.reach = reach
        self.carrier = st.carrier == p.id
        self.ball = st.ball_at if st.carrier is None else None
        self.first = None if self.ball is None else reach.best_among(BIT[self.ball])
        self._trail: list[int] | None = None

    def to(self, bits: int) -> tuple[int, float, Callable[[], tuple[str, ...]]] | None:
        """(the square, the chance, the path when asked) of the safest way to ``bits``."""
        reach = self.reach
        if self.carrier:
            way = reach.best_among(bits)
            return None if way is None else (way.square, way.chance, partial(reach.way_path, way))
        first, ball = self.first, self.ball
        if first is None or ball is None:
            return None
        if BIT[ball] & bits:
            return ball, first.chance, partial(reach.way_path, first)
        trail = self.trail(first)
        i = next((i for i, ring in enumerate(trail) if ring & bits), None)
        if i is None:
            return None
        # back from a square of ``bits`` to the ball's square, one ring at a time
        tail = [bit_squares(trail[i] & bits)[0]]
        for ring in reversed(trail[:i]):
            if tail[-1] == ball:
                break
            tail.append(bit_squares(ring & AROUND[tail[-1]])[0])
        tail.reverse()
        if tail[0] == ball:
            tail = tail[1:]
        walk = reach._walk
        chance = first.chance
        k, cur = first.cls[1], ball
        for sq in tail:
            k += 1
            chance *= walk.factor(cur, sq, k, leap=False)
            cur = sq
        rest = tuple(NAMES[sq] for sq in tail)

        def path() -> tuple[str, ...]:
            return reach.way_path(first) + rest

        return tail[-1], chance, path

    def trail(self, first: _Way) -> list[int]:
        """The squares within 0, 1, ... squares of the ball's square, for the rest of the
        move after the safest way to it."""
        if self._trail is None:
            walk = self.reach._walk
            assert self.ball is not None
            frontier = BIT[self.ball]
            trail = [frontier]
            for _ in range(walk.budget - first.cls[1]):
                frontier |= grow(frontier) & walk.empty
                trail.append(frontier)
            self._trail = trail
        return self._trail


def _in_range(st: MatchState, p: Player, at: int) -> int:
    """The squares a pass to ``at`` may be thrown from (Long Bomb, or Short in a blizzard,
    Hail Mary Pass anywhere)."""
    if "Hail Mary Pass" in p.skills and st.weather != "blizzard":
        return VALID
    return _box(at, 8 if st.weather == "blizzard" else 16)


@cache
def _box(at: int, reach: int) -> int:
    """The squares at most ``reach`` squares from ``at``, ``at`` aside."""
    x, y = divmod(at, HEIGHT)
    out = 0
    for cx in range(max(0, x - reach), min(WIDTH, x + reach + 1)):
        lo, hi = max(0, y - reach), min(HEIGHT - 1, y + reach)
        out |= ((1 << (hi - lo + 1)) - 1) << (cx * STRIDE + lo)
    return out & ~BIT[at]


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
