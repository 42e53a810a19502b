"""Passing: hand-offs, passes and their interceptions, Pass Block, Dump-Off, Throw Team-Mate
and the thrown player's landing."""

from __future__ import annotations

from .ball import arrive, bounce, can_catch, catch, disturbing, throw_in
from .board import (
    D8,
    NAMES,
    NEIGHBOURS,
    adjacent,
    distance,
    in_flight_path,
    on_pitch,
    parse_square,
    pass_band,
    square,
    xy,
)
from .context import Ctx, d6_roll, offer_reroll
from .core import enemy_tz
from .injury import armour, fall, off_pitch, roll_injury
from .state import MatchState, Player
from .tables import agility_target


def hand_off_ball(ctx: Ctx, pid: str, target: str) -> None:
    st = ctx.st
    me = st.players[pid]
    tgt = st.players[target]
    if st.carrier != pid or tgt.at is None or me.at is None or not adjacent(me.at, tgt.at):
        return
    ctx.ev("hand_off", player=pid, target=target)
    st.carrier = None
    st.ball_at = tgt.at
    if can_catch(tgt):
        catch(ctx, tgt, accurate=True, hand_off=True)
    else:
        bounce(ctx, tgt.at)
    if st.carrier is None or st.players[st.carrier].team != st.active:
        ctx.turnover = True


def pass_target(st: MatchState, target: str) -> int | None:
    """The square a pass is aimed at: a player's square or a square name."""
    if target in st.players:
        return st.players[target].at
    try:
        return parse_square(target)
    except ValueError:
        return None


def interceptors(st: MatchState, thrower: Player, frm: int, to: int) -> list[Player]:
    """Opponents who may intercept (seed 000): standing with a tackle zone, in the ball's path,
    nearer the thrower than the target is and nearer the target than the thrower is."""
    reach = distance(frm, to)
    out = []
    for q in st.players.values():
        if (
            q.team != thrower.team
            and q.at is not None
            and can_catch(q)
            and q.at != to
            and distance(q.at, frm) < reach
            and distance(q.at, to) < reach
            and in_flight_path(frm, to, q.at)
        ):
            out.append(q)
    return out


def _intercept(ctx: Ctx, thrower: Player, frm: int, to: int) -> bool:
    """The opposing coaches may name one interceptor (each side for its own players, the
    captain's side first). True when the ball is intercepted."""
    st = ctx.st
    cands = interceptors(st, thrower, frm, to)
    if not cands:
        return False
    by_decider: dict[str, list[str]] = {}
    for q in sorted(cands, key=lambda q: (q.side != "captain", q.id)):
        by_decider.setdefault(ctx.decider(q), []).append(q.id)
    chosen: str | None = None
    for to_side, ids in by_decider.items():
        choice = ctx.ask("intercept", to_side, [*ids, "none"], "none")
        if choice != "none":
            chosen = str(choice)
            break
    if chosen is None:
        return False
    q = st.players[chosen]
    assert q.at is not None
    mods: dict[str, int] = {"intercept": -2}
    if "Nerves of Steel" not in q.skills:
        tz = enemy_tz(st, q.at, q.team)
        if tz:
            mods["tackle_zones"] = -tz
    if st.weather == "pouring_rain":
        mods["pouring_rain"] = -1
    if "Extra Arms" in q.skills:
        mods["Extra Arms"] = 1
    if "Very Long Legs" in q.skills:
        mods["Very Long Legs"] = 1
    dp = disturbing(st, q.at, q.team)
    if dp:
        mods["Disturbing Presence"] = -dp
    if not d6_roll(ctx, "intercept", q, agility_target(q.ag), mods):
        return False
    if "Safe Throw" in thrower.skills and "Very Long Legs" not in q.skills:
        face = ctx.roll(6)
        target = agility_target(thrower.ag)
        ok = face != 1 and face >= target
        ctx.ev(
            "safe_throw",
            purpose="safe_throw",
            player=thrower.id,
            target=target,
            modifiers={},
            faces=[face],
            result="success" if ok else "failure",
        )
        if ok:
            return False
    st.carrier = chosen
    st.ball_at = None
    ctx.ev("interception", player=chosen, thrower=thrower.id)
    return True


