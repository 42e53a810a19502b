"""For the web UI: which actions a player may declare now, and the rolls a declaration needs
with their chances. Pure and fast: nothing is resolved and no die is read."""

from __future__ import annotations

from typing import Any

from .actions import Actor, Declaration
from .ball import disturbing
from .board import NAMES, adjacent, distance, parse_square
from .core import assists, enemy_tz, tz_players
from .legal import legal
from .passing import pass_modifiers, pass_target
from .ruleset import ruleset_for
from .state import MatchState, Player
from .tables import agility_target

_NOT_NOW = frozenset(
    ("not_your_turn", "not_your_player", "player_cannot_act", "decision_pending", "wrong_phase")
)


def chance(target: int, modifiers: dict[str, int] | None = None, *, agility: bool = True) -> float:
    """The chance of a D6 roll reaching ``target`` with ``modifiers``: a natural 1 fails and,
    for agility rolls, a natural 6 succeeds."""
    mod = sum((modifiers or {}).values())
    ok = sum(1 for f in range(2, 7) if f + mod >= target or (agility and f == 6))
    return ok / 6


def legal_actions(state: MatchState, actor: Actor | str, player_id: str) -> list[str]:
    """The actions ``player_id`` may be declared for now (move, block, blitz, pass, hand_off,
    foul, bomb), in that order; empty when it may not act. A Ball & Chain player only moves."""
    act = Actor.parse(actor) if isinstance(actor, str) else actor
    p = state.players.get(player_id)
    if p is None or p.at is None:
        return []
    err = legal(state, act, Declaration(player_id, "move"))
    if err is not None and err.code in _NOT_NOW:
        return []
    rs = ruleset_for(state)
    team = state.teams[p.team]
    out = ["move"]
    if p.has("Ball & Chain"):
        return out
    opponents = [q for q in state.players.values() if q.team != p.team and q.at is not None]
    standing = [q for q in opponents if q.state == "standing"]
    if (p.state == "standing" or p.has("Jump Up")) and any(
        q.at is not None and adjacent(p.at, q.at) for q in standing
    ):
        out.append("block")
    if standing and rs.blitz_free(team, act.side):
        out.append("blitz")
    ball_reachable = state.carrier == player_id or state.ball_at is not None
    mates = [
        q
        for q in state.players.values()
        if q.team == p.team and q.id != p.id and q.at is not None and q.state == "standing"
    ]
    if ball_reachable and not team.pass_used:
        out.append("pass")
    if ball_reachable and mates and not team.hand_off_used:
        out.append("hand_off")
    if rs.foul_free(team, act.side) and any(q.state in ("prone", "stunned") for q in opponents):
        out.append("foul")
    if p.has("Bombardier") and p.state == "standing":
        out.append("bomb")
    return out


def _entry(
    sq: int | None, roll: str, target: int, mods: dict[str, int], **extra: Any
) -> dict[str, Any]:
    return {
        "square": None if sq is None else NAMES[sq],
        "roll": roll,
        "target": target,
        "modifiers": mods,
        "chance": round(chance(target, mods, agility=roll not in ("gfi", "stand_up")), 4),
        **extra,
    }


