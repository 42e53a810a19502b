"""The set-ups: the line of scrimmage and the wide zones, who may be set up and which sides
must post, and the check of a set-up post. Queries of the state only, for ``flow`` and
``legal``."""

from __future__ import annotations

from .actions import Declaration
from .board import NAMES, NEIGHBOURS, parse_square, square, xy
from .core import in_half
from .state import ON_PITCH, MatchState, Player, other

LOS_ROWS = range(4, 11)  # rows 5-11: the line of scrimmage lies between the wide zones


def los_column(team: str) -> int:
    return 12 if team == "home" else 13


def wide_zone(sq: int) -> int | None:
    """0 for rows 1-4, 1 for rows 12-15, None in the centre."""
    y = xy(sq)[1]
    if y <= 3:
        return 0
    if y >= 11:
        return 1
    return None


def on_los(team: str, sq: int) -> bool:
    x, y = xy(sq)
    return x == los_column(team) and y in LOS_ROWS


def can_set_up(p: Player) -> bool:
    """A player who may be placed at a kick-off: in the reserves or already placed."""
    return (p.state == "reserves" and not p.collapsed) or p.at is not None


def may_post(st: MatchState, p: Player) -> bool:
    """May ``p`` be placed in this set-up phase? A Quick Snap or a Perfect Defence moves only
    the players already set up (the collapsed and the reserves stay out)."""
    if st.phase in ("quick_snap", "perfect_defence"):
        return p.at is not None
    return can_set_up(p)


def sides_needed(st: MatchState, team: str, sides: tuple[str, ...]) -> list[str]:
    """Sides that must post in this phase: those with a player who could be placed."""
    split = len(sides) > 1
    return [side for side in sides if _side_needed(st, team, side, split)]


def _side_needed(st: MatchState, team: str, side: str, split: bool) -> bool:
    for p in st.players.values():
        if p.team != team or (split and p.side != side):
            continue
        if may_post(st, p):
            return True
    return False


def team_complete(st: MatchState, team: str, sides: tuple[str, ...]) -> bool:
    """Has every side that must post in this phase posted?"""
    posted = st.teams[team].posted
    split = len(sides) > 1
    return all(s in posted or not _side_needed(st, team, s, split) for s in sides)


# ------------------------------------------------------------------------------------------
# Validation of the new declarations (called from ``legal``)


def setup_problem(
    st: MatchState, team: str, side: str, decl: Declaration, sides: tuple[str, ...]
) -> str | None:
    """Why a set-up post is illegal, or None."""
    split = len(sides) > 1
    wanted: dict[str, int] = {}
    for pid, name in decl.placements:
        p = st.players.get(pid)
        if p is None or p.team != team or (split and p.side != side):
            return f"{pid} is not a player of this side"
        try:
            wanted[pid] = parse_square(name)
        except ValueError:
            return f"{name!r} is not a square of the pitch"
    if len(set(wanted.values())) != len(wanted):
        return "two players on one square"
    if st.phase == "quick_snap":
        for pid, sq in wanted.items():
            p = st.players[pid]
            if p.at is None or p.state != "standing" or sq not in NEIGHBOURS[p.at]:
                return f"{pid} may only step one square"
            occ = st.board.get(sq)
            if occ is not None and occ not in wanted:
                return f"{NAMES[sq]} is occupied"
        return None
    mine = {p.id for p in st.players.values() if p.team == team and (not split or p.side == side)}
    if st.phase == "perfect_defence":  # LRB5: "reorganize his players", those set up
        missing = sorted(
            pid for pid in mine if st.players[pid].at is not None and pid not in wanted
        )
        if missing:
            return f"Perfect Defence sets up again every player set up: {', '.join(missing)}"
    for pid, sq in wanted.items():
        p = st.players[pid]
        if not may_post(st, p):
            return f"{pid} is {p.state} and cannot be set up"
        if not in_half(team, sq):
            return f"{NAMES[sq]} is not in the {team} half"
        occ = st.board.get(sq)
        if occ is not None and occ not in mine:
            return f"{NAMES[sq]} is occupied"
    placed = [
        p.at
        for p in st.players.values()
        if p.team == team and p.at is not None and p.id not in mine
    ] + list(wanted.values())
    if len(placed) > 11:
        return "more than 11 players on the pitch"
    for zone in (0, 1):
        if sum(1 for s in placed if s is not None and wide_zone(s) == zone) > 2:
            return "more than 2 players in a wide zone"
    others_done = all(s in st.teams[team].posted for s in sides if s != side)
    if others_done:
        available = sum(1 for p in st.players.values() if p.team == team and may_post(st, p))
        need = min(11, available)
        if len(placed) != need:
            return f"the team must set up {need} players, not {len(placed)}"
        los = sum(1 for s in placed if s is not None and on_los(team, s))
        if los < min(3, need):
            return f"at least {min(3, need)} players on the line of scrimmage"
    return None


SETUP_PHASES = ("setup", "perfect_defence", "quick_snap")