def _scatter(ctx: Ctx, sq: int, times: int) -> int | None:
    """Scatter a ball in the air ``times`` squares (a D8 each); the square it ends over, or
    None after a throw-in (it left the pitch)."""
    for _ in range(times):
        d = ctx.roll(8)
        dx, dy = D8[d - 1]
        x, y = xy(sq)
        nx, ny = x + dx, y + dy
        out = not on_pitch(nx, ny)
        ctx.ev(
            "scatter",
            purpose="scatter",
            faces=[d],
            frm=NAMES[sq],
            to=None if out else NAMES[square(nx, ny)],
        )
        if out:
            ctx.st.carrier = None
            ctx.st.ball_at = None
            throw_in(ctx, sq)
            return None
        sq = square(nx, ny)
    return sq


def pass_modifiers(st: MatchState, p: Player, frm: int, to: int) -> dict[str, int]:
    band = pass_band(frm, to)
    assert band is not None
    name, mod = band
    mods: dict[str, int] = {name: mod}
    if "Nerves of Steel" not in p.skills:
        tz = enemy_tz(st, frm, p.team)
        if tz:
            mods["tackle_zones"] = -tz
    if st.weather == "very_sunny":
        mods["very_sunny"] = -1
    if "Accurate" in p.skills:
        mods["Accurate"] = 1
    if "Stunty" in p.skills:
        mods["Stunty"] = -1
    if "Strong Arm" in p.skills and name != "quick":
        mods["Strong Arm"] = 1
    dp = disturbing(st, frm, p.team)
    if dp:
        mods["Disturbing Presence"] = -dp
    return mods


def pass_roll(ctx: Ctx, p: Player, mods: dict[str, int], hail_mary: bool) -> str:
    """``accurate``, ``inaccurate`` or ``fumble``, with one reroll after a failure."""
    return _pass_roll_face(ctx, p, mods, hail_mary)[0]


def _pass_roll_face(ctx: Ctx, p: Player, mods: dict[str, int], hail_mary: bool) -> tuple[str, int]:
    """``pass_roll``'s result and the face it was read from (the last roll's)."""
    target = agility_target(p.ag)
    rerolled = False
    while True:
        face = ctx.roll(6)
        total = face + sum(mods.values())
        if hail_mary:
            result = "fumble" if face == 1 else "inaccurate"
        elif face == 6:
            result = "accurate"
        elif face == 1 or total <= 1:
            result = "fumble"
        else:
            result = "accurate" if total >= target else "inaccurate"
        ctx.ev(
            "pass",
            purpose="pass",
            player=p.id,
            target=target,
            modifiers=dict(mods),
            faces=[face],
            total=total,
            result=result,
            reroll=rerolled,
        )
        if result == "accurate" or rerolled or (hail_mary and result == "inaccurate"):
            return result, face
        if not offer_reroll(ctx, ctx.st.players[p.id], "pass"):
            return result, face
        rerolled = True


def dump_off_pass(ctx: Ctx, def_id: str) -> None:
    """Dump-Off: a blocked ball carrier may first make a Quick pass (no turnover for
    either team)."""
    st = ctx.st
    dfn = st.players[def_id]
    if st.carrier != def_id or "Dump-Off" not in dfn.skills or dfn.at is None:
        return
    frm = dfn.at
    options = [
        q.id
        for q in st.players.values()
        if q.team == dfn.team
        and q.id != def_id
        and q.at is not None
        and q.state == "standing"
        and distance(frm, q.at) + 1 <= 5
    ]
    if not options:
        return
    choice = ctx.ask("dump_off", ctx.decider(dfn), [*sorted(options), "none"], "none")
    if choice != "none":
        pass_ball(ctx, def_id, str(choice), dump_off=True)