def preview(
    state: MatchState, actor: Actor | str, declaration: Declaration
) -> list[dict[str, Any]]:
    """One entry per roll the declaration needs if every roll succeeds, in order: the square,
    the roll (stand_up, gfi, dodge, leap, pickup, block, pass, catch, armour), its target, the
    modifiers and the chance; the last entry is the overall chance (rerolls not counted)."""
    d = declaration
    p = state.players.get(d.player or "")
    out: list[dict[str, Any]] = []
    if p is None or p.at is None:
        return [{"roll": "overall", "chance": 0.0}]
    cur = p.at
    used = 3 if p.state == "prone" and p.ma >= 3 else 0
    if p.state == "prone" and p.ma < 3:
        out.append(_entry(cur, "stand_up", 4, {}))
        used = p.ma
    has_ball = state.carrier == p.id
    gfi_target = 3 if state.weather == "blizzard" else 2
    for sq in (parse_square(s) for s in d.path):
        leap = not adjacent(cur, sq) and distance(cur, sq) == 2
        for _ in range(2 if leap else 1):
            used += 1
            if used > p.ma:
                out.append(_entry(sq, "gfi", gfi_target, {}))
        tackled = tz_players(state, cur, p.team)
        if leap:
            mods = {"Very Long Legs": 1} if p.has("Very Long Legs") else {}
            out.append(_entry(sq, "leap", agility_target(p.ag), mods))
        elif tackled:
            mods = {"dodge": 1}
            tz = enemy_tz(state, sq, p.team)
            if tz and not p.has("Stunty"):
                mods["tackle_zones"] = -tz
            if p.has("Two Heads"):
                mods["Two Heads"] = 1
            tails = sum(1 for q in tackled if q.has("Prehensile Tail"))
            if tails:
                mods["Prehensile Tail"] = -tails
            out.append(_entry(sq, "dodge", agility_target(p.ag), mods))
        if not has_ball and state.carrier is None and state.ball_at == sq:
            mods = {"pick_up": 1}
            tz = enemy_tz(state, sq, p.team)
            if tz and not p.has("Big Hand"):
                mods["tackle_zones"] = -tz
            if state.weather == "pouring_rain" and not p.has("Big Hand"):
                mods["pouring_rain"] = -1
            if p.has("Extra Arms"):
                mods["Extra Arms"] = 1
            out.append(_entry(sq, "pickup", agility_target(p.ag), mods))
            has_ball = True
        cur = sq
    if d.action == "blitz" and used + 1 > p.ma:
        out.append(_entry(cur, "gfi", gfi_target, {}))
    if d.action in ("block", "blitz") and d.target in state.players:
        out.append(_block_entry(state, p, state.players[d.target], cur))
    elif d.action == "pass" and d.target is not None and d.throw is None:
        to = pass_target(state, d.target)
        if to is not None:
            moved = _moved(p, cur)
            mods = pass_modifiers(state, moved, cur, to) if _in_range(cur, to) else {}
            out.append(_entry(cur, "pass", agility_target(p.ag), mods))
            if d.target in state.players:
                out.append(_catch_entry(state, state.players[d.target], accurate=True))
    elif d.action == "hand_off" and d.target in state.players:
        out.append(_catch_entry(state, state.players[d.target], accurate=True))
    elif d.action == "foul" and d.target in state.players:
        t = state.players[d.target]
        plus = assists(state, _moved(p, cur), t, exclude=p.id)
        minus = assists(state, t, _moved(p, cur), exclude=t.id)
        mods = {"assists": plus, "defensive_assists": -minus}
        total = sum(mods.values())
        ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + total > t.av)
        out.append(
            {
                "square": NAMES[t.at] if t.at is not None else NAMES[cur],  # the armour hit
                "roll": "armour",
                "target": t.av + 1,
                "modifiers": mods,
                "chance": round(ways / 36, 4),
                "sent_off": round(_sent_off_chance(p, t.av, total), 4),
            }
        )
    overall = 1.0
    for e in out:
        overall *= float(e["chance"])
    out.append({"roll": "overall", "chance": round(overall, 4)})
    return out


def _sent_off_chance(fouler: Player, av: int, total: int) -> float:
    """The chance the referee sees the foul: a double on the armour dice (with Sneaky Git,
    only when the armour breaks), or on the injury dice after the armour broke."""
    sneaky = fouler.has("Sneaky Git")
    seen = 0.0
    for a in range(1, 7):
        for b in range(1, 7):
            broken = a + b + total > av
            if a == b and (broken or not sneaky):
                seen += 1 / 36
            elif broken:
                seen += 1 / 36 * 1 / 6
    return seen


def _in_range(frm: int, to: int) -> bool:
    return distance(frm, to) + 1 <= 17


def _moved(p: Player, sq: int) -> Player:
    q = p.copy()
    q.at = sq
    return q


def _catch_entry(state: MatchState, q: Player, *, accurate: bool) -> dict[str, Any]:
    assert q.at is not None
    mods: dict[str, int] = {"accurate": 1} if accurate else {}
    if not q.has("Nerves of Steel"):
        tz = enemy_tz(state, q.at, q.team)
        if tz:
            mods["tackle_zones"] = -tz
    if state.weather == "pouring_rain":
        mods["pouring_rain"] = -1
    if q.has("Extra Arms"):
        mods["Extra Arms"] = 1
    dp = disturbing(state, q.at, q.team)
    if dp:
        mods["Disturbing Presence"] = -dp
    return _entry(q.at, "catch", agility_target(q.ag), mods, player=q.id)


def _block_entry(state: MatchState, att: Player, dfn: Player, frm: int) -> dict[str, Any]:
    moved = _moved(att, frm)
    a = moved.st + assists(state, moved, dfn, exclude=att.id)
    b = dfn.st + assists(state, dfn, moved, exclude=dfn.id)
    if a == b:
        n, attacker_chooses = 1, True
    elif a > b:
        n, attacker_chooses = (3 if a > 2 * b else 2), True
    else:
        n, attacker_chooses = (3 if b > 2 * a else 2), False
    good = 4 + (1 if att.has("Block") else 0)  # faces 2, 3, 5, 6 (+ 4 with Block)
    ratio = good / 6
    p_ok = 1 - (1 - ratio) ** n if attacker_chooses else ratio**n
    return {
        "square": None if dfn.at is None else NAMES[dfn.at],
        "roll": "block",
        "dice": n,
        "chooser": "attacker" if attacker_chooses else "defender",
        "strength": {"attacker": a, "defender": b},
        "target": None,
        "modifiers": {},
        "chance": round(p_ok, 4),
    }
