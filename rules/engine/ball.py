"""The ball on the ground and in the air: bounces, catches, throw-ins, a pass's arrival, the
kick-off's bounces and the touchback."""

from __future__ import annotations

from .board import D8, HEIGHT, NAMES, NEIGHBOURS, distance, on_pitch, square, xy
from .context import Ctx, d6_roll
from .core import enemy_tz, in_half
from .state import MatchState, Player, other
from .tables import agility_target


def bounce(ctx: Ctx, frm: int) -> None:
    d = ctx.roll(8)
    dx, dy = D8[d - 1]
    x, y = xy(frm)
    nx, ny = x + dx, y + dy
    ctx.ev(
        "bounce",
        purpose="bounce",
        faces=[d],
        frm=NAMES[frm],
        to=NAMES[square(nx, ny)] if on_pitch(nx, ny) else None,
    )
    if not on_pitch(nx, ny):
        throw_in(ctx, frm)
        return
    _land(ctx, square(nx, ny))


def _land(ctx: Ctx, sq: int) -> None:
    """A bouncing ball arrives on a square: a standing player must try to catch it, else it
    rests (on an empty square) or bounces again."""
    st = ctx.st
    st.carrier = None
    st.ball_at = sq
    pid = st.board.get(sq)
    if pid is None:
        return
    p = st.players[pid]
    if not can_catch(p):
        bounce(ctx, sq)
        return
    catch(ctx, p, accurate=False)


def can_catch(p: Player) -> bool:
    return p.state == "standing" and not p.no_tz and "No Hands" not in p.skills


def disturbing(st: MatchState, sq: int, team: str) -> int:
    """Opposing players with Disturbing Presence within three squares, "even if the
    Disturbing Presence player is Prone or Stunned" (LRB5)."""
    n = 0
    for q in st.players.values():
        if (
            "Disturbing Presence" in q.skills  # (the rare skill first: at every catch and pass)
            and q.team != team
            and q.at is not None
            and distance(q.at, sq) <= 3
        ):
            n += 1
    return n


def catch(
    ctx: Ctx, p: Player, *, accurate: bool, hand_off: bool = False, kickoff: bool = False
) -> bool:
    st = ctx.st
    assert p.at is not None
    mods: dict[str, int] = {}
    if accurate:
        mods["accurate"] = 1
        if "Diving Catch" in p.skills and not hand_off:
            mods["Diving Catch"] = 1
    if "Nerves of Steel" not in p.skills:
        tz = enemy_tz(st, p.at, p.team)
        if tz:
            mods["tackle_zones"] = -tz
    if st.weather == "pouring_rain":
        mods["pouring_rain"] = -1
    if "Extra Arms" in p.skills:
        mods["Extra Arms"] = 1
    dp = disturbing(st, p.at, p.team)
    if dp:
        mods["Disturbing Presence"] = -dp
    ok = d6_roll(ctx, "catch", p, agility_target(p.ag), mods, team_reroll=not kickoff)
    if ok:
        st.carrier = p.id
        st.ball_at = None
        return True
    st.carrier = None
    st.ball_at = p.at
    if kickoff:
        _kick_bounce(ctx, p.at)
    else:
        bounce(ctx, p.at)
    return False


def throw_in(ctx: Ctx, last: int) -> None:
    """The crowd throws the ball back from the last square on the pitch."""
    st = ctx.st
    while True:
        x, y = xy(last)
        d = ctx.roll(6)
        lateral = -1 if d <= 2 else (0 if d <= 4 else 1)
        if y == 0 or y == HEIGHT - 1:
            dx, dy = lateral, (1 if y == 0 else -1)
        else:
            dx, dy = (1 if x == 0 else -1), lateral
        a, b = ctx.roll(6), ctx.roll(6)
        dist = a + b
        cx, cy = x, y
        out = False
        for _ in range(dist):
            if not on_pitch(cx + dx, cy + dy):
                out = True
                break
            cx, cy = cx + dx, cy + dy
        ctx.ev(
            "throw_in",
            purpose="throw_in",
            faces=[d, a, b],
            frm=NAMES[last],
            to=None if out else NAMES[square(cx, cy)],
        )
        if out:
            last = square(cx, cy)
            continue
        st.ball_at = square(cx, cy)
        st.carrier = None
        arrive(ctx, st.ball_at, accurate=False)
        return


def _kick_bounce(ctx: Ctx, frm: int) -> None:
    """A kicked ball bouncing: leaving the pitch or the receiving half is a touchback."""
    st = ctx.st
    d = ctx.roll(8)
    dx, dy = D8[d - 1]
    x, y = xy(frm)
    nx, ny = x + dx, y + dy
    inside = on_pitch(nx, ny) and in_half(other(st.kicking), square(nx, ny))
    ctx.ev(
        "bounce",
        purpose="bounce",
        faces=[d],
        frm=NAMES[frm],
        to=NAMES[square(nx, ny)] if on_pitch(nx, ny) else None,
        kickoff=True,
    )
    if not inside:
        touchback(ctx)
        return
    kick_arrive(ctx, square(nx, ny), bounced=True)


def kick_arrive(ctx: Ctx, sq: int, *, bounced: bool) -> None:
    st = ctx.st
    st.carrier = None
    st.ball_at = sq
    pid = st.board.get(sq)
    if pid is not None and can_catch(st.players[pid]):
        catch(ctx, st.players[pid], accurate=False, kickoff=True)
    elif pid is not None or not bounced:
        _kick_bounce(ctx, sq)


def touchback(ctx: Ctx) -> None:
    """The receiving team's captain gives the ball to one of its players on the pitch."""
    st = ctx.st
    receiving = other(st.kicking)
    st.carrier = None
    st.ball_at = None
    on = sorted(
        (q for q in st.players.values() if q.team == receiving and q.at is not None),
        key=lambda q: (q.number if q.number is not None else 99, q.id),
    )
    catchers = [q.id for q in on if can_catch(q)]
    able = catchers or [q.id for q in on]
    if not able:
        ctx.ev("touchback", team=receiving, player=None)
        return
    choice = str(ctx.ask("touchback", ctx.rs.captain(receiving), able, able[0]))
    ctx.ev("touchback", team=receiving, player=choice)
    if catchers:
        st.carrier = choice
        return
    # Nobody standing (a Pitch Invasion stunned them all): a fallen player cannot hold the
    # ball, which bounces from his square as from any fallen player's (seed 000).
    at = st.players[choice].at
    assert at is not None
    st.ball_at = at
    bounce(ctx, at)


def flush_loose(ctx: Ctx) -> None:
    while ctx.loose:
        sq = ctx.loose.pop(0)
        if ctx.st.carrier is None and ctx.st.ball_at == sq:
            bounce(ctx, sq)


def arrive(ctx: Ctx, sq: int, *, accurate: bool) -> None:
    """A passed or thrown-in ball arrives on a square (not a bounce): a standing player there
    must try to catch it; on an empty square a Diving Catch player next to it tries from its
    own square; otherwise it bounces."""
    st = ctx.st
    st.carrier = None
    st.ball_at = sq
    pid = st.board.get(sq)
    if pid is not None:
        p = st.players[pid]
        if can_catch(p):
            catch(ctx, p, accurate=accurate)
        else:
            bounce(ctx, sq)
        return
    for s in NEIGHBOURS[sq]:
        qid = st.board.get(s)
        if qid is not None:
            q = st.players[qid]
            if "Diving Catch" in q.skills and can_catch(q):
                ctx.ev("diving_catch", player=qid, at=NAMES[sq])
                catch(ctx, q, accurate=False)
                return
    bounce(ctx, sq)
