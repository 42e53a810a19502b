"""Resolution: a declaration, the answers given so far and the dice -> a new state, the events
and maybe a pending decision. Nothing half-done is ever stored: when a decision is needed the
returned state is the input state (a copy) with only ``pending`` set; the caller resolves the
same declaration again from the same state with one more answer, reading the same dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actions import Actor, Answer, Declaration, Event, IllegalAction, Resolution
from .board import (
    D8,
    HEIGHT,
    NAMES,
    NEIGHBOURS,
    adjacent,
    distance,
    in_flight_path,
    on_pitch,
    parse_square,
    parse_squares,
    pass_band,
    square,
    xy,
)
from .board import push_squares as _push_squares
from .core import assists, end_zone_of_opponent, enemy_tz, gfi_limit, tz_players
from .dice import Dice
from .ruleset import LRB5, ruleset_for
from .skills import reroll_skill
from .state import PLAY_PHASES, MatchState, Pending, Player, other
from .tables import CASUALTY, SEVERITY, agility_target, injury_result

CAPTAIN_KINDS = frozenset(("apothecary", "reroll_approval", "blitz_claim", "bribe", "igor"))

# Consulted when the engine would stop for a decision: an answer continues at once (exactly as
# if the caller had resolved again with that answer appended), None stops as usual.
Policy = Callable[[Pending], Answer | None]


class InvalidAnswer(ValueError):
    """An answer that does not fit the decision the engine reached (see ``check_answer``)."""

    def __init__(self, error: IllegalAction) -> None:
        super().__init__(error.message)
        self.error = error


class _Stop(Exception):
    def __init__(self, pending: Pending) -> None:
        super().__init__(pending.kind)
        self.pending = pending


def _offered(choice: Any, options: list[Any]) -> bool:
    """Is ``choice`` one of ``options``, of the same type (True is not 1)?"""
    return any(type(o) is type(choice) and o == choice for o in options)


def _copy_on_write(players: dict[str, Player]) -> Callable[[str], Player]:
    """``Ctx.mp`` for a state whose players are shared with the input state."""
    copied: set[str] = set()

    def mp(pid: str) -> Player:
        if pid in copied:
            return players[pid]
        copied.add(pid)
        p = players[pid] = players[pid].copy()
        return p

    return mp


class Ctx:
    __slots__ = (
        "acting",
        "actor",
        "ai",
        "answers",
        "crowd",
        "dice",
        "dived",
        "events",
        "feed",
        "half_over",
        "hit_by",
        "loose",
        "mover",
        "mp",
        "policy",
        "record",
        "rs",
        "scored",
        "st",
        "turnover",
    )

    def __init__(
        self,
        st: MatchState,
        dice: Dice,
        answers: tuple[Answer, ...],
        actor: Actor,
        policy: Policy | None = None,
        owned: bool = False,
        record: bool = True,
    ):
        self.st = st
        self.dice = dice
        self.answers = answers
        self.policy = policy
        self.ai = 0
        self.events: list[Event] = []
        self.record = record  # events are kept (random play may drop them unseen)
        # ``mp(pid)``: the player, safe to change: the player itself when ``owned`` (every
        # player of ``st`` belongs to this resolution), else copied on its first change
        self.mp: Callable[[str], Player] = (
            st.players.__getitem__ if owned else _copy_on_write(st.players)
        )
        self.rs: LRB5 = ruleset_for(st)
        self.turnover = False
        self.scored: str | None = None  # the team that scored a touchdown
        self.half_over = False
        self.actor = actor
        self.loose: list[int] = []  # squares where a loose ball must bounce
        self.mover: _Mover | None = None
        # players pushed into the crowd, injured after the follow-up (with the square the
        # ball left the pitch from, when they held it)
        self.crowd: list[tuple[str, int | None]] = []
        self.acting: str | None = None  # the player whose action is being resolved
        self.feed: str | None = None  # Blood Lust: the Vampire that must feed
        self.hit_by: str | None = None  # the blocker or fouler behind the injury rolled now
        self.dived = False  # a Diving Tackle turned the last dodge into a failure

    # -- plumbing --------------------------------------------------------------------------
    def roll(self, sides: int) -> int:
        face = self.dice.face(self.st.dice_used, sides)
        self.st.dice_used += 1
        return face

    def ev(self, type_: str, **data: Any) -> None:
        """An event, when they are kept (``record``): the frequent ones test ``record`` first,
        so as not to build their data for nothing."""
        if self.record:
            self.events.append(Event(type_, data))

    def ask(self, kind: str, to: str, options: list[Any], default: Any) -> Any:
        if self.ai >= len(self.answers) and self.policy is not None:
            given = self.policy(Pending(kind, to, options, default, str(self.actor)))
            if given is not None:
                self.answers = (*self.answers, given)
        if self.ai < len(self.answers):
            a = self.answers[self.ai]
            self.ai += 1
            if a.kind != kind or not _offered(a.choice, options):
                raise InvalidAnswer(
                    IllegalAction(
                        "choice_illegal",
                        f"the engine awaits a {kind} decision with options {options}, "
                        f"not {a.kind} {a.choice!r}",
                    )
                )
            if self.record:
                self.ev("decision", kind=kind, to=to, choice=a.choice)
            return a.choice
        raise _Stop(Pending(kind, to, options, default))

    def decider(self, p: Player) -> str:
        return self.rs.decider(p.team, p.side)

    # -- board -------------------------------------------------------------------------------
    def place(self, pid: str, sq: int | None) -> None:
        p = self.mp(pid)
        board = self.st.board
        at = p.at
        if at is not None and board.get(at) == pid:
            del board[at]
        p.at = sq
        if sq is not None:
            board[sq] = pid


# ------------------------------------------------------------------------------------------
# Rolls and rerolls


def _plain_d6(ctx: Ctx, purpose: str, p: Player, target: int, **extra: Any) -> bool:
    """A D6 with no modifiers and no reroll offered (Loner, Pro, Regeneration, bribes)."""
    face = ctx.roll(6)
    ok = face >= target
    ctx.ev(
        purpose,
        purpose=purpose,
        player=p.id,
        target=target,
        modifiers={},
        faces=[face],
        result="success" if ok else "failure",
        **extra,
    )
    return ok


def _d6_roll(
    ctx: Ctx,
    purpose: str,
    p: Player,
    target: int,
    mods: dict[str, int],
    *,
    agility: bool = True,
    skill_reroll: bool = True,
    team_reroll: bool = True,
    diving_tackle: str | None = None,
    **extra: Any,
) -> bool:
    """A D6 against a target with modifiers; a natural 1 fails and (agility rolls) a natural
    6 succeeds. Offers a reroll once after a failure. ``diving_tackle``: the opponent whose
    Diving Tackle (-2) is used when it turns a success into a failure."""
    rerolled = False
    while True:
        face = ctx.roll(6)
        total = face + sum(mods.values())
        ok = face != 1 and (total >= target or (agility and face == 6))
        if (
            ok
            and diving_tackle is not None
            and "Diving Tackle" not in mods
            and face != 6
            and total - 2 < target
        ):
            mods = {**mods, "Diving Tackle": -2}
            ctx.dived = True
            ctx.ev("diving_tackle", player=diving_tackle, target_player=p.id)
            total -= 2
            ok = False
        if ctx.record:
            ctx.ev(
                purpose,
                purpose=purpose,
                player=p.id,
                target=target,
                modifiers=dict(mods),
                faces=[face],
                total=total,
                result="success" if ok else "failure",
                reroll=rerolled,
                **extra,
            )
        if ok or rerolled:
            return ok
        if not _offer_reroll(
            ctx, ctx.st.players[p.id], purpose, skill_reroll=skill_reroll, team_reroll=team_reroll
        ):
            return False
        rerolled = True


def _team_reroll_left(st: MatchState, team_name: str) -> bool:
    team = st.teams[team_name]
    if team.reroll_used:
        return False
    return team.rerolls > 0 or (not team.leader_used and _leader_on_pitch(st, team_name))


def _leader_on_pitch(st: MatchState, team_name: str) -> bool:
    for q in st.players.values():  # (a loop, the rare skill first: asked at every reroll)
        if "Leader" in q.skills and q.team == team_name and q.at is not None:
            return True
    return False


def _offer_reroll(
    ctx: Ctx, p: Player, purpose: str, *, skill_reroll: bool = True, team_reroll: bool = True
) -> bool:
    st = ctx.st
    team = st.teams[p.team]
    options: list[str] = []
    if (
        team_reroll
        and p.team == st.active
        and st.phase in PLAY_PHASES
        and _team_reroll_left(st, p.team)
    ):
        options.append("team")
    skill = reroll_skill(purpose) if skill_reroll else None
    if skill is not None and skill in p.skills and skill not in p.used:
        options.append(f"skill:{skill}")
    if "Pro" in p.skills and "Pro" not in p.used and p.team == st.active:
        options.append("skill:Pro")
    if not options:
        return False
    options.append("none")
    choice = ctx.ask("reroll", ctx.decider(p), options, "none")
    if choice == "none":
        return False
    if choice == "team":
        if ctx.rs.reroll_needs_approval(p.side):
            ok = ctx.ask("reroll_approval", ctx.rs.captain(p.team), ["approve", "deny"], "approve")
            if ok == "deny":
                ctx.ev("reroll", source="team", player=p.id, purpose=purpose, result="denied")
                return False
        team.reroll_used = True
        if not team.leader_used and _leader_on_pitch(st, p.team):
            team.leader_used = True
            ctx.ev(
                "reroll", source="team", player=p.id, purpose=purpose, result="used", leader=True
            )
        else:
            team.rerolls -= 1
            ctx.ev("reroll", source="team", player=p.id, purpose=purpose, result="used")
        if "Loner" in p.skills:
            return _plain_d6(ctx, "loner", p, 4)
        return True
    name = str(choice).split(":", 1)[1]
    if name in ("Dodge", "Sure Feet", "Pro", "Break Tackle"):
        mp = ctx.mp(p.id)
        mp.used = mp.used | {name}
    ctx.ev("reroll", source=f"skill:{name}", player=p.id, purpose=purpose, result="used")
    if name == "Pro":
        return _plain_d6(ctx, "pro", p, 4)
    return True


# ------------------------------------------------------------------------------------------
# Knock-downs, armour, injury


def _fall(
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
        if p.team == st.active and not place_only:
            ctx.turnover = True
        if "Ball & Chain" in p.skills:
            ctx.hit_by = None
            _injury(ctx, pid, {})
        elif not place_only:
            _armour(ctx, pid, by, pile=pile)
    if dropped is not None:
        _bounce(ctx, dropped)


def _armour(
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
        return _armour(ctx, pid, by, foul_mods=foul_mods, fouler=fouler)
    seen = fouler is not None and a == b and not ("Sneaky Git" in fouler.skills and not ok)
    if ok:
        inj_mods = {bonus_skill: 1} if bonus_on_injury and bonus_skill else {}
        src = fouler if fouler is not None else by
        ctx.hit_by = None if src is None else src.id
        double = _injury(ctx, pid, inj_mods, piler=piler)
        seen = seen or (fouler is not None and double)
    return seen


def _injury(
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
        _off_pitch(ctx, pid, "ko")
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
    _off_pitch(ctx, pid, "casualty")
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
        ok = _plain_d6(ctx, "regeneration", p, 4, reroll=rerolled)
        if ok or rerolled or not team.igor or p.star:
            return ok
        if not ctx.ask("igor", ctx.rs.captain(p.team), [True, False], False):
            return False
        team.igor = False
        ctx.ev("igor", player=p.id)
        rerolled = True


ZOMBIE = (4, 3, 2, 8)  # the Necromancer's Zombie: MA ST AG AV, with Regeneration
_UNDEAD_RACES = frozenset(("khemri", "necromantic", "undead", "vampire"))


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


def _off_pitch(ctx: Ctx, pid: str, state: str) -> None:
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


# ------------------------------------------------------------------------------------------
# The ball on the ground


def _bounce(ctx: Ctx, frm: int) -> None:
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
        _throw_in(ctx, frm)
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
    if not _can_catch(p):
        _bounce(ctx, sq)
        return
    _catch(ctx, p, accurate=False)


def _can_catch(p: Player) -> bool:
    return p.state == "standing" and not p.no_tz and "No Hands" not in p.skills


def _disturbing(st: MatchState, sq: int, team: str) -> int:
    """Opposing standing players with Disturbing Presence within three squares."""
    n = 0
    for q in st.players.values():
        if (
            "Disturbing Presence" in q.skills  # (the rare skill first: at every catch and pass)
            and q.team != team
            and q.at is not None
            and q.state == "standing"
            and distance(q.at, sq) <= 3
        ):
            n += 1
    return n


def _catch(
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
    dp = _disturbing(st, p.at, p.team)
    if dp:
        mods["Disturbing Presence"] = -dp
    ok = _d6_roll(ctx, "catch", p, agility_target(p.ag), mods, team_reroll=not kickoff)
    if ok:
        st.carrier = p.id
        st.ball_at = None
        return True
    st.carrier = None
    st.ball_at = p.at
    if kickoff:
        _kick_bounce(ctx, p.at)
    else:
        _bounce(ctx, p.at)
    return False


def _throw_in(ctx: Ctx, last: int) -> None:
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
        _arrive(ctx, st.ball_at, accurate=False)
        return


def in_half(team: str, sq: int) -> bool:
    """Is the square in the team's own half (home A-M, away N-Z)?"""
    return (xy(sq)[0] <= 12) == (team == "home")


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
        _touchback(ctx)
        return
    _kick_arrive(ctx, square(nx, ny), bounced=True)


