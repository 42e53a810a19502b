"""What the SVG pitch draws, computed from the match state (squares to pixels, tokens)."""

from dataclasses import dataclass
from typing import Any

COLUMNS = 26
ROWS = 15
SQUARE = 30
COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def square_xy(name: str) -> tuple[int, int]:
    """Top-left pixel of a square such as ``K8``."""
    return COLUMN_LETTERS.index(name[0]) * SQUARE, (int(name[1:]) - 1) * SQUARE


def neighbours(name: str) -> list[str]:
    col, row = COLUMN_LETTERS.index(name[0]), int(name[1:])
    out = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            c, r = col + dx, row + dy
            if (dx or dy) and 0 <= c < COLUMNS and 1 <= r <= ROWS:
                out.append(f"{COLUMN_LETTERS[c]}{r}")
    return out


@dataclass(frozen=True)
class Token:
    id: str
    number: int | str
    team: str
    side: str
    state: str
    square: str
    x: int
    y: int
    has_ball: bool
    acted: bool
    mine: bool

    @property
    def cx(self) -> int:
        return self.x + SQUARE // 2

    @property
    def cy(self) -> int:
        return self.y + SQUARE // 2


@dataclass(frozen=True)
class Cell:
    square: str
    x: int
    y: int
    zone: str


def pitch_view(state: dict[str, Any], my_actors: list[str]) -> dict[str, Any]:
    house_rules = state.get("house_rules", True)
    tokens = []
    tackle_zones: dict[str, set[str]] = {"home": set(), "away": set()}
    for pid, p in state.get("players", {}).items():
        if not p.get("at"):
            continue
        x, y = square_xy(p["at"])
        actor = f"{p['team']}:{p['side'] if house_rules else 'captain'}"
        tokens.append(
            Token(
                id=pid,
                number=p.get("number") or pid,
                team=p["team"],
                side=p["side"],
                state=p["state"],
                square=p["at"],
                x=x,
                y=y,
                has_ball=bool(p.get("has_ball")),
                acted=bool(p.get("acted")),
                mine=actor in my_actors or (not house_rules and f"{p['team']}:rival" in my_actors),
            )
        )
        if p["state"] == "standing" and not p.get("no_tz"):
            tackle_zones[p["team"]].update(neighbours(p["at"]))
    ball = state.get("ball") or {}
    loose_ball = None
    if ball.get("at") and not ball.get("carrier"):
        bx, by = square_xy(ball["at"])
        loose_ball = {"x": bx + SQUARE // 2, "y": by + SQUARE // 2}
    return {
        "width": COLUMNS * SQUARE,
        "height": ROWS * SQUARE,
        "square": SQUARE,
        "cells": [_cell(c, r) for r in range(1, ROWS + 1) for c in range(COLUMNS)],
        "tokens": tokens,
        "loose_ball": loose_ball,
        "tackle_zones": {
            team: [square_xy(sq) for sq in sorted(squares)]
            for team, squares in tackle_zones.items()
        },
        "scrimmage_x": 13 * SQUARE,
    }


def _cell(column: int, row: int) -> Cell:
    name = f"{COLUMN_LETTERS[column]}{row}"
    if column in (0, COLUMNS - 1):
        zone = "endzone"
    elif row <= 4 or row >= 12:
        zone = "wide"
    else:
        zone = "centre"
    return Cell(name, column * SQUARE, (row - 1) * SQUARE, zone)
