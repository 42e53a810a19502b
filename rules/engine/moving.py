"""Moving: the movement allowance and Going For It, dodging and the skills of tackle zones
(Tentacles, Shadowing, Diving Tackle), picking up the ball, standing up."""

from __future__ import annotations

from .actions import Event
from .ball import bounce
from .board import NAMES, adjacent, distance
from .context import Ctx, Mover, d6_roll
from .core import enemy_tz, gfi_limit, tz_players
from .injury import fall
from .state import Player
from .tables import agility_target


def need_square(ctx: Ctx, mv: Mover) -> str:
    """Pay one square of movement, rolling Going For It past MA: ``ok``, ``none`` (no
    movement left) or ``fell`` (the Going For It failed)."""
    p = ctx.st.players[mv.pid]
    if mv.used < p.ma:
        mv.used += 1
        return "ok"
    if mv.gfi >= gfi_limit(p):
        return "none"
    mv.gfi += 1
    mv.used += 1
    target = 3 if ctx.st.weather == "blizzard" else 2
    return "ok" if d6_roll(ctx, "gfi", p, target, {}, agility=False) else "fell"


def _step(ctx: Ctx, mv: Mover, sq: int) -> bool:
    """One square entered: GFI, dodge, pick-up. False when the action stops."""
    st = ctx.st
    p = st.players[mv.pid]
    frm = p.at
    assert frm is not None
    adj = adjacent(frm, sq)
    leap = not adj and "Leap" in p.skills and not mv.leapt and distance(frm, sq) == 2
    if sq in st.board or not (leap or adj) or p.rooted:
        return False
    paid = need_square(ctx, mv)
    if paid == "ok" and leap:  # a Leap costs two squares
        paid = need_square(ctx, mv)
    if paid != "ok":
        if paid == "fell":
            ctx.place(mv.pid, sq)
            fall(ctx, [mv.pid])
        return False
    tackled = tz_players(st, frm, p.team)
    if tackled and _held_by_tentacles(ctx, p, tackled):
        return False
    tails = sum(1 for q in tackled if "Prehensile Tail" in q.skills) if tackled else 0
    if leap:
        mv.leapt = True
        mods = {"leap": 0}
        if "Very Long Legs" in p.skills:  # LRB5 Leap: "No modifiers apply to this D6 roll
            mods["Very Long Legs"] = 1  # unless he has Very Long Legs" (no Prehensile Tail)
        ok = d6_roll(ctx, "leap", p, agility_target(p.ag), mods, frm=NAMES[frm], to=NAMES[sq])
        ctx.place(mv.pid, sq)
        if not ok:
            fall(ctx, [mv.pid])
            return False
        _after_dodge(ctx, p, tackled, frm)
    elif tackled:
        mods = {"dodge": 1}
        if "Stunty" not in p.skills:
            # the player's own square is left: its tackle zones on the target still count;
            # a Titchy opponent gives no -1 to a player dodging into its tackle zone
            tz = sum(1 for q in tz_players(st, sq, p.team) if "Titchy" not in q.skills)
            if tz:
                mods["tackle_zones"] = -tz
        if "Two Heads" in p.skills:
            mods["Two Heads"] = 1
        if "Titchy" in p.skills:
            mods["Titchy"] = 1
        if tails:
            mods["Prehensile Tail"] = -tails
        diver = next((q.id for q in tackled if "Diving Tackle" in q.skills), None)
        ctx.dived = False
        no_dodge = any("Tackle" in q.skills for q in tackled)
        ok = d6_roll(
            ctx,
            "dodge",
            p,
            agility_target(p.ag),
            mods,
            skill_reroll=not no_dodge,
            diving_tackle=diver,
            alt=(
                ("Break Tackle", agility_target(p.st))
                if "Break Tackle" in p.skills and p.st > p.ag
                else None
            ),
            frm=NAMES[frm],
            to=NAMES[sq],
        )
        ctx.place(mv.pid, sq)
        dived = ctx.dived
        if dived and diver is not None:
            ctx.place(diver, frm)
            fall(ctx, [diver], place_only=True)
        if not ok:
            fall(ctx, [mv.pid])
            return False
        if not dived:
            _after_dodge(ctx, st.players[mv.pid], tackled, frm)
    else:
        ctx.place(mv.pid, sq)
    if ctx.record:
        ctx.events.append(Event("move", {"player": mv.pid, "frm": NAMES[frm], "to": NAMES[sq]}))
    if st.carrier is None and st.ball_at == sq:
        return pick_up(ctx, st.players[mv.pid], sq)
    return True