def setups_awaited(st: MatchState, sides: tuple[str, ...]) -> list[tuple[str, str]]:
    """(team, side) pairs whose set-up post the match waits for: the kicking team sets up
    first; a Perfect Defence is the kicking team's, a Quick Snap the receiving team's."""
    if st.phase not in SETUP_PHASES:
        return []
    receiving = other(st.kicking)
    if st.phase == "setup":
        team = receiving if team_complete(st, st.kicking, sides) else st.kicking
    else:
        team = st.kicking if st.phase == "perfect_defence" else receiving
    posted = st.teams[team].posted
    return [(team, side) for side in sides_needed(st, team, sides) if side not in posted]


# ------------------------------------------------------------------------------------------
# The default set-up (a missed set-up deadline)

# Rows from the centre outwards, none of them in a wide zone (rows 5-11, 0-based 4-10).
_CENTRE_OUT = (7, 6, 8, 5, 9, 4, 10)


def _central_squares(team: str, back: int) -> list[int]:
    """The central squares ``back`` columns behind ``team``'s line of scrimmage."""
    x = los_column(team) + (-back if team == "home" else back)
    return [square(x, y) for y in _CENTRE_OUT]


def default_setup(
    st: MatchState,
    team: str,
    side: str,
    sides: tuple[str, ...],
    saved: dict[str, str] | None = None,
) -> Declaration:
    """The post a side that missed its set-up deadline makes: in a Perfect Defence its players
    stay where they are, in a Quick Snap nobody steps; at a kick-off the ``saved`` formation
    (player id -> square) of those of its players who may be set up, when it is legal and
    leaves the team able to complete its set-up; else its players by shirt number, on the line
    of scrimmage first (the three the team needs) and then behind it, always in the centre (no
    wide zone is ever full). A side that posts first leaves the other its share of the eleven;
    a side that posts last completes them."""
    if st.phase == "setup" and saved:
        saved_post = _saved_setup(st, team, side, sides, saved)
        if saved_post is not None:
            return saved_post
    split = len(sides) > 1
    mine = sorted(
        (
            p
            for p in st.players.values()
            if p.team == team and (not split or p.side == side) and may_post(st, p)
        ),
        key=lambda p: (p.number if p.number is not None else 99, p.id),
    )
    if st.phase == "quick_snap":
        return Declaration(None, "setup")
    if st.phase == "perfect_defence":
        kept = tuple(sorted((p.id, NAMES[p.at]) for p in mine if p.at is not None))
        return Declaration(None, "setup", placements=kept)
    ids = {p.id for p in mine}
    others = [
        p for p in st.players.values() if p.team == team and p.id not in ids and may_post(st, p)
    ]
    others_placed = [p.at for p in others if p.at is not None]
    available = len(mine) + len(others)
    need = min(11, available)
    if all(s in st.teams[team].posted for s in sides if s != side):
        count = need - len(others_placed)
    else:
        count = max(need - len(others), min(len(mine), need * len(mine) // max(available, 1)))
    count = max(0, min(count, len(mine)))
    on_line = sum(1 for sq in others_placed if on_los(team, sq))
    line_wanted = max(0, min(3, need) - on_line)
    taken = set(others_placed)
    line = [sq for sq in _central_squares(team, 0) if sq not in taken]
    behind = [sq for back in range(1, 6) for sq in _central_squares(team, back) if sq not in taken]
    squares = (line[:line_wanted] + behind + line[line_wanted:])[:count]
    placements = tuple(sorted((p.id, NAMES[sq]) for p, sq in zip(mine, squares, strict=False)))
    return Declaration(None, "setup", placements=placements)


def default_kick(st: MatchState) -> Declaration:
    """The kick of a kicking team that missed its deadline: at the centre of the receiving
    half (the kick still scatters)."""
    x = 6 if other(st.kicking) == "home" else 19
    return Declaration(None, "kick", target=NAMES[square(x, 7)])


def _saved_setup(
    st: MatchState, team: str, side: str, sides: tuple[str, ...], saved: dict[str, str]
) -> Declaration | None:
    split = len(sides) > 1
    mine = {
        p.id
        for p in st.players.values()
        if p.team == team and (not split or p.side == side) and may_post(st, p)
    }
    placements = tuple(sorted((pid, sq) for pid, sq in saved.items() if pid in mine))
    decl = Declaration(None, "setup", placements=placements)
    if not placements or setup_problem(st, team, side, decl, sides) is not None:
        return None
    if all(s in st.teams[team].posted for s in sides if s != side):
        return decl  # the last side: ``setup_problem`` checked the whole team
    others = [p for p in st.players.values() if p.team == team and p.id not in mine]
    waiting = sum(1 for p in others if p.at is None and may_post(st, p))
    squares = [parse_square(sq) for _pid, sq in placements]
    squares += [p.at for p in others if p.at is not None]
    need = min(11, len(mine) + sum(1 for p in others if may_post(st, p)))
    left = need - len(squares)
    line_short = min(3, need) - sum(1 for sq in squares if on_los(team, sq))
    return decl if max(0, line_short) <= left <= waiting else None


def pitch_is_set(st: MatchState) -> bool:
    return any(p.state in ON_PITCH for p in st.players.values())
