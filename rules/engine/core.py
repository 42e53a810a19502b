"""Board queries shared by validation and resolution."""

from __future__ import annotations

from .board import NEIGHBOURS, WIDTH, xy
from .state import MatchState, Player


def has_tz(p: Player) -> bool:
    return p.state == "standing" and not p.no_tz


def enemy_tz(st: MatchState, sq: int, team: str, ignore: str | None = None) -> int:
    """Opposing tackle zones on a square for a player of ``team``."""
    n = 0
    players = st.players
    for pid in map(st.board.get, NEIGHBOURS[sq]):
        if pid is not None and pid != ignore:
            q = players[pid]
            if q.team != team and q.state == "standing" and not q.no_tz:
                n += 1
    return n


def tz_players(st: MatchState, sq: int, team: str) -> list[Player]:
    players = st.players
    return [
        q
        for pid in map(st.board.get, NEIGHBOURS[sq])
        if pid is not None
        and (q := players[pid]).team != team
        and q.state == "standing"
        and not q.no_tz
    ]


def assists(st: MatchState, helped: Player, opponent: Player, exclude: str) -> int:
    """Team-mates of ``helped`` that assist against ``opponent`` (seed 000's four conditions:
    adjacent to the opponent, in no other opposing tackle zone unless Guard, standing, with a
    tackle zone)."""
    n = 0
    if opponent.at is None:
        return 0
    for s in NEIGHBOURS[opponent.at]:
        pid = st.board.get(s)
        if pid is None or pid == exclude or pid == helped.id:
            continue
        q = st.players[pid]
        if q.team != helped.team or not has_tz(q):
            continue
        if "Guard" not in q.skills and enemy_tz(st, s, q.team, ignore=opponent.id) > 0:
            continue
        n += 1
    return n


def end_zone_of_opponent(team: str) -> int:
    """The column a team scores in: home attacks towards Z, away towards A."""
    return WIDTH - 1 if team == "home" else 0


def gfi_limit(p: Player) -> int:
    return 3 if "Sprint" in p.skills else 2


def move_budget(p: Player) -> int:
    """Squares the player may enter (MA after standing up, plus Going For It)."""
    if p.state == "prone" and "Jump Up" not in p.skills:
        return max(p.ma - 3, 0) + gfi_limit(p)
    return p.ma + gfi_limit(p)


def in_half(team: str, sq: int) -> bool:
    """Is the square in the team's own half (home A-M, away N-Z)?"""
    return (xy(sq)[0] <= 12) == (team == "home")
