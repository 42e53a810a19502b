"""Blocking: the block dice and their choice, pushes, follow-ups, the crowd, and Frenzy's
second block."""

from __future__ import annotations

from .ball import flush_loose
from .board import NAMES, NEIGHBOURS, adjacent, on_pitch, parse_square, square
from .board import push_squares as _push_squares
from .context import Ctx, d6_roll, offer_reroll
from .core import assists
from .injury import beaten_by_the_crowd, fall, into_the_crowd
from .moving import need_square
from .passing import dump_off_pass
from .state import Player

_RANK_ATT = {6: 6, 5: 5, 2: 4, 3: 4, 4: 2, 1: 1}


def _face_score(face: int, att: Player, dfn: Player, blitz: bool) -> int:
    """How good a block face is for the attacker (higher is better)."""
    if face == 4:
        ab, db = "Block" in att.skills, "Block" in dfn.skills
        if ab and not db:
            return 5
        if ab or (blitz and "Juggernaut" in att.skills) or "Wrestle" in att.skills:
            return 3
        return 2
    if face == 5 and "Dodge" in dfn.skills and "Tackle" not in att.skills:
        return 4
    return _RANK_ATT[face]


def block(
    ctx: Ctx,
    att_id: str,
    def_id: str,
    *,
    blitz: bool,
    frenzy_second: bool = False,
    multiple: bool = False,
) -> bool:
    """One block. True when the attacker is still up and may go on. ``multiple``: one of the
    two blocks of a Multiple Block (the defender +2 ST, no follow-up)."""
    st = ctx.st
    if not frenzy_second:
        dump_off_pass(ctx, def_id)
    att = st.players[att_id]
    dfn = st.players[def_id]
    assert att.at is not None and dfn.at is not None
    a_st = att.st + (1 if blitz and "Horns" in att.skills else 0)
    d_st = dfn.st + (2 if multiple else 0)
    if (
        "Dauntless" in att.skills
        and a_st < d_st
        and d6_roll(ctx, "dauntless", att, d_st + 1, {"strength": a_st}, agility=False)
    ):
        a_st = d_st
    a_tot = a_st + assists(st, att, dfn, exclude=att_id)
    d_tot = d_st + assists(st, dfn, att, exclude=def_id)
    if a_tot == d_tot:
        n, chooser = 1, att
    elif a_tot > d_tot:
        n, chooser = (3 if a_tot > 2 * d_tot else 2), att
    else:
        n, chooser = (3 if d_tot > 2 * a_tot else 2), dfn
    rerolled = False
    while True:
        faces = [ctx.roll(6) for _ in range(n)]
        scores = [_face_score(f, att, dfn, blitz) for f in faces]
        picked = max(scores) if chooser is att else min(scores)
        if ctx.record:
            ctx.ev(
                "block",
                purpose="block",
                player=att_id,
                target=def_id,
                faces=faces,
                strength={"attacker": a_tot, "defender": d_tot},
                chooser=chooser.id,
                reroll=rerolled,
                attacker_down=picked <= 2,  # on the chooser's best face (a standing order reads it)
            )
        # a reroll re-rolls the block dice whatever they show (seed 000: "incluso si la
        # tirada fue exitosa"); not asked when the attacker may already pick Defender Down
        best = chooser is att and 6 in faces
        if best or rerolled or not offer_reroll(ctx, st.players[att_id], "block"):
            break
        rerolled = True
    options = sorted(set(faces))
    if len({2 if f == 3 else f for f in options}) == 1:  # 2 and 3 are both Pushed
        face = options[0]
    else:
        default = faces[scores.index(picked)]  # the chooser's first best face
        face = int(ctx.ask("block_die", ctx.decider(chooser), options, default))
    if ctx.record:
        ctx.ev("block_result", player=att_id, target=def_id, face=face)
    att = st.players[att_id]
    dfn = st.players[def_id]
    jug = blitz and "Juggernaut" in att.skills
    if face == 1:
        fall(ctx, [att_id], by=dfn)
        return False
    if face == 4:
        ab, db = "Block" in att.skills, "Block" in dfn.skills
        if jug and not (ab and not db):
            face = 2
        else:
            att_down, def_down = not ab, not db
            # a Wrestle owner may wrestle instead, at his coach's choice, the attacker's
            # first; not asked when he alone would stay up (wrestling could only lose), and
            # Juggernaut forbids the target's Wrestle
            for q, down, other_down in ((att, att_down, def_down), (dfn, def_down, att_down)):
                if (
                    "Wrestle" in q.skills
                    and (down or not other_down)
                    and not (q is dfn and jug)
                    and ctx.ask("wrestle", ctx.decider(q), [True, False], True)
                ):
                    ctx.ev("wrestle", player=q.id)
                    fall(ctx, [def_id, att_id], place_only=True)
                    return False
            if def_down:
                fall(ctx, [def_id], by=att, pile=True)
            if att_down:
                fall(ctx, [att_id], by=dfn)
            return not att_down and st.players[att_id].state == "standing"
    knock = face == 6 or (face == 5 and not ("Dodge" in dfn.skills and "Tackle" not in att.skills))
    return _push_and_follow(
        ctx,
        att_id,
        def_id,
        knock=knock,
        blitz=blitz,
        frenzy_second=frenzy_second or multiple,
        follow=not multiple,
    )