def _pass_block(ctx: Ctx, thrower: Player, frm: int, to: int) -> None:
    """Pass Block: an opponent with the skill may move up to three squares (empty squares,
    no dodging) to a square from which it may intercept or marks the thrower or the target."""
    st = ctx.st
    for q in sorted(st.players.values(), key=lambda q: q.id):
        if (
            q.team == thrower.team
            or "Pass Block" not in q.skills
            or q.at is None
            or q.state != "standing"
            or enemy_tz(st, q.at, q.team) > 0
        ):
            continue
        reach = distance(frm, to)
        seen = {q.at}
        frontier = [q.at]
        useful: list[int] = []
        for _ in range(3):
            nxt = []
            for a in frontier:
                for b in NEIGHBOURS[a]:
                    if b in seen or b in st.board:
                        continue
                    seen.add(b)
                    if enemy_tz(st, b, q.team) == 0:
                        nxt.append(b)
                    if (
                        adjacent(b, frm)
                        or adjacent(b, to)
                        or (
                            distance(b, frm) < reach
                            and distance(b, to) < reach
                            and in_flight_path(frm, to, b)
                        )
                    ):
                        useful.append(b)
            frontier = nxt
        if not useful:
            continue
        names = [f"{q.id}:{NAMES[b]}" for b in sorted(useful)]
        choice = ctx.ask("pass_block", ctx.decider(q), [*names, "none"], "none")
        if choice != "none":
            dest = parse_square(str(choice).split(":", 1)[1])
            ctx.place(q.id, dest)
            ctx.ev("pass_block", player=q.id, to=NAMES[dest])
            if st.carrier is None and st.ball_at == dest:
                bounce(ctx, dest)


def throw_team_mate(ctx: Ctx, pid: str, thrown_id: str, target: str) -> None:
    st = ctx.st
    me = st.players[pid]
    t = st.players[thrown_id]
    if (
        me.at is None
        or t.at is None
        or me.state != "standing"
        or t.state != "standing"
        or not adjacent(me.at, t.at)
    ):
        return
    to = parse_square(target)
    ctx.ev("throw_team_mate", player=pid, thrown=thrown_id, at=NAMES[to])
    had_ball = st.carrier == thrown_id
    fumbled = False
    if "Always Hungry" in me.skills:
        face = ctx.roll(6)
        hungry = face == 1
        ctx.ev(
            "always_hungry",
            purpose="always_hungry",
            player=pid,
            target=2,
            modifiers={},
            faces=[face],
            result="failure" if hungry else "success",
        )
        if hungry:
            face = ctx.roll(6)
            eaten = face == 1
            ctx.ev(
                "eaten",
                purpose="escape",
                player=thrown_id,
                target=2,
                modifiers={},
                faces=[face],
                result="failure" if eaten else "success",
            )
            if eaten:
                sq = t.at
                off_pitch(ctx, thrown_id, "casualty")
                ctx.mp(thrown_id).casualty = "dead"
                ctx.loose.clear()
                if had_ball:
                    ctx.turnover = True
                    st.carrier = None
                    st.ball_at = sq
                    bounce(ctx, sq)
                return
            fumbled = True
    if not fumbled:
        band = pass_band(me.at, to)
        assert band is not None
        mods: dict[str, int] = {band[0]: band[1], "Throw Team-Mate": -1}
        if "Nerves of Steel" not in me.skills:
            tz = enemy_tz(st, me.at, me.team)
            if tz:
                mods["tackle_zones"] = -tz
        if st.weather == "very_sunny":
            mods["very_sunny"] = -1
        fumbled = pass_roll(ctx, me, mods, False) == "fumble"
    landing: int | None = t.at if fumbled else to
    if not fumbled:
        assert landing is not None
        landing = scatter_player(ctx, landing, 3)
    _land_thrown(ctx, thrown_id, landing, had_ball)