def _stopped_by(
    ctx: Ctx, skill: str, q: Player, p: Player, modifiers: dict[str, int], limit: int, word: str
) -> bool:
    """Tentacles and Shadowing: 2D6 plus the mover's edge; ``limit`` or less and ``q`` wins."""
    a, b = ctx.roll(6), ctx.roll(6)
    total = a + b + sum(modifiers.values())
    won = total <= limit
    ctx.ev(
        skill,
        purpose=skill,
        player=q.id,
        target_player=p.id,
        faces=[a, b],
        modifiers=modifiers,
        total=total,
        result=word if won else "escaped",
    )
    return won


def _held_by_tentacles(ctx: Ctx, p: Player, tackled: list[Player]) -> bool:
    """Tentacles: 2D6 + the mover's ST - the Tentacles player's ST, 5 or less holds it."""
    if not any("Tentacles" in q.skills for q in tackled):
        return False
    for q in tackled:
        if "Tentacles" not in q.skills:
            continue
        if _stopped_by(ctx, "tentacles", q, p, {"strength": p.st - q.st}, 5, "held"):
            return True
    return False


def _after_dodge(ctx: Ctx, p: Player, tackled: list[Player], frm: int) -> None:
    """Shadowing: one shadower may follow into the vacated square (2D6 + the mover's MA - its
    MA, 7 or less)."""
    st = ctx.st
    for q in tackled:
        if "Shadowing" not in q.skills or frm in st.board or st.players[q.id].state != "standing":
            continue
        if _stopped_by(ctx, "shadowing", q, p, {"movement": p.ma - q.ma}, 7, "follows"):
            ctx.place(q.id, frm)
            if st.carrier is None and st.ball_at == frm:
                bounce(ctx, frm)
        return


def pick_up(ctx: Ctx, p: Player, sq: int) -> bool:
    st = ctx.st
    if "No Hands" in p.skills:
        ctx.turnover = True
        bounce(ctx, sq)
        return False
    mods = {"pick_up": 1}
    big_hand = "Big Hand" in p.skills
    tz = 0 if big_hand else enemy_tz(st, sq, p.team)
    if tz:
        mods["tackle_zones"] = -tz
    if st.weather == "pouring_rain" and not big_hand:
        mods["pouring_rain"] = -1
    if "Extra Arms" in p.skills:
        mods["Extra Arms"] = 1
    if d6_roll(ctx, "pickup", p, agility_target(p.ag), mods):
        st.carrier = p.id
        st.ball_at = None
        return True
    ctx.turnover = True
    bounce(ctx, sq)
    return False


def walk(ctx: Ctx, mv: Mover, squares: list[int]) -> bool:
    for sq in squares:
        if ctx.turnover or not _step(ctx, mv, sq):
            return False
    return not ctx.turnover


def stand_up(ctx: Ctx, mv: Mover) -> bool:
    p = ctx.st.players[mv.pid]
    if p.state != "prone":
        return True
    if "Jump Up" in p.skills:
        ctx.mp(mv.pid).state = "standing"
        ctx.ev("stand_up", player=mv.pid, faces=[], result="success", jump_up=True)
        return True
    if p.ma >= 3:
        mv.used = 3
        ctx.mp(mv.pid).state = "standing"
        if ctx.record:
            ctx.ev("stand_up", player=mv.pid, faces=[], result="success")
        return True
    ok = d6_roll(ctx, "stand_up", p, 4, {}, agility=False)
    if ok:
        ctx.mp(mv.pid).state = "standing"
        mv.used = p.ma
    return ok