def _push_targets(
    ctx: Ctx, frm: int, victim: Player, *, chooser_free: bool
) -> tuple[list[int], bool]:
    """(squares to choose from, crowd?)."""
    st = ctx.st
    assert victim.at is not None
    if chooser_free:
        free = [s for s in NEIGHBOURS[victim.at] if s not in st.board]
        if free:
            return free, False
    cand = _push_squares(frm, victim.at)
    on = [square(x, y) for x, y in cand if on_pitch(x, y)]
    empty = [s for s in on if s not in st.board]
    if empty:
        return empty, False
    if len(on) < len(cand):
        return [], True
    # every square away is occupied: any of them, a Stand Firm player's too (then neither
    # player moves)
    return on, False


def push(
    ctx: Ctx, frm: int, victim_id: str, decider: str, *, first: bool, att: Player, blitz: bool
) -> tuple[int | None, bool]:
    """Push ``victim`` away from ``frm``. Returns (square it left, moved?); square None and
    moved True means pushed into the crowd."""
    st = ctx.st
    victim = st.players[victim_id]
    assert victim.at is not None
    v = victim.at
    jug = first and blitz and "Juggernaut" in att.skills
    if "Stand Firm" in victim.skills and not jug:
        ctx.ev("stand_firm", player=victim_id)
        return v, False
    if victim.rooted:  # Take Root: "may not ... be pushed back for any reason"
        ctx.ev("stand_firm", player=victim_id, rooted=True)
        return v, False
    grab = first and "Grab" in att.skills
    side_step = "Side Step" in victim.skills
    if grab and side_step:  # they cancel on a Block or a Blitz alike
        grab = side_step = False
    grab = grab and not blitz  # Grab itself works only on a Block
    chooser = decider
    if side_step:
        chooser = ctx.decider(victim)
    opts, crowd = _push_targets(ctx, frm, victim, chooser_free=grab or side_step)
    if crowd:
        ctx.ev("push", player=victim_id, frm=NAMES[v], to=None, crowd=True)
        ctx.crowd.append((victim_id, into_the_crowd(ctx, victim_id)))
        return v, True
    if len(opts) == 1:
        to = opts[0]
    else:
        names = [NAMES[s] for s in opts]
        to = parse_square(str(ctx.ask("push", chooser, names, names[0])))
    occupant = st.board.get(to)
    if occupant is not None:
        _, moved = push(ctx, v, occupant, decider, first=False, att=att, blitz=blitz)
        if not moved:
            return v, False
    ctx.place(victim_id, to)
    if ctx.record:
        ctx.ev("push", player=victim_id, frm=NAMES[v], to=NAMES[to], crowd=False)
    if st.carrier is None and st.ball_at == to:
        ctx.loose.append(to)
    return v, True


def _push_and_follow(
    ctx: Ctx,
    att_id: str,
    def_id: str,
    *,
    knock: bool,
    blitz: bool,
    frenzy_second: bool,
    follow: bool = True,
) -> bool:
    st = ctx.st
    att = st.players[att_id]
    assert att.at is not None
    vacated, moved = push(ctx, att.at, def_id, ctx.decider(att), first=True, att=att, blitz=blitz)
    dfn = st.players[def_id]
    crowd = dfn.at is None
    if follow and moved and vacated is not None and not att.rooted:
        fend = "Fend" in dfn.skills and not (blitz and "Juggernaut" in att.skills)
        if fend:  # Fend stops even a Frenzy follow-up
            follow = False
        elif "Frenzy" in att.skills or "Ball & Chain" in att.skills:
            follow = True
        else:
            follow = bool(ctx.ask("follow_up", ctx.decider(att), [True, False], False))
        if follow:
            ctx.place(att_id, vacated)
            ctx.ev("follow_up", player=att_id, to=NAMES[vacated])
    dfn = st.players[def_id]
    if not crowd and dfn.at is not None:
        if knock:
            fall(ctx, [def_id], by=st.players[att_id], pile=True)
        elif (
            st.carrier == def_id
            and moved
            and "Strip Ball" in st.players[att_id].skills
            and "Sure Hands" not in dfn.skills
        ):
            st.carrier = None
            st.ball_at = dfn.at
            ctx.ev("strip_ball", player=def_id, at=NAMES[dfn.at])
            ctx.loose.append(dfn.at)
    while ctx.crowd:
        beaten_by_the_crowd(ctx, *ctx.crowd.pop(0))
    flush_loose(ctx)
    att = st.players[att_id]
    if att.state != "standing" or ctx.turnover:
        return False
    dfn = st.players[def_id]
    if (
        "Frenzy" in att.skills
        and not frenzy_second
        and "Ball & Chain" not in att.skills
        and dfn.state == "standing"
        and dfn.at is not None
        and att.at is not None
        and adjacent(att.at, dfn.at)
    ):
        return _second_block(ctx, att_id, def_id, blitz)
    return True


def _second_block(ctx: Ctx, att_id: str, def_id: str, blitz: bool) -> bool:
    """Frenzy: the second block (on a Blitz it costs a square of movement)."""
    if blitz and ctx.mover is not None:
        paid = need_square(ctx, ctx.mover)
        if paid == "fell":
            fall(ctx, [att_id])
        if paid != "ok":
            return False
    return block(ctx, att_id, def_id, blitz=blitz, frenzy_second=True)
