"""What the SVG pitch draws, computed from the match state (squares to pixels, tokens)."""

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from matches import labels

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
    name: str = ""
    actions: str = ""  # the legal actions, space-separated, for pitch.js
    team_name: str = ""

    @property
    def label(self) -> str:
        """What a screen reader says of the token: who, whose, where, how."""
        parts = [
            f"#{self.number} {self.name}".strip(),
            self.team_name,
            self.square,
            str(labels.STATES.get(self.state, "")),
        ]
        if self.has_ball:
            parts.append(_("has the ball"))
        return ", ".join(p for p in parts if p)

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


def pitch_view(
    state: dict[str, Any],
    my_actors: list[str],
    lineup: dict[str, dict[str, Any]] | None = None,
    hide: set[str] | None = None,
    team_names: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Cells, tokens, the loose ball and the tackle zones; ``hide`` leaves out the tokens a
    set-up plan draws instead; ``team_names`` (by "home" and "away") go into the tokens'
    spoken names."""
    house_rules = state.get("house_rules", True)
    tokens = []
    tackle_zones: dict[str, set[str]] = {"home": set(), "away": set()}
    for pid, p in state.get("players", {}).items():
        if not p.get("at") or pid in (hide or ()):
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
                name=(lineup or {}).get(pid, {}).get("name", ""),
                team_name=(team_names or {}).get(p["team"], ""),
            )
        )
        if p["state"] == "standing" and not p.get("no_tz"):
            tackle_zones[p["team"]].update(neighbours(p["at"]))
    ball = state.get("ball") or {}
    loose_ball = None
    if ball.get("at") and not ball.get("carrier"):
        bx, by = square_xy(ball["at"])
        loose_ball = {"x": bx + SQUARE // 2, "y": by + SQUARE // 2, "square": ball["at"]}
    return {
        "width": COLUMNS * SQUARE,
        "height": ROWS * SQUARE,
        "square": SQUARE,
        "grid": grid_svg(interactive=True),
        "tokens": tokens,
        "loose_ball": loose_ball,
        "tackle_zones": {team: _zone_rects(squares) for team, squares in tackle_zones.items()},
    }


STATE_MARKS = {"prone": "P", "stunned": "S"}


def tokens_svg(tokens: list[Token], selected: str = "") -> SafeString:
    """The players on the pitch, written here like the grid: 22 tokens through the template
    cost more than the rest of the board. Every value from the match is escaped."""
    return format_html_join("", "{}", ((_token_svg(t, t.id == selected),) for t in tokens))


def _token_svg(t: Token, selected: bool) -> SafeString:
    """A token: a disc for the home team, a rounded square for the away team (told apart by
    more than their colours). Its state mark is drawn beside it, out of the button, which
    screen readers name by its label alone."""
    flags = {"mine": t.mine, "acted": t.acted, "can-act": bool(t.actions), "selected": selected}
    classes = [f"token team-{t.team} side-{t.side} state-{t.state}"]
    classes += [name for name, on in flags.items() if on]
    mark = STATE_MARKS.get(t.state)
    return format_html(
        '<g class="{}" transform="translate({} {})" data-player="{}" data-square="{}" '
        'data-team="{}" data-actions="{}" tabindex="-1" role="button" aria-label="{}" '
        'data-testid="token-{}">{}{}{}<text class="num" x="15" y="19">{}</text>{}</g>{}',
        " ".join(classes),
        t.x,
        t.y,
        t.id,
        t.square,
        t.team,
        t.actions,
        t.label,
        t.id,
        mark_safe(_halo(t.team)) if t.mine and t.actions else "",
        mark_safe(_AWAY_BODY if t.team == "away" else _HOME_BODY),
        mark_safe(_RIVAL_MARK) if t.side == "rival" else "",
        t.number,
        mark_safe(_BALL) if t.has_ball else "",
        format_html(
            '<text class="state-mark" x="{}" y="{}" aria-hidden="true">{}</text>',
            t.x + 3,
            t.y + 28,
            mark,
        )
        if mark
        else "",
    )


def _halo(team: str) -> str:
    """The dark edge around a "can act" ring: the ring's yellow is told from the token it
    outlines, the halo from every ground of the pitch (WCAG's 3:1 on both sides)."""
    return _AWAY_HALO if team == "away" else _HOME_HALO


_HOME_HALO = '<circle class="halo" cx="15" cy="15" r="15.5"></circle>'
_AWAY_HALO = '<rect class="halo" x="0.5" y="0.5" width="29" height="29" rx="7"></rect>'
_HOME_BODY = '<circle class="body" cx="15" cy="15" r="12"></circle>'
_AWAY_BODY = '<rect class="body" x="3" y="3" width="24" height="24" rx="5"></rect>'
_RIVAL_MARK = '<rect class="side-mark" x="21" y="2" width="7" height="7"></rect>'
_BALL = '<circle class="ball" cx="25" cy="25" r="4.5"></circle>'


def _zone_rects(squares: set[str]) -> SafeString:
    """One SVG square per square in a team's tackle zones (a hundred on a crowded pitch).
    Nothing to escape: the coordinates are numbers computed here."""
    rects = (
        f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"></rect>'
        for x, y in map(square_xy, sorted(squares))
    )
    return mark_safe("".join(rects))


@cache
def grid_svg(*, interactive: bool = False) -> SafeString:
    """The squares, lines and coordinates of the pitch: the same for every match, so written
    once (the template would spend longer on its 390 squares than on the rest of the page).
    On the match page (``interactive``) each square is a button named by its coordinate, one
    of them in the tab order (pitch.js moves it); the replay's pitch is a picture."""
    cells = [_cell(c, r) for r in range(1, ROWS + 1) for c in range(COLUMNS)]
    parts = [
        f'<rect class="cell zone-{c.zone}" x="{c.x}" y="{c.y}" width="{SQUARE}" '
        f'height="{SQUARE}" data-square="{c.square}"'
        + (
            f' tabindex="{0 if i == 0 else -1}" role="button" aria-label="{c.square}"'
            if interactive
            else ""
        )
        + "></rect>"
        for i, c in enumerate(cells)
    ]
    width, height = COLUMNS * SQUARE, ROWS * SQUARE
    end = (COLUMNS - 1) * SQUARE
    parts += [
        f'<line class="endzone-line" x1="{SQUARE}" y1="0" x2="{SQUARE}" y2="{height}"></line>',
        f'<line class="endzone-line" x1="{end}" y1="0" x2="{end}" y2="{height}"></line>',
        f'<line class="wide-line" x1="0" y1="{4 * SQUARE}" x2="{width}" y2="{4 * SQUARE}"></line>',
        f'<line class="wide-line" x1="0" y1="{11 * SQUARE}" x2="{width}" '
        f'y2="{11 * SQUARE}"></line>',
        f'<line class="scrimmage" x1="{13 * SQUARE}" y1="0" x2="{13 * SQUARE}" '
        f'y2="{height}"></line>',
    ]
    parts += [
        f'<text class="coord" x="{i * SQUARE + SQUARE // 2}" y="-5">{c}</text>'
        for i, c in enumerate(COLUMN_LETTERS)
    ]
    parts += [
        f'<text class="coord" x="-9" y="{(r - 1) * SQUARE + SQUARE // 2 + 4}">{r}</text>'
        for r in range(1, ROWS + 1)
    ]
    return mark_safe("".join(parts))  # built from constants only


def dugouts(state: Any, lineup: dict[str, dict[str, Any]], match: Any) -> list[dict[str, Any]]:
    """Each team's players off the pitch: reserves, knocked out, casualties, sent off."""
    out = []
    for key, team in (("home", match.home_team), ("away", match.away_team)):
        boxes: dict[str, list[dict[str, Any]]] = {
            "reserves": [],
            "ko": [],
            "casualty": [],
            "sent_off": [],
        }
        players = sorted(
            (p for p in state.players.values() if p.team == key), key=lambda p: p.number or 0
        )
        for p in players:
            if p.state in boxes:
                info = lineup.get(p.id, {})
                boxes[p.state].append(
                    {
                        "id": p.id,
                        "number": p.number,
                        "name": info.get("name", p.id),
                        "pk": info.get("pk"),  # a star player has no career page
                        "side": p.side,
                        "casualty": labels.label(labels.RESULTS, p.casualty) if p.casualty else "",
                    }
                )
        out.append(
            {
                "key": key,
                "team": team,
                "boxes": [
                    (name, labels.label(labels.STATES, name), boxes[name])
                    for name in ("reserves", "ko", "casualty", "sent_off")
                ],
            }
        )
    return out


def _cell(column: int, row: int) -> Cell:
    name = f"{COLUMN_LETTERS[column]}{row}"
    if column in (0, COLUMNS - 1):
        zone = "endzone"
    elif row <= 4 or row >= 12:
        zone = "wide"
    else:
        zone = "centre"
    return Cell(name, column * SQUARE, (row - 1) * SQUARE, zone)
