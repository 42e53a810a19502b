"""Knock-downs, armour, injury and casualties (the apothecary, Regeneration, the
Necromancer's raising, Piling On), players leaving the pitch, and the bribe that cancels a
sending-off."""

from __future__ import annotations

from .ball import bounce, throw_in
from .board import NAMES, adjacent
from .context import Ctx, plain_d6
from .state import Player, other
from .tables import CASUALTY, SEVERITY, injury_result


def fall(
    ctx: Ctx,
    pids: list[str],
    *,
    by: Player | None = None,
    place_only: bool = False,
    pile: bool = False,
) -> None:
    """Knock players down (in the given order: defender before attacker), then roll armour
    and injury for each, then bounce a dropped ball. ``place_only``: placed prone (Wrestle),
    no armour roll. ``pile``: knocked down by ``by``'s block (Piling On may follow). A Ball &
    Chain player knocked down or placed prone takes an injury roll instead of armour."""
    st = ctx.st
    dropped: int | None = None
    for pid in pids:
        p = ctx.mp(pid)
        if p.at is None:
            continue
        p.state = "prone"
        p.rooted = False
        if ctx.record:
            ctx.ev("knocked_down" if not place_only else "placed_prone", player=pid, at=NAMES[p.at])
        if st.carrier == pid:
            dropped = p.at
            st.carrier = None
            st.ball_at = p.at
            if p.team == st.active:
                ctx.turnover = True
        elif st.carrier is None and st.ball_at == p.at:
            ctx.loose.append(p.at)  # fallen on a loose ball: it bounces (seed 000)
        if p.team == st.active and not place_only:
            ctx.turnover = True
        if "Ball & Chain" in p.skills:
            ctx.hit_by = None
            roll_injury(ctx, pid, {})
        elif not place_only:
            armour(ctx, pid, by, pile=pile)
    if dropped is not None:
        bounce(ctx, dropped)


def armour(
    ctx: Ctx,
    pid: str,
    by: Player | None,
    *,
    foul_mods: dict[str, int] | None = None,
    fouler: Player | None = None,
    pile: bool = False,
) -> bool:
    """Armour (and injury if broken). Returns True when the fouler is seen by the referee.
    ``pile``: ``by`` may Pile On (re-roll the armour or the injury roll)."""
    p = ctx.st.players[pid]
    piler = by if pile and _may_pile_on(ctx, by, p) else None
    a, b = ctx.roll(6), ctx.roll(6)
    mods = dict(foul_mods or {})
    if "Chainsaw" in p.skills:
        mods["Chainsaw"] = 3
    base = a + b + sum(mods.values())
    claw = by is not None and "Claw/Claws" in by.skills
    bonus_skill = None
    if by is not None and "Mighty Blow" in by.skills:
        bonus_skill = "Mighty Blow"
    if fouler is not None and "Dirty Player" in fouler.skills:
        bonus_skill = "Dirty Player"

    def broken(total: int) -> bool:
        return total > p.av or (claw and total >= 8)

    bonus_on_injury = False
    if broken(base):
        bonus_on_injury = bonus_skill is not None
    elif bonus_skill is not None and broken(base + 1):
        mods[bonus_skill] = 1
        base += 1
    ok = broken(base)
    if ctx.record:
        ctx.ev(
            "armour",
            purpose="armour",
            player=pid,
            target=p.av + 1,
            modifiers=mods,
            faces=[a, b],
            total=base,
            result="broken" if ok else "holds",
            claw=claw,
        )
    if not ok and piler is not None and _pile_on(ctx, piler, pid, "armour"):
        return armour(ctx, pid, by, foul_mods=foul_mods, fouler=fouler)
    seen = fouler is not None and a == b and not ("Sneaky Git" in fouler.skills and not ok)
    if ok:
        inj_mods = {bonus_skill: 1} if bonus_on_injury and bonus_skill else {}
        src = fouler if fouler is not None else by
        ctx.hit_by = None if src is None else src.id
        double = roll_injury(ctx, pid, inj_mods, piler=piler)
        seen = seen or (fouler is not None and double)
    return seen


