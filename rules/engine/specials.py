"""Part 3: the skills and traits that replace or add to an action (Chainsaw, Stab, Multiple
Block, Foul Appearance, Jump Up, Ball & Chain, Bombardier, Hypnotic Gaze, Blood Lust) and the
Secret Weapon's sending-off at the end of a drive.

Every function runs inside one resolution with its ``Ctx`` (see context.py): dice are read
from the stream and decisions asked exactly as in the rest of the engine."""

from __future__ import annotations

from .actions import Declaration
from .ball import flush_loose
from .blocking import block, push
from .board import NAMES, NEIGHBOURS, adjacent, on_pitch, square, xy
from .context import Ctx, Mover, d6_roll
from .core import enemy_tz
from .injury import (
    UNDEAD_RACES,
    armour,
    beaten_by_the_crowd,
    bribed,
    fall,
    into_the_crowd,
    off_pitch,
    roll_injury,
)
from .moving import need_square, pick_up
from .passing import pass_modifiers, pass_roll, scatter_player
from .state import Player
from .tables import agility_target

# Ball & Chain: the throw-in template facing a direction; D6 1-2 one side, 3-4 straight on,
# 5-6 the other side (the lateral step is -1, 0, +1 on the other axis).
_FACING = {"A": (-1, 0), "Z": (1, 0), "1": (0, -1), "15": (0, 1)}


# ------------------------------------------------------------------------------------------
# The block of a Block or Blitz action and what replaces it


def attack(ctx: Ctx, pid: str, decl: Declaration) -> bool:
    """The block of a Block or Blitz (or the Stab or Chainsaw attack that replaces it, or the
    two blocks of a Multiple Block). True when the attacker is still up and may go on."""
    assert decl.target is not None
    targets = [decl.target] if decl.target2 is None else [decl.target, decl.target2]
    blitz = decl.action == "blitz"
    ok = True
    for n, tid in enumerate(targets):
        st = ctx.st
        me = st.players[pid]
        tgt = st.players[tid]
        if n > 0 and (
            ctx.turnover
            or me.state != "standing"
            or me.at is None
            or tgt.at is None
            or tgt.state != "standing"
            or not adjacent(me.at, tgt.at)
        ):
            return False
        if not _foul_appearance(ctx, me, tgt):
            ok = False
            continue
        if "Chainsaw" in me.skills:
            ok = _chainsaw(ctx, pid, tid)
        elif decl.stab:
            _stab(ctx, pid, tid)
            ok = True
        else:
            ok = block(ctx, pid, tid, blitz=blitz, multiple=decl.target2 is not None)
    return ok and not ctx.turnover


def _foul_appearance(ctx: Ctx, me: Player, tgt: Player) -> bool:
    """Foul Appearance: D6 2+ before blocking (or stabbing) the player, else the block is
    wasted (no turnover)."""
    if "Foul Appearance" not in tgt.skills:
        return True
    ok = d6_roll(ctx, "foul_appearance", me, 2, {}, agility=False, target_player=tgt.id)
    if not ok:
        ctx.ev("block_wasted", player=me.id, target=tgt.id)
    return ok


def _armour_only(ctx: Ctx, pid: str, mods: dict[str, int], purpose: str) -> bool:
    """A bare armour roll (Stab, Chainsaw): 2D6 + modifiers must beat AV."""
    p = ctx.st.players[pid]
    a, b = ctx.roll(6), ctx.roll(6)
    total = a + b + sum(mods.values())
    ok = total > p.av
    ctx.ev(
        "armour",
        purpose="armour",
        player=pid,
        target=p.av + 1,
        modifiers=dict(mods),
        faces=[a, b],
        total=total,
        result="broken" if ok else "holds",
        by=purpose,
    )
    return ok


def _drop_ball(ctx: Ctx, p: Player) -> None:
    st = ctx.st
    if st.carrier == p.id and p.at is not None:
        st.carrier = None
        st.ball_at = p.at
        ctx.loose.append(p.at)
        if p.team == st.active:
            ctx.turnover = True


def _stab(ctx: Ctx, pid: str, tid: str) -> None:
    """Stab: an unmodified armour roll (Stakes +1 against Khemri, Necromantic, Undead and
    Vampire players); broken, an unmodified injury roll. No block, no knock-down."""
    st = ctx.st
    me = st.players[pid]
    tgt = st.players[tid]
    mods: dict[str, int] = {}
    if "Stakes" in me.skills and st.teams[tgt.team].race in UNDEAD_RACES:
        mods["Stakes"] = 1
    ctx.ev("stab", player=pid, target=tid)
    if not _armour_only(ctx, tid, mods, "Stab"):
        return
    _drop_ball(ctx, tgt)
    ctx.hit_by = None
    roll_injury(ctx, tid, {})


def chainsaw_start(ctx: Ctx, me: Player) -> bool:
    """Chainsaw: D6, 1 kicks back (an armour roll +3 against the wielder). True on 2+."""
    if d6_roll(ctx, "chainsaw", me, 2, {}, agility=False):
        return True
    ctx.ev("kickback", player=me.id)
    if _armour_only(ctx, me.id, {"Chainsaw": 3}, "Chainsaw"):
        _knock_down_injured(ctx, me.id)
    return False


