"""The Foul action: assists, the armour roll, the referee, and the sending-off."""

from __future__ import annotations

from . import specials
from .ball import bounce
from .board import adjacent
from .context import Ctx
from .core import assists
from .injury import armour, bribed, off_pitch


def foul(ctx: Ctx, pid: str, target: str) -> None:
    st = ctx.st
    me = st.players[pid]
    tgt = st.players[target]
    if (
        tgt.at is None
        or me.at is None
        or not adjacent(me.at, tgt.at)
        or tgt.state not in ("prone", "stunned")
    ):
        return
    plus = assists(st, me, tgt, exclude=pid)
    minus = assists(st, tgt, me, exclude=target)
    mods = {}
    if plus:
        mods["assists"] = plus
    if minus:
        mods["defensive_assists"] = -minus
    ctx.ev("foul", player=pid, target=target)
    if "Chainsaw" in me.skills:
        if not specials.chainsaw_start(ctx, me):
            return
        mods["Chainsaw"] = 3
    seen = armour(ctx, target, None, foul_mods=mods, fouler=me)
    if seen and st.ref_gone:
        ctx.ev("not_seen", player=pid, reason="get_the_ref")
    elif seen and not bribed(ctx, st.players[pid]):
        ctx.ev("sent_off", player=pid)
        ctx.turnover = True
        me = st.players[pid]
        had_ball = st.carrier == pid
        sq = me.at
        off_pitch(ctx, pid, "sent_off")
        if had_ball and sq is not None:
            ctx.loose.clear()
            bounce(ctx, sq)