def roll_injury(
    ctx: Ctx,
    pid: str,
    mods: dict[str, int],
    *,
    crowd: bool = False,
    piler: Player | None = None,
    bite: bool = False,
) -> bool:
    """Injury roll and its consequences; returns whether the two dice were a double.
    ``piler``: a Piling On player who may re-roll a stunned or KO result; ``bite``: a Vampire's
    bite (a casualty counts as Badly Hurt)."""
    st = ctx.st
    p = ctx.mp(pid)
    a, b, result = _injury_roll(ctx, p, mods, crowd)
    if piler is not None and result in ("stunned", "ko") and _pile_on(ctx, piler, pid, "injury"):
        a, b, result = _injury_roll(ctx, p, mods, crowd)
    team = st.teams[p.team]
    if result == "stunned":
        if crowd:
            p.state = "reserves"
        else:
            p.state = "stunned"
            p.stunned_now = p.team == st.active
        return a == b
    if result == "ko":
        sq = p.at
        off_pitch(ctx, pid, "ko")
        if _apothecary(ctx, p) and ctx.ask(
            "apothecary", ctx.rs.captain(p.team), [True, False], False
        ):
            team.apothecary -= 1
            ctx.ev("apothecary", player=pid, injury="ko")
            p = ctx.mp(pid)
            if crowd or sq is None:
                p.state = "reserves"
            else:
                ctx.place(pid, sq)
                p.state = "stunned"
                p.stunned_now = p.team == st.active
        return a == b
    if result == "badly_hurt" or bite:
        cas = "badly_hurt"
        ctx.ev("casualty", player=pid, faces=[], result=cas, stunty=result == "badly_hurt")
    else:
        cas = _casualty_roll(ctx, pid)
    also: str | None = None
    if "Decay" in p.skills and result != "badly_hurt" and not bite:
        also = _casualty_roll(ctx, pid)
        cas, also = _worst_first(cas, also)
        ctx.ev("decay", player=pid, results=[cas, also])
    off_pitch(ctx, pid, "casualty")
    mp = ctx.mp(pid)
    mp.casualty, mp.casualty_also = cas, also
    if _apothecary(ctx, p) and ctx.ask("apothecary", ctx.rs.captain(p.team), [True, False], False):
        team.apothecary -= 1
        second = cas if result == "badly_hurt" or bite else _casualty_roll(ctx, pid)
        cas = min(cas, second, key=SEVERITY.index)
        if also is not None:
            cas, also = _worst_first(cas, also)
        ctx.ev("apothecary", player=pid, injury="casualty", result=cas)
        mp = ctx.mp(pid)
        mp.casualty, mp.casualty_also = cas, also
        if cas == "badly_hurt" and also in (None, "badly_hurt"):
            _to_reserves(ctx, pid)
            return a == b
    if "Regeneration" in p.skills and _regenerates(ctx, p):
        _to_reserves(ctx, pid)
        return a == b
    if cas == "dead":
        _died(ctx, st.players[pid])
    return a == b


def _injury_roll(ctx: Ctx, p: Player, mods: dict[str, int], crowd: bool) -> tuple[int, int, str]:
    a, b = ctx.roll(6), ctx.roll(6)
    total = a + b + sum(mods.values())
    result = injury_result(
        total, thick_skull="Thick Skull" in p.skills, stunty="Stunty" in p.skills
    )
    if result == "stunned" and "Ball & Chain" in p.skills:
        result = "ko"
    if ctx.record:
        ctx.ev(
            "injury",
            purpose="injury",
            player=p.id,
            modifiers=dict(mods),
            faces=[a, b],
            total=total,
            result=result,
            crowd=crowd,
        )
    return a, b, result


def _worst_first(x: str, y: str) -> tuple[str, str]:
    return (x, y) if SEVERITY.index(x) >= SEVERITY.index(y) else (y, x)


def _apothecary(ctx: Ctx, p: Player) -> bool:
    """May the team's apothecary treat this player? (Never a star player: seed 003.)"""
    return ctx.st.teams[p.team].apothecary > 0 and not p.star


def _regenerates(ctx: Ctx, p: Player) -> bool:
    """Regeneration 4+, with Igor's one re-roll per match (never for a star player)."""
    team = ctx.st.teams[p.team]
    rerolled = False
    while True:
        ok = plain_d6(ctx, "regeneration", p, 4, reroll=rerolled)
        if ok or rerolled or not team.igor or p.star:
            return ok
        if not ctx.ask("igor", ctx.rs.captain(p.team), [True, False], False):
            return False
        team.igor = False
        ctx.ev("igor", player=p.id)
        rerolled = True


ZOMBIE = (4, 3, 2, 8)  # the Necromancer's Zombie: MA ST AG AV, with Regeneration
UNDEAD_RACES = frozenset(("khemri", "necromantic", "undead", "vampire"))