def _chainsaw(ctx: Ctx, pid: str, tid: str) -> bool:
    """A chainsaw attack instead of a block: 2+ an armour roll +3 on the target, knocked down
    only when it breaks."""
    me = ctx.st.players[pid]
    ctx.ev("chainsaw_attack", player=pid, target=tid)
    if not chainsaw_start(ctx, me):
        return False
    if _armour_only(ctx, tid, {"Chainsaw": 3}, "Chainsaw"):
        _knock_down_injured(ctx, tid, by=pid)
    return ctx.st.players[pid].state == "standing"


def _knock_down_injured(ctx: Ctx, pid: str, by: str | None = None) -> None:
    """Knocked down after an armour roll that already broke: prone, drop the ball, injury."""
    st = ctx.st
    p = ctx.mp(pid)
    if p.at is None:
        return
    p.state = "prone"
    p.rooted = False
    ctx.ev("knocked_down", player=pid, at=NAMES[p.at])
    _drop_ball(ctx, p)
    if p.team == st.active:
        ctx.turnover = True
    ctx.hit_by = by
    roll_injury(ctx, pid, {})


def jump_up_block(ctx: Ctx, me: Player) -> bool:
    """Jump Up: a prone player declaring a Block stands up with an AG roll +2; failing, it
    stays prone and the action ends (no turnover)."""
    if not d6_roll(ctx, "jump_up", me, agility_target(me.ag), {"Jump Up": 2}):
        return False
    ctx.mp(me.id).state = "standing"
    return True


# ------------------------------------------------------------------------------------------
# Hypnotic Gaze and Blood Lust


def hypnotic_gaze(ctx: Ctx, pid: str, tid: str) -> None:
    """At the end of its move: an AG roll, -1 per opposing tackle zone on the gazer other than
    the victim's; the victim loses its tackle zone until its next action."""
    st = ctx.st
    me = st.players[pid]
    tgt = st.players[tid]
    if (
        me.state != "standing"
        or me.at is None
        or tgt.at is None
        or tgt.state != "standing"
        or not adjacent(me.at, tgt.at)
    ):
        return
    mods: dict[str, int] = {}
    tz = enemy_tz(st, me.at, me.team, ignore=tid)
    if tz:
        mods["tackle_zones"] = -tz
    if d6_roll(ctx, "hypnotic_gaze", me, agility_target(me.ag), mods, target_player=tid):
        ctx.mp(tid).no_tz = True
        ctx.ev("hypnotised", player=tid, by=pid)


def feed(ctx: Ctx) -> bool:
    """Blood Lust: the Vampire bites an adjacent Thrall team-mate (an injury roll, a casualty
    counting as Badly Hurt), or it is a turnover and the Vampire goes to the reserves. True
    when it bit."""
    st = ctx.st
    pid = ctx.feed
    ctx.feed = None
    if pid is None:
        return True
    me = st.players[pid]
    if me.at is None:
        return False
    if me.state == "standing":
        thralls = sorted(
            st.board[s]
            for s in NEIGHBOURS[me.at]
            if s in st.board
            and st.players[st.board[s]].team == me.team
            and "Blood Lust" not in st.players[st.board[s]].skills
        )
        if thralls:
            bitten = thralls[0]
            if len(thralls) > 1:
                bitten = str(ctx.ask("blood_lust", ctx.decider(me), thralls, thralls[0]))
            ctx.ev("bite", player=pid, target=bitten)
            thrall = st.players[bitten]
            _drop_ball(ctx, thrall)
            ctx.hit_by = None
            roll_injury(ctx, bitten, {}, bite=True)
            return True
    ctx.ev("feeds_on_spectator", player=pid)
    ctx.turnover = True
    off_pitch(ctx, pid, "reserves")
    return False


# ------------------------------------------------------------------------------------------
# Ball & Chain