def _kick_arrive(ctx: Ctx, sq: int, *, bounced: bool) -> None:
    st = ctx.st
    st.carrier = None
    st.ball_at = sq
    pid = st.board.get(sq)
    if pid is not None and _can_catch(st.players[pid]):
        _catch(ctx, st.players[pid], accurate=False, kickoff=True)
    elif pid is not None or not bounced:
        _kick_bounce(ctx, sq)


def _touchback(ctx: Ctx) -> None:
    """The receiving team's captain gives the ball to one of its players on the pitch."""
    st = ctx.st
    receiving = other(st.kicking)
    st.carrier = None
    st.ball_at = None
    on = sorted(
        (q for q in st.players.values() if q.team == receiving and q.at is not None),
        key=lambda q: (q.number if q.number is not None else 99, q.id),
    )
    able = [q.id for q in on if _can_catch(q)] or [q.id for q in on]
    if not able:
        ctx.ev("touchback", team=receiving, player=None)
        return
    choice = str(ctx.ask("touchback", ctx.rs.captain(receiving), able, able[0]))
    st.carrier = choice
    ctx.ev("touchback", team=receiving, player=choice)


def _flush_loose(ctx: Ctx) -> None:
    while ctx.loose:
        sq = ctx.loose.pop(0)
        if ctx.st.carrier is None and ctx.st.ball_at == sq:
            _bounce(ctx, sq)