def _died(ctx: Ctx, p: Player) -> None:
    """A player is dead after the apothecary and Regeneration: the opposing Necromancer may
    raise him as a Zombie (seed 000), and a Nurgle's Rot blocker or fouler infects him."""
    st = ctx.st
    them = other(p.team)
    eligible = p.st <= 4 and "Regeneration" not in p.skills and "Stunty" not in p.skills
    team = st.teams[them]
    if team.necromancer and eligible:
        team.necromancer = False
        zid = f"{p.id}-zombie"
        while zid in st.players:
            zid += "'"
        numbers = [q.number or 0 for q in st.players.values() if q.team == them]
        st.players[zid] = Player(
            zid,
            them,
            "captain",
            max(numbers, default=0) + 1,
            *ZOMBIE,
            frozenset(("Regeneration",)),
            state="reserves",
        )
        ctx.ev("raise_dead", player=p.id, zombie=zid, team=them)
        return
    src = None if ctx.hit_by is None else st.players.get(ctx.hit_by)
    if (
        src is not None
        and src.team == them
        and src.id == ctx.acting
        and "Nurgle's Rot" in src.skills
        and eligible
        and "Decay" not in p.skills
    ):
        team.rotters = (*team.rotters, p.id)
        ctx.ev("nurgles_rot", player=p.id, by=src.id, team=them)


def _may_pile_on(ctx: Ctx, by: Player | None, victim: Player) -> bool:
    if by is None or "Piling On" not in by.skills:
        return False
    me = ctx.st.players[by.id]
    return (
        me.state == "standing"
        and me.team == ctx.st.active
        and me.at is not None
        and victim.at is not None
        and adjacent(me.at, victim.at)
    )


def _pile_on(ctx: Ctx, piler: Player, victim: str, roll: str) -> bool:
    """Ask the Piling On player's coach; when used, the piler is placed prone in its square
    (no armour roll; a turnover only if it held the ball) and the roll is re-rolled."""
    me = ctx.st.players[piler.id]
    if me.state != "standing" or me.at is None:
        return False
    if not ctx.ask("piling_on", ctx.decider(me), [True, False], False):
        return False
    mp = ctx.mp(piler.id)
    mp.state = "prone"
    mp.rooted = False
    ctx.ev("piling_on", player=piler.id, target=victim, reroll=roll)
    if ctx.st.carrier == piler.id:
        assert mp.at is not None
        ctx.st.carrier = None
        ctx.st.ball_at = mp.at
        ctx.loose.append(mp.at)
        ctx.turnover = True
    return True


def _to_reserves(ctx: Ctx, pid: str) -> None:
    p = ctx.mp(pid)
    p.state = "reserves"
    p.casualty = None
    p.casualty_also = None


def _casualty_roll(ctx: Ctx, pid: str) -> str:
    t, u = ctx.roll(6), ctx.roll(8)
    value = t * 10 + u
    result = CASUALTY[value]
    ctx.ev("casualty", purpose="casualty", player=pid, faces=[t, u], roll=value, result=result)
    return result


def off_pitch(ctx: Ctx, pid: str, state: str) -> None:
    st = ctx.st
    p = ctx.mp(pid)
    sq = p.at
    if st.carrier == pid:
        st.carrier = None
        st.ball_at = sq
        if sq is not None:
            ctx.loose.append(sq)
    if sq is not None:
        ctx.place(pid, None)
    p.state = state
    p.stunned_now = False


def into_the_crowd(ctx: Ctx, pid: str) -> int | None:
    """A player leaving the pitch for the crowd waits in the Reserves box for the crowd's
    injury roll. A ball carrier loses the ball, a turnover when its team is moving (seed 000:
    hurt by the crowd is no turnover "unless he held the ball"). Returns the square the crowd
    throws the ball in from, None when the player held no ball."""
    st = ctx.st
    p = ctx.mp(pid)
    last = p.at
    carried = st.carrier == pid
    ctx.place(pid, None)
    p.state = "reserves"
    if not carried:
        return None
    st.carrier = None
    st.ball_at = None
    if p.team == st.active:
        ctx.turnover = True
    return last


def beaten_by_the_crowd(ctx: Ctx, pid: str, ball_from: int | None) -> None:
    """The crowd's injury roll for a player it received, then its throw-in of the ball he
    held: "la multitud devolverá el balón al campo" (seed 000)."""
    roll_injury(ctx, pid, {}, crowd=True)
    if ball_from is not None:
        throw_in(ctx, ball_from)


def bribed(ctx: Ctx, p: Player) -> bool:
    """A player about to be sent off: the captain may spend a bribe (seed 003), which works on
    2-6 (the sending-off and its turnover are cancelled)."""
    team = ctx.st.teams[p.team]
    if team.bribes <= 0 or not ctx.ask("bribe", ctx.rs.captain(p.team), [True, False], False):
        return False
    team.bribes -= 1
    return plain_d6(ctx, "bribe", p, 2)
