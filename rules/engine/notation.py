"""The compact notation of forum posts::

    #7 move K8-L9-M9        #3 block #12        #5 blitz K8-L8 #12 then M8
    #4 foul #9              #2 hand_off J7 #6   #8 pass #11    end turn    claim blitz

A path lists the squares entered. ``own`` maps the acting team's shirt numbers to player ids,
``opponents`` the other team's (targets of blocks, blitzes and fouls)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .actions import Declaration
from .board import parse_square


class NotationError(ValueError):
    """Text that is not a declaration in the compact notation."""


_ACTIONS = {"move", "block", "blitz", "pass", "hand_off", "hand-off", "foul"}
_HOSTILE = {"block", "blitz", "foul"}
_NUM = re.compile(r"#(\d+)$")


def _path(token: str) -> tuple[str, ...]:
    squares = tuple(s.upper() for s in token.split("-"))
    for s in squares:
        try:
            parse_square(s)
        except ValueError:
            raise NotationError(f"{s!r} is not a square") from None
    return squares


def parse(
    text: str, own: Mapping[int, str], opponents: Mapping[int, str] | None = None
) -> Declaration:
    words = text.strip().split()
    low = [w.lower() for w in words]
    if low == ["end", "turn"]:
        return Declaration(None, "end_turn")
    if low == ["claim", "blitz"]:
        return Declaration(None, "claim_blitz")
    if len(words) < 2:
        raise NotationError(f"not a declaration: {text!r}")
    m = _NUM.match(words[0])
    if not m or int(m.group(1)) not in own:
        raise NotationError(f"unknown player {words[0]!r}")
    player = own[int(m.group(1))]
    action = low[1].replace("-", "_")
    if action not in {a.replace("-", "_") for a in _ACTIONS}:
        raise NotationError(f"unknown action {words[1]!r}")
    rest = words[2:]
    path: tuple[str, ...] = ()
    target: str | None = None
    then: tuple[str, ...] = ()
    if (
        rest
        and not rest[0].startswith("#")
        and rest[0].lower() != "then"
        and (action != "pass" or len(rest) > 1)
    ):
        path = _path(rest.pop(0))
    if rest and rest[0].lower() != "then":
        tok = rest.pop(0)
        tm = _NUM.match(tok)
        if tm:
            book = opponents if action in _HOSTILE and opponents is not None else own
            num = int(tm.group(1))
            if num not in book:
                raise NotationError(f"unknown target {tok!r}")
            target = book[num]
        elif action == "pass":
            target = _path(tok)[0]
        else:
            raise NotationError(f"a target is a #number, not {tok!r}")
    if rest:
        if rest[0].lower() != "then" or len(rest) != 2:
            raise NotationError(f"unexpected {' '.join(rest)!r}")
        then = _path(rest[1])
    return Declaration(player, action, path, target, then)


def format_declaration(
    decl: Declaration, own: Mapping[int, str], opponents: Mapping[int, str] | None = None
) -> str:
    if decl.action == "end_turn":
        return "end turn"
    if decl.action == "claim_blitz":
        return "claim blitz"
    num = {v: k for k, v in own.items()}
    opp = {v: k for k, v in (opponents or {}).items()}
    if decl.player not in num:
        raise NotationError(f"player {decl.player!r} has no number")
    if (
        decl.action == "bomb"
        or decl.target2 is not None
        or decl.stab
        or decl.gaze is not None
        or decl.facings
    ):
        raise NotationError("the compact notation has no form for this declaration yet")
    parts = [f"#{num[decl.player]}", decl.action]
    if decl.path:
        parts.append("-".join(decl.path))
    if decl.target is not None:
        if decl.action in _HOSTILE and decl.target in opp:
            parts.append(f"#{opp[decl.target]}")
        elif decl.target in num:
            parts.append(f"#{num[decl.target]}")
        elif decl.action == "pass":
            parts.append(decl.target)
        else:
            raise NotationError(f"target {decl.target!r} has no number")
    if decl.then:
        parts += ["then", "-".join(decl.then)]
    return " ".join(parts)
