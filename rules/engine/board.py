"""The pitch: 26 columns (A-Z) by 15 rows (1-15); a square is the int ``x * 15 + y``."""

from __future__ import annotations

WIDTH = 26
HEIGHT = 15
SQUARES = WIDTH * HEIGHT


def square(x: int, y: int) -> int:
    return x * HEIGHT + y


def xy(sq: int) -> tuple[int, int]:
    return divmod(sq, HEIGHT)


def on_pitch(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


NAMES: tuple[str, ...] = tuple(f"{chr(65 + s // HEIGHT)}{s % HEIGHT + 1}" for s in range(SQUARES))
_BY_NAME: dict[str, int] = {name: s for s, name in enumerate(NAMES)}


def parse_square(name: str) -> int:
    """``"K8"`` -> square; raises ValueError for anything that is not a pitch square."""
    sq = _BY_NAME.get(name)
    if sq is not None:
        return sq
    sq = _BY_NAME.get(name.strip().upper()) if isinstance(name, str) else None
    if sq is None:
        raise ValueError(f"not a square of the pitch: {name!r}")
    return sq


def parse_squares(names: tuple[str, ...]) -> list[int]:
    """``parse_square`` of each name (a path of exact names, the usual case, at one go)."""
    try:
        return [_BY_NAME[name] for name in names]
    except KeyError:
        return [parse_square(name) for name in names]


def _neighbours(sq: int) -> tuple[int, ...]:
    x, y = xy(sq)
    out = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx or dy) and on_pitch(x + dx, y + dy):
                out.append(square(x + dx, y + dy))
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(SQUARES))
_ADJ: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in NEIGHBOURS)


def adjacent(a: int, b: int) -> bool:
    return b in _ADJ[a]


# D8 directions (SCENARIOS.md): 1 (-1,-1) ... 8 (+1,+1).
D8: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
)


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


def push_squares(attacker: int, defender: int) -> list[tuple[int, int]]:
    """The three push-back squares as (x, y) pairs, possibly off the pitch."""
    ax, ay = xy(attacker)
    dx_, dy_ = xy(defender)
    dx, dy = sign(dx_ - ax), sign(dy_ - ay)
    if dx and dy:
        return [(dx_ + dx, dy_ + dy), (dx_ + dx, dy_), (dx_, dy_ + dy)]
    if dx:
        return [(dx_ + dx, dy_ - 1), (dx_ + dx, dy_), (dx_ + dx, dy_ + 1)]
    return [(dx_ - 1, dy_ + dy), (dx_, dy_ + dy), (dx_ + 1, dy_ + dy)]


def distance(a: int, b: int) -> int:
    """Squares between two squares moving like a king (0 for the same square)."""
    ax, ay = xy(a)
    bx, by = xy(b)
    return max(abs(ax - bx), abs(ay - by))


# House passing bands (seed 000): squares counted in a straight or diagonal line including
# the thrower's and the target's, i.e. ``distance + 1``.
PASS_BANDS: tuple[tuple[int, str, int], ...] = (
    (5, "quick", 1),
    (9, "short", 0),
    (13, "long", -1),
    (17, "long_bomb", -2),
)


def pass_band(frm: int, to: int) -> tuple[str, int] | None:
    """(band, modifier) of a pass, or None beyond Long Bomb range."""
    counted = distance(frm, to) + 1
    for limit, band, mod in PASS_BANDS:
        if counted <= limit:
            return band, mod
    return None


def in_flight_path(frm: int, to: int, sq: int) -> bool:
    """Does the straight line from the centre of ``frm`` to the centre of ``to`` pass through
    the square ``sq`` (its edges included)?"""
    fx, fy = xy(frm)
    tx, ty = xy(to)
    sx, sy = xy(sq)
    t0, t1 = 0.0, 1.0
    for p, d, lo, hi in ((fx, tx - fx, sx - 0.5, sx + 0.5), (fy, ty - fy, sy - 0.5, sy + 0.5)):
        if d == 0:
            if p < lo or p > hi:
                return False
            continue
        a, b = (lo - p) / d, (hi - p) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 > t1:
            return False
    return True