def scatter_player(ctx: Ctx, sq: int, times: int) -> int | None:
    for _ in range(times):
        d = ctx.roll(8)
        dx, dy = D8[d - 1]
        x, y = xy(sq)
        out = not on_pitch(x + dx, y + dy)
        ctx.ev(
            "scatter",
            purpose="scatter",
            faces=[d],
            frm=NAMES[sq],
            to=None if out else NAMES[square(x + dx, y + dy)],
        )
        if out:
            return None
        sq = square(x + dx, y + dy)
    return sq


def _land_thrown(ctx: Ctx, pid: str, landing: int | None, had_ball: bool) -> None:
    st = ctx.st
    p = st.players[pid]
    while landing is not None and st.board.get(landing) not in (None, pid):
        under = st.board[landing]
        ctx.ev("landed_on", player=pid, target_player=under)
        fall(ctx, [under], by=None)
        landing = scatter_player(ctx, landing, 1)
    if landing is None:
        sq = p.at
        ctx.place(pid, None)
        ctx.mp(pid).state = "reserves"
        if had_ball and sq is not None:
            st.carrier = None
            ctx.turnover = True
        roll_injury(ctx, pid, {}, crowd=True)
        if had_ball and sq is not None:
            throw_in(ctx, sq)
        return
    ctx.place(pid, landing)
    mods: dict[str, int] = {}
    tz = enemy_tz(st, landing, p.team)
    if tz:
        mods["tackle_zones"] = -tz
    if d6_roll(ctx, "landing", st.players[pid], agility_target(p.ag), mods):
        if st.carrier is None and st.ball_at == landing:
            bounce(ctx, landing)
        return
    mp = ctx.mp(pid)
    mp.state = "prone"
    ctx.ev("knocked_down", player=pid, at=NAMES[landing])
    if had_ball:
        ctx.turnover = True
        st.carrier = None
        st.ball_at = landing
    armour(ctx, pid, None)
    if had_ball or (st.carrier is None and st.ball_at == landing):
        ctx.loose.append(landing)


def pass_ball(ctx: Ctx, pid: str, target: str, *, dump_off: bool = False) -> None:
    st = ctx.st
    me = st.players[pid]
    to = pass_target(st, target)
    if st.carrier != pid or me.at is None or me.state != "standing" or to is None:
        return
    frm = me.at
    hail_mary = pass_band(frm, to) is None
    ctx.ev("throw", player=pid, target=target, at=NAMES[to], hail_mary=hail_mary)
    if not hail_mary and not dump_off:
        _pass_block(ctx, me, frm, to)
        if target in st.players:
            to = st.players[target].at or to
    if not hail_mary and _intercept(ctx, me, frm, to):
        if not dump_off:
            ctx.turnover = True
        return
    mods = {} if hail_mary else pass_modifiers(st, me, frm, to)
    result, face = _pass_roll_face(ctx, me, mods, hail_mary)
    if result == "fumble":
        if "Safe Throw" in me.skills and not hail_mary and face != 1:
            # LRB5: "if this player fumbles a pass on any roll other than a natural 1 then he
            # manages to keep hold of the ball instead of suffering a fumble and the team does
            # not suffer a turnover"
            ctx.ev("safe_throw", player=pid, kept=True)
            return
        if not dump_off:
            ctx.turnover = True
        st.carrier = None
        st.ball_at = frm
        bounce(ctx, frm)
        return
    st.carrier = None
    st.ball_at = None
    landing: int | None = to
    if result == "inaccurate":
        landing = _scatter(ctx, to, 3)
    if landing is not None:
        arrive(ctx, landing, accurate=result == "accurate")
    if not dump_off and (st.carrier is None or st.players[st.carrier].team != st.active):
        ctx.turnover = True