def ball_and_chain(ctx: Ctx, mv: Mover, facings: tuple[str, ...]) -> None:
    """Its only action is a Move: for each square the template's facing (the declaration's
    ``facings``, by default all its MA towards the opposing end zone) and a D6 give the
    direction; a standing player in the way is blocked (a forced follow-up), a prone one
    pushed and its armour rolled; off the pitch, the crowd."""
    st = ctx.st
    me = st.players[mv.pid]
    if not facings:
        facings = ("Z" if me.team == "home" else "A",) * max(me.ma - mv.used, 0)
    for facing in facings:
        me = st.players[mv.pid]
        if ctx.turnover or me.at is None or me.state != "standing":
            return
        paid = need_square(ctx, mv)
        if paid == "fell":
            fall(ctx, [mv.pid])
        if paid != "ok":
            return
        fx, fy = _FACING[facing]
        d = ctx.roll(6)
        lateral = -1 if d <= 2 else (0 if d <= 4 else 1)
        dx, dy = (fx, lateral) if fx else (lateral, fy)
        x, y = xy(me.at)
        nx, ny = x + dx, y + dy
        out = not on_pitch(nx, ny)
        to = None if out else square(nx, ny)
        ctx.ev(
            "ball_and_chain",
            purpose="ball_and_chain",
            player=mv.pid,
            faces=[d],
            facing=facing,
            frm=NAMES[me.at],
            to=None if to is None else NAMES[to],
        )
        if to is None:
            ctx.ev("push", player=mv.pid, frm=NAMES[me.at], to=None, crowd=True)
            ball_from = into_the_crowd(ctx, mv.pid)
            ctx.hit_by = None
            beaten_by_the_crowd(ctx, mv.pid, ball_from)
            flush_loose(ctx)
            return
        occupant = st.board.get(to)
        if occupant is None:
            frm = me.at
            ctx.place(mv.pid, to)
            ctx.ev("move", player=mv.pid, frm=NAMES[frm], to=NAMES[to])
            if st.carrier is None and st.ball_at == to and not pick_up(ctx, me, to):
                return
            continue
        if st.players[occupant].state == "standing":
            if not block(ctx, mv.pid, occupant, blitz=False):
                return
            continue
        _push_prone(ctx, mv.pid, occupant)


def _push_prone(ctx: Ctx, pid: str, occupant: str) -> None:
    """A Ball & Chain player moving into a prone or stunned player pushes it back, follows
    and rolls its armour."""
    st = ctx.st
    me = st.players[pid]
    assert me.at is not None
    vacated, moved = push(ctx, me.at, occupant, ctx.decider(me), first=True, att=me, blitz=False)
    if moved and vacated is not None and st.players[occupant].at != vacated:
        ctx.place(pid, vacated)
        ctx.ev("follow_up", player=pid, to=NAMES[vacated])
    while ctx.crowd:
        ctx.hit_by = None
        beaten_by_the_crowd(ctx, *ctx.crowd.pop(0))
    if st.players[occupant].at is not None:
        armour(ctx, occupant, me)
    flush_loose(ctx)


# ------------------------------------------------------------------------------------------
# Bombardier


def bomb(ctx: Ctx, pid: str, to: int) -> None:
    """A bomb thrown like a Quick or Short pass (no interception nor catch in bbweb): it
    explodes where it lands, on the thrower's square when fumbled; a bomb leaving the pitch is
    lost. The player in the square is hit, each adjacent player (the moving team first, by
    number) on a D6 4+; standing players hit are knocked down, the others take an armour
    roll."""
    st = ctx.st
    me = st.players[pid]
    if me.at is None or me.state != "standing":
        return
    frm = me.at
    ctx.ev("bomb", player=pid, at=NAMES[to])
    result = pass_roll(ctx, me, pass_modifiers(st, me, frm, to), False)
    landing: int | None
    if result == "fumble":
        landing = frm
    elif result == "accurate":
        landing = to
    else:
        landing = scatter_player(ctx, to, 3)
    if landing is None:
        ctx.ev("explosion", at=None)
        return
    _explode(ctx, landing)


def _explode(ctx: Ctx, sq: int) -> None:
    st = ctx.st
    ctx.ev("explosion", at=NAMES[sq])
    hit: list[str] = []
    if sq in st.board:
        hit.append(st.board[sq])
    around = sorted(
        (st.players[st.board[s]] for s in NEIGHBOURS[sq] if s in st.board),
        key=lambda q: (q.team != st.active, q.number if q.number is not None else 99, q.id),
    )
    for q in around:
        face = ctx.roll(6)
        ok = face >= 4
        ctx.ev(
            "bomb_hit",
            purpose="bomb_hit",
            player=q.id,
            target=4,
            modifiers={},
            faces=[face],
            result="hit" if ok else "missed",
        )
        if ok:
            hit.append(q.id)
    for qid in hit:
        q = st.players[qid]
        if q.at is None:
            continue
        if q.state == "standing":
            fall(ctx, [qid])
        else:
            armour(ctx, qid, None)
    flush_loose(ctx)


# ------------------------------------------------------------------------------------------
# Secret weapons


def send_off_secret_weapons(ctx: Ctx) -> None:
    """The end of a drive: every Secret Weapon player who played in it is sent off (home
    first, by number), unless a bribe works or the referee is gone (Get the Ref)."""
    st = ctx.st
    armed = [p for p in st.players.values() if "Secret Weapon" in p.skills]
    for p in sorted(
        armed, key=lambda p: (p.team != "home", p.number if p.number is not None else 99, p.id)
    ):
        if not (p.played or p.at is not None) or p.state in ("casualty", "sent_off"):
            continue
        ctx.ev("secret_weapon", player=p.id)
        if st.ref_gone:
            ctx.ev("not_seen", player=p.id, reason="get_the_ref")
            continue
        if bribed(ctx, p):
            continue
        if st.carrier == p.id:
            st.carrier = None
        ctx.place(p.id, None)
        mp = ctx.mp(p.id)
        mp.state = "sent_off"
        ctx.ev("sent_off", player=p.id, secret_weapon=True)