# ------------------------------------------------------------------------------------------
# Moving


class _Mover:
    """The moving player's movement allowance during one action."""

    __slots__ = ("gfi", "leapt", "pid", "used")

    def __init__(self, pid: str) -> None:
        self.pid = pid
        self.used = 0
        self.gfi = 0
        self.leapt = False


def _need_square(ctx: Ctx, mv: _Mover) -> str:
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
    return "ok" if _d6_roll(ctx, "gfi", p, target, {}, agility=False) else "fell"


def _step(ctx: Ctx, mv: _Mover, sq: int) -> bool:
    """One square entered: GFI, dodge, pick-up. False when the action stops."""
    st = ctx.st
    p = st.players[mv.pid]
    frm = p.at
    assert frm is not None
    adj = adjacent(frm, sq)
    leap = not adj and "Leap" in p.skills and not mv.leapt and distance(frm, sq) == 2
    if sq in st.board or not (leap or adj) or p.rooted:
        return False
    paid = _need_square(ctx, mv)
    if paid == "ok" and leap:  # a Leap costs two squares
        paid = _need_square(ctx, mv)
    if paid != "ok":
        if paid == "fell":
            ctx.place(mv.pid, sq)
            _fall(ctx, [mv.pid])
        return False
    tackled = tz_players(st, frm, p.team)
    if tackled and _held_by_tentacles(ctx, p, tackled):
        return False
    tails = sum(1 for q in tackled if "Prehensile Tail" in q.skills) if tackled else 0
    if leap:
        mv.leapt = True
        mods = {"leap": 0}
        if "Very Long Legs" in p.skills:
            mods["Very Long Legs"] = 1
        if tails:
            mods["Prehensile Tail"] = -tails
        ok = _d6_roll(ctx, "leap", p, agility_target(p.ag), mods, frm=NAMES[frm], to=NAMES[sq])
        ctx.place(mv.pid, sq)
        if not ok:
            _fall(ctx, [mv.pid])
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
        stat = p.ag
        extra: dict[str, Any] = {}
        if "Break Tackle" in p.skills and "Break Tackle" not in p.used and p.st > p.ag:
            stat = p.st
            mp = ctx.mp(p.id)
            mp.used = mp.used | {"Break Tackle"}
            extra["break_tackle"] = True
        no_dodge = any("Tackle" in q.skills for q in tackled)
        ok = _d6_roll(
            ctx,
            "dodge",
            p,
            agility_target(stat),
            mods,
            skill_reroll=not no_dodge,
            diving_tackle=diver,
            frm=NAMES[frm],
            to=NAMES[sq],
            **extra,
        )
        ctx.place(mv.pid, sq)
        dived = ctx.dived
        if dived and diver is not None:
            ctx.place(diver, frm)
            _fall(ctx, [diver], place_only=True)
        if not ok:
            _fall(ctx, [mv.pid])
            return False
        if not dived:
            _after_dodge(ctx, st.players[mv.pid], tackled, frm)
    else:
        ctx.place(mv.pid, sq)
    if ctx.record:
        ctx.events.append(Event("move", {"player": mv.pid, "frm": NAMES[frm], "to": NAMES[sq]}))
    if st.carrier is None and st.ball_at == sq:
        return _pick_up(ctx, st.players[mv.pid], sq)
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
                _bounce(ctx, frm)
        return


def _pick_up(ctx: Ctx, p: Player, sq: int) -> bool:
    st = ctx.st
    if "No Hands" in p.skills:
        ctx.turnover = True
        _bounce(ctx, sq)
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
    if _d6_roll(ctx, "pickup", p, agility_target(p.ag), mods):
        st.carrier = p.id
        st.ball_at = None
        return True
    ctx.turnover = True
    _bounce(ctx, sq)
    return False


def _walk(ctx: Ctx, mv: _Mover, squares: list[int]) -> bool:
    for sq in squares:
        if ctx.turnover or not _step(ctx, mv, sq):
            return False
    return not ctx.turnover


# ------------------------------------------------------------------------------------------
# Blocking


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


def _block(
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
        _dump_off(ctx, def_id)
    att = st.players[att_id]
    dfn = st.players[def_id]
    assert att.at is not None and dfn.at is not None
    a_st = att.st + (1 if blitz and "Horns" in att.skills else 0)
    d_st = dfn.st + (2 if multiple else 0)
    if (
        "Dauntless" in att.skills
        and a_st < d_st
        and _d6_roll(ctx, "dauntless", att, d_st + 1, {"strength": a_st}, agility=False)
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
            )
        picked = max(scores) if chooser is att else min(scores)
        failed = picked <= 2  # the attacker would go down
        if not failed or rerolled or not _offer_reroll(ctx, st.players[att_id], "block"):
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
        _fall(ctx, [att_id], by=dfn)
        return False
    if face == 4:
        ab, db = "Block" in att.skills, "Block" in dfn.skills
        if jug and not (ab and not db):
            face = 2
        else:
            att_down, def_down = not ab, not db
            # a Wrestle owner wrestles rather than be knocked down (Juggernaut forbids the
            # target's Wrestle)
            if (att_down and "Wrestle" in att.skills) or (
                def_down and "Wrestle" in dfn.skills and not jug
            ):
                ctx.ev("wrestle", player=att_id if att_down and "Wrestle" in att.skills else def_id)
                _fall(ctx, [def_id, att_id], place_only=True)
                return False
            if def_down:
                _fall(ctx, [def_id], by=att, pile=True)
            if att_down:
                _fall(ctx, [att_id], by=dfn)
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
    movable = [s for s in on if "Stand Firm" not in st.players[st.board[s]].skills]
    return (movable or on), False


def _push(
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
    grab = first and not blitz and "Grab" in att.skills
    side_step = "Side Step" in victim.skills
    if grab and side_step:
        grab = side_step = False
    chooser = decider
    if side_step:
        chooser = ctx.decider(victim)
    opts, crowd = _push_targets(ctx, frm, victim, chooser_free=grab or side_step)
    if crowd:
        ctx.ev("push", player=victim_id, frm=NAMES[v], to=None, crowd=True)
        carrier = st.carrier == victim_id
        ctx.place(victim_id, None)
        vp = ctx.mp(victim_id)
        vp.state = "reserves"
        if carrier:
            st.carrier = None
            st.ball_at = None
            if vp.team == st.active:
                ctx.turnover = True
        ctx.crowd.append((victim_id, v if carrier else None))
        return v, True
    if len(opts) == 1:
        to = opts[0]
    else:
        names = [NAMES[s] for s in opts]
        to = parse_square(str(ctx.ask("push", chooser, names, names[0])))
    occupant = st.board.get(to)
    if occupant is not None:
        _, moved = _push(ctx, v, occupant, decider, first=False, att=att, blitz=blitz)
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
    vacated, moved = _push(ctx, att.at, def_id, ctx.decider(att), first=True, att=att, blitz=blitz)
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
            _fall(ctx, [def_id], by=st.players[att_id], pile=True)
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
        victim, ball_from = ctx.crowd.pop(0)
        _injury(ctx, victim, {}, crowd=True)
        if ball_from is not None:
            _throw_in(ctx, ball_from)
    _flush_loose(ctx)
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
        paid = _need_square(ctx, ctx.mover)
        if paid == "fell":
            _fall(ctx, [att_id])
        if paid != "ok":
            return False
    return _block(ctx, att_id, def_id, blitz=blitz, frenzy_second=True)


# ------------------------------------------------------------------------------------------
# Actions


_ACTIVATION = frozenset(("Bone-Head", "Really Stupid", "Wild Animal", "Take Root", "Blood Lust"))


def _activation(ctx: Ctx, p: Player, decl: Declaration) -> bool:
    """Bone-Head, Really Stupid, Wild Animal, Take Root, Blood Lust. False when the action is
    lost."""
    if p.skills.isdisjoint(_ACTIVATION):
        return True
    if "Bone-Head" in p.skills and not _d6_roll(ctx, "bone_head", p, 2, {}, agility=False):
        ctx.mp(p.id).no_tz = True
        return False
    if "Really Stupid" in p.skills:
        helper = p.at is not None and any(
            (q := ctx.st.players[ctx.st.board[s]]).team == p.team
            and q.state == "standing"
            and "Really Stupid" not in q.skills
            for s in NEIGHBOURS[p.at]
            if s in ctx.st.board
        )
        if not _d6_roll(ctx, "really_stupid", p, 2 if helper else 4, {}, agility=False):
            ctx.mp(p.id).no_tz = True
            return False
    if "Wild Animal" in p.skills:
        mods = {"block": 2} if decl.action in ("block", "blitz") else {}
        if not _d6_roll(ctx, "wild_animal", p, 4, mods, agility=False):
            return False
    if "Blood Lust" in p.skills and not _d6_roll(ctx, "blood_lust", p, 2, {}, agility=False):
        ctx.feed = p.id  # the action goes on; the Vampire must feed at its end
    if "Take Root" in p.skills and not p.rooted:
        face = ctx.roll(6)
        rooted = face == 1
        ctx.ev(
            "take_root",
            purpose="take_root",
            player=p.id,
            target=2,
            modifiers={},
            faces=[face],
            result="failure" if rooted else "success",
        )
        if rooted and _offer_reroll(ctx, ctx.st.players[p.id], "take_root"):
            face = ctx.roll(6)
            rooted = face == 1
            ctx.ev(
                "take_root",
                purpose="take_root",
                player=p.id,
                target=2,
                modifiers={},
                faces=[face],
                result="failure" if rooted else "success",
                reroll=True,
            )
        if rooted:
            ctx.mp(p.id).rooted = True
    return True


def _stand_up(ctx: Ctx, mv: _Mover) -> bool:
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
    ok = _d6_roll(ctx, "stand_up", p, 4, {}, agility=False)
    if ok:
        ctx.mp(mv.pid).state = "standing"
        mv.used = p.ma
    return ok


def _do_player_action(ctx: Ctx, decl: Declaration) -> None:
    st = ctx.st
    assert decl.player is not None
    pid = decl.player
    ctx.acting = pid
    team = st.teams[st.players[pid].team]
    p = ctx.mp(pid)
    p.acted = True
    p.no_tz = False
    action = decl.action
    if action == "move":  # (the usual action: no allowance to count)
        pass
    elif action == "blitz":
        team.blitz_used = True
    elif action == "foul":
        key = ctx.rs.foul_key(p.side)
        team.fouls_used[key] = team.fouls_used.get(key, 0) + 1
    elif action == "hand_off":
        team.hand_off_used = True
    elif action == "pass":
        team.pass_used = True
    if ctx.record:
        ctx.ev("action", player=pid, action=action)
    if not _activation(ctx, p, decl):
        return
    _act(ctx, decl)
    if ctx.feed is not None:
        specials.feed(ctx)


def _act(ctx: Ctx, decl: Declaration) -> None:
    st = ctx.st
    assert decl.player is not None
    pid = decl.player
    action = decl.action
    mv = _Mover(pid)
    ctx.mover = mv
    me = st.players[pid]
    if action == "bomb":
        assert decl.target is not None
        specials.bomb(ctx, pid, parse_square(decl.target))
        return
    if action == "block" and me.state == "prone" and "Jump Up" in me.skills:
        if not specials.jump_up_block(ctx, me):
            return
    elif not _stand_up(ctx, mv):
        return
    if "Ball & Chain" in st.players[pid].skills:
        specials.ball_and_chain(ctx, mv, decl.facings)
        return
    path = parse_squares(decl.path)
    if st.players[pid].rooted and path:
        return
    if not _walk(ctx, mv, path):
        return
    if action == "block" or action == "blitz":
        assert decl.target is not None
        tgt = st.players[decl.target]
        me = st.players[pid]
        if (
            tgt.at is None
            or me.at is None
            or not adjacent(me.at, tgt.at)
            or tgt.state != "standing"
        ):
            return
        if action == "blitz":
            paid = _need_square(ctx, mv)
            if paid == "fell":
                _fall(ctx, [pid])
            if paid != "ok":
                return
        if not specials.attack(ctx, pid, decl):
            return
        if action == "blitz" and decl.then and not decl.stab:
            _walk(ctx, mv, parse_squares(decl.then))
    elif action == "move":
        if decl.gaze is not None:
            specials.hypnotic_gaze(ctx, pid, decl.gaze)
    elif action == "foul":
        assert decl.target is not None
        _foul(ctx, pid, decl.target)
    elif ctx.feed is not None and not specials.feed(ctx):
        return
    elif action == "hand_off":
        assert decl.target is not None
        _hand_off(ctx, pid, decl.target)
    elif action == "pass":
        assert decl.target is not None
        if decl.throw is not None:
            _throw_team_mate(ctx, pid, decl.throw, decl.target)
        else:
            _pass(ctx, pid, decl.target)


def _foul(ctx: Ctx, pid: str, target: str) -> None:
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
    seen = _armour(ctx, target, None, foul_mods=mods, fouler=me)
    if seen and st.ref_gone:
        ctx.ev("not_seen", player=pid, reason="get_the_ref")
    elif seen and not bribed(ctx, st.players[pid]):
        ctx.ev("sent_off", player=pid)
        ctx.turnover = True
        me = st.players[pid]
        had_ball = st.carrier == pid
        sq = me.at
        _off_pitch(ctx, pid, "sent_off")
        if had_ball and sq is not None:
            ctx.loose.clear()
            _bounce(ctx, sq)


def bribed(ctx: Ctx, p: Player) -> bool:
    """A player about to be sent off: the captain may spend a bribe (seed 003), which works on
    2-6 (the sending-off and its turnover are cancelled)."""
    team = ctx.st.teams[p.team]
    if team.bribes <= 0 or not ctx.ask("bribe", ctx.rs.captain(p.team), [True, False], False):
        return False
    team.bribes -= 1
    return _plain_d6(ctx, "bribe", p, 2)


def _hand_off(ctx: Ctx, pid: str, target: str) -> None:
    st = ctx.st
    me = st.players[pid]
    tgt = st.players[target]
    if st.carrier != pid or tgt.at is None or me.at is None or not adjacent(me.at, tgt.at):
        return
    ctx.ev("hand_off", player=pid, target=target)
    st.carrier = None
    st.ball_at = tgt.at
    if _can_catch(tgt):
        _catch(ctx, tgt, accurate=True, hand_off=True)
    else:
        _bounce(ctx, tgt.at)
    if st.carrier is None or st.players[st.carrier].team != st.active:
        ctx.turnover = True


# ------------------------------------------------------------------------------------------
# Passing


def _arrive(ctx: Ctx, sq: int, *, accurate: bool) -> None:
    """A passed or thrown-in ball arrives on a square (not a bounce): a standing player there
    must try to catch it; on an empty square a Diving Catch player next to it tries from its
    own square; otherwise it bounces."""
    st = ctx.st
    st.carrier = None
    st.ball_at = sq
    pid = st.board.get(sq)
    if pid is not None:
        p = st.players[pid]
        if _can_catch(p):
            _catch(ctx, p, accurate=accurate)
        else:
            _bounce(ctx, sq)
        return
    for s in NEIGHBOURS[sq]:
        qid = st.board.get(s)
        if qid is not None:
            q = st.players[qid]
            if "Diving Catch" in q.skills and _can_catch(q):
                ctx.ev("diving_catch", player=qid, at=NAMES[sq])
                _catch(ctx, q, accurate=False)
                return
    _bounce(ctx, sq)


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
            and _can_catch(q)
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
    dp = _disturbing(st, q.at, q.team)
    if dp:
        mods["Disturbing Presence"] = -dp
    if not _d6_roll(ctx, "intercept", q, agility_target(q.ag), mods):
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
            _throw_in(ctx, sq)
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
    if "Strong Arm" in p.skills and name != "quick":
        mods["Strong Arm"] = 1
    dp = _disturbing(st, frm, p.team)
    if dp:
        mods["Disturbing Presence"] = -dp
    return mods


def _pass_roll(ctx: Ctx, p: Player, mods: dict[str, int], hail_mary: bool) -> str:
    """``accurate``, ``inaccurate`` or ``fumble``, with one reroll after a failure."""
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
            return result
        if not _offer_reroll(ctx, ctx.st.players[p.id], "pass"):
            return result
        rerolled = True


def _dump_off(ctx: Ctx, def_id: str) -> None:
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
        _pass(ctx, def_id, str(choice), dump_off=True)


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
                _bounce(ctx, dest)


def _throw_team_mate(ctx: Ctx, pid: str, thrown_id: str, target: str) -> None:
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
                _off_pitch(ctx, thrown_id, "casualty")
                ctx.mp(thrown_id).casualty = "dead"
                ctx.loose.clear()
                if had_ball:
                    ctx.turnover = True
                    st.carrier = None
                    st.ball_at = sq
                    _bounce(ctx, sq)
                return
            fumbled = True
    if not fumbled:
        band = pass_band(me.at, to)
        assert band is not None
        mods: dict[str, int] = {band[0]: band[1]}
        if "Nerves of Steel" not in me.skills:
            tz = enemy_tz(st, me.at, me.team)
            if tz:
                mods["tackle_zones"] = -tz
        if st.weather == "very_sunny":
            mods["very_sunny"] = -1
        fumbled = _pass_roll(ctx, me, mods, False) == "fumble"
    landing: int | None = t.at if fumbled else to
    if not fumbled:
        assert landing is not None
        landing = _scatter_player(ctx, landing, 3)
    _land_thrown(ctx, thrown_id, landing, had_ball)


def _scatter_player(ctx: Ctx, sq: int, times: int) -> int | None:
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
        _fall(ctx, [under], by=None)
        landing = _scatter_player(ctx, landing, 1)
    if landing is None:
        sq = p.at
        ctx.place(pid, None)
        ctx.mp(pid).state = "reserves"
        if had_ball and sq is not None:
            st.carrier = None
            ctx.turnover = True
        _injury(ctx, pid, {}, crowd=True)
        if had_ball and sq is not None:
            _throw_in(ctx, sq)
        return
    ctx.place(pid, landing)
    mods: dict[str, int] = {}
    tz = enemy_tz(st, landing, p.team)
    if tz:
        mods["tackle_zones"] = -tz
    if _d6_roll(ctx, "landing", st.players[pid], agility_target(p.ag), mods):
        if st.carrier is None and st.ball_at == landing:
            _bounce(ctx, landing)
        return
    mp = ctx.mp(pid)
    mp.state = "prone"
    ctx.ev("knocked_down", player=pid, at=NAMES[landing])
    if had_ball:
        ctx.turnover = True
        st.carrier = None
        st.ball_at = landing
    _armour(ctx, pid, None)
    if had_ball or (st.carrier is None and st.ball_at == landing):
        ctx.loose.append(landing)


def _pass(ctx: Ctx, pid: str, target: str, *, dump_off: bool = False) -> None:
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
    result = _pass_roll(ctx, me, mods, hail_mary)
    if result == "fumble":
        if not dump_off:
            ctx.turnover = True
        if "Safe Throw" in me.skills and not hail_mary:
            ctx.ev("safe_throw", player=pid, kept=True)
            return
        st.carrier = None
        st.ball_at = frm
        _bounce(ctx, frm)
        return
    st.carrier = None
    st.ball_at = None
    landing: int | None = to
    if result == "inaccurate":
        landing = _scatter(ctx, to, 3)
    if landing is not None:
        _arrive(ctx, landing, accurate=result == "accurate")
    if not dump_off and (st.carrier is None or st.players[st.carrier].team != st.active):
        ctx.turnover = True


def _claim_blitz(ctx: Ctx) -> None:
    st = ctx.st
    team_name = ctx.actor.team
    team = st.teams[team_name]
    team.blitz_claimed = True
    ctx.ev("claim_blitz", team=team_name, by=str(ctx.actor))
    choice = ctx.ask("blitz_claim", ctx.rs.captain(team_name), ["grant", "contest"], "contest")
    if choice == "grant":
        team.blitz_side = "rival"
        ctx.ev("blitz_granted", team=team_name)
        return
    rival = [ctx.roll(6) for _ in range(3)]
    captain = [ctx.roll(6) for _ in range(3)]
    winner = contest_winner(rival, captain)
    ctx.ev(
        "blitz_contest",
        purpose="blitz_contest",
        team=team_name,
        faces=rival + captain,
        rival=rival,
        captain=captain,
        rival_total=sum(rival),
        captain_total=sum(captain) + 2,
        modifiers={"captain": 2},
        result=winner,
    )
    if winner == "rival":
        team.blitz_side = "rival"


def contest_winner(rival: list[int], captain: list[int]) -> str:
    """House rule 1: the rival wins only if 3D6 beats the captain's 3D6 + 2; on equal totals
    both sets sorted high to low, the first higher die wins."""
    r, c = sum(rival), sum(captain) + 2
    if r != c:
        return "rival" if r > c else "captain"
    for a, b in zip(sorted(rival, reverse=True), sorted(captain, reverse=True), strict=True):
        if a != b:
            return "rival" if a > b else "captain"
    return "captain"


# ------------------------------------------------------------------------------------------
# Turns


def _check_touchdown(ctx: Ctx) -> None:
    st = ctx.st
    if st.carrier is None or st.phase not in PLAY_PHASES:
        return
    p = st.players[st.carrier]
    if p.at is None or p.state != "standing":
        return
    if xy(p.at)[0] == end_zone_of_opponent(p.team):
        st.score[p.team] += 1
        ctx.ev("touchdown", player=p.id, team=p.team, at=NAMES[p.at])
        st.carrier = None
        st.ball_at = None
        ctx.turnover = True
        ctx.scored = p.team


def _stunned_turn_prone(ctx: Ctx, team: str) -> None:
    for pid, p in ctx.st.players.items():
        if p.state == "stunned" and p.team == team:  # (the rarer test first)
            _stunned_turn_over(ctx.mp(pid))


def _stunned_turn_over(p: Player) -> None:
    """A stunned player at the end of its team's turn: prone, or still stunned once if it was
    stunned in that very turn."""
    if p.stunned_now:
        p.stunned_now = False
    else:
        p.state = "prone"


def _end_team_turn(ctx: Ctx, nxt: str | None = None) -> None:
    """The active team's turn ends; ``nxt`` (the other team by default) begins its turn,
    unless both teams have played their turns of the half (``ctx.half_over``)."""
    st = ctx.st
    team = st.active
    nxt = other(team) if nxt is None else nxt
    half_over = st.turn["home"] >= 8 and st.turn["away"] >= 8
    # one pass over the players, at every turn (so the team is told apart first): the ending
    # team's stunned players turn prone (as ``_stunned_turn_prone``), the next team's players
    # are ready to act again (the next team is the ending one after a touchdown scored in the
    # other team's turn)
    mp = ctx.mp
    for p in st.players.values():
        if p.team == nxt:
            if nxt == team and p.state == "stunned":
                _stunned_turn_over(mp(p.id))
            if not half_over and (p.acted or p.used or p.stunned_now):
                q = mp(p.id)
                q.acted = False
                q.used = frozenset()
                q.stunned_now = False
        elif p.state == "stunned" and p.team == team:
            _stunned_turn_over(mp(p.id))
    if ctx.record:
        ctx.ev("end_turn", team=team, turnover=ctx.turnover)
    if half_over:
        ctx.half_over = True
        return
    st.active = nxt
    st.turn[nxt] += 1
    t = st.teams[nxt]
    t.reroll_used = t.blitz_used = t.blitz_claimed = t.pass_used = t.hand_off_used = False
    t.blitz_side = "captain"
    t.fouls_used = {"captain": 0, "rival": 0}
    t.ended = frozenset()
    if ctx.record:
        ctx.ev("turn_start", team=nxt, turn=st.turn[nxt])


def _after_action(ctx: Ctx) -> None:
    """Touchdowns, turnovers and the end of the team turn, the drive or the half."""
    st = ctx.st
    if ctx.turnover and ctx.scored is None:
        st.turnover = True
        ctx.ev("turnover", team=st.active)
    elif ctx.turnover:
        st.turnover = True
    if st.phase == "blitz":
        if ctx.scored is None and (ctx.turnover or ctx.rs.turn_over(st, st.active)):
            flow.end_blitz_turn(ctx)
        return
    scorer = ctx.scored
    if scorer is not None:
        if st.half == 3:
            flow.end_drive(ctx, scorer)
            return
        if scorer != st.active:
            st.turn[scorer] += 1
            _end_team_turn(ctx, nxt=st.active)
        else:
            _end_team_turn(ctx)
        flow.end_drive(ctx, scorer)
        return
    if ctx.turnover or ctx.rs.turn_over(st, st.active):
        _end_team_turn(ctx)
        if ctx.half_over:
            flow.clear_pitch(ctx)
            flow.end_half(ctx)


_NOT_PLAYER_ACTIONS = frozenset(
    ("end_turn", "claim_blitz", "start_match", "pregame_weather", "setup", "kick", "concede")
)


def resolve(
    state: MatchState,
    actor: Actor | str,
    declaration: Declaration,
    answers: tuple[Answer, ...],
    dice: Dice,
    policy: Policy | None = None,
    *,
    in_place: bool = False,
    keep_events: bool = True,
) -> Resolution:
    """Resolve a (legal) declaration. See the module docstring for pending decisions.

    ``policy(pending) -> Answer | None`` is consulted whenever the engine would stop for a
    decision that ``answers`` does not cover: an answer goes on inline, None stops as usual
    (``pending.answers`` then holds the given answers and the policy's). The result is the
    one that stopping and resolving again with the same answers gives: same state, events and
    dice. The policy sees ``kind``, ``to``, ``options``, ``default`` and ``actor`` (the
    declaration is the one passed here).

    ``in_place``: change ``state`` and its players themselves instead of copies, for a caller
    that drops the state it passes (random play). Only with a policy that answers every
    decision: a stop would leave the state half-resolved (RuntimeError). ``keep_events``
    False: no event is kept (``events`` is empty), for a caller that would drop them."""
    act = Actor.parse(actor) if isinstance(actor, str) else actor
    st = state if in_place else state.copy()
    st.pending = None
    st.turnover = False
    ctx = Ctx(st, dice, answers, act, policy, owned=in_place, record=keep_events)
    action = declaration.action
    try:
        if action not in _NOT_PLAYER_ACTIONS:  # a player's action: the usual case first
            _do_player_action(ctx, declaration)
            _flush_loose(ctx)
            _check_touchdown(ctx)
            _after_action(ctx)
        elif action == "end_turn":
            team = st.teams[act.team]
            if ctx.rs.split_team:
                team.ended = team.ended | {act.side}
            else:
                team.ended = frozenset(ctx.rs.sides())
            if ctx.record:
                ctx.ev("end_side", team=act.team, side=act.side)
            _after_action(ctx)
        elif action == "claim_blitz":
            _claim_blitz(ctx)
            _after_action(ctx)
        elif action == "start_match":
            flow.start_match(ctx)
        elif action == "pregame_weather":
            flow.pregame_weather(ctx)
        elif action == "setup":
            flow.post_setup(ctx, act.team, ctx.rs.side_of(act.side), declaration)
        elif action == "kick":
            assert declaration.target is not None
            flow.kick(ctx, parse_square(declaration.target))
        else:  # "concede"
            flow.concede(ctx, act.team)
    except _Stop as stop:
        if in_place:
            raise RuntimeError("a resolution in place stopped for a decision") from None
        pend = stop.pending
        pend.actor = str(act)
        pend.declaration = declaration.to_json()
        pend.answers = [a.to_json() for a in ctx.answers]
        out = state.copy()
        out.pending = pend
        st.pending = pend
        return Resolution(out, ctx.events, pend, partial=st)
    return Resolution(st, ctx.events, None)


def continue_with(
    state: MatchState, answer: Answer, dice: Dice, policy: Policy | None = None
) -> Resolution:
    """Answer the decision pending in ``state`` (as returned by ``resolve``); ``policy`` as in
    ``resolve`` for the decisions after it."""
    pend = state.pending
    if pend is None or pend.declaration is None:
        raise InvalidAnswer(IllegalAction("no_decision_pending", "No decision is pending."))
    answers = (*(Answer.from_json(a) for a in pend.answers), answer)
    decl = Declaration.from_json(pend.declaration)
    return resolve(state, pend.actor, decl, answers, dice, policy)


from . import flow, specials  # noqa: E402  (both use the helpers above)
