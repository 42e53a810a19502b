"""One resolution's context (``Ctx``): the state being changed, the dice stream, the answers
given so far and the events; the decisions asked of the coaches, and the D6 rolls with their
rerolls (team rerolls, skills, Pro, Loner)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actions import Actor, Answer, Event, IllegalAction
from .dice import Dice
from .ruleset import LRB5, ruleset_for
from .skills import reroll_skill
from .state import PLAY_PHASES, MatchState, Pending, Player

CAPTAIN_KINDS = frozenset(
    ("apothecary", "reroll_approval", "blitz_claim", "bribe", "igor", "agree_draw")
)

# Consulted when the engine would stop for a decision: an answer continues at once (exactly as
# if the caller had resolved again with that answer appended), None stops as usual.
Policy = Callable[[Pending], Answer | None]
# Shown each event as it is recorded, with the state as it stands at that moment (a replay's
# frames); the state goes on changing after the call, so a watcher copies what it keeps.
Watch = Callable[[Event, MatchState], None]


class _WatchedEvents(list[Event]):
    """A resolution's events, each shown to ``watch`` with the state when it is recorded."""

    def __init__(self, st: MatchState, watch: Watch) -> None:
        super().__init__()
        self.st = st
        self.watch = watch

    def append(self, event: Event) -> None:
        super().append(event)
        self.watch(event, self.st)


class InvalidAnswer(ValueError):
    """An answer that does not fit the decision the engine reached (see ``check_answer``)."""

    def __init__(self, error: IllegalAction) -> None:
        super().__init__(error.message)
        self.error = error


class Stop(Exception):
    def __init__(self, pending: Pending) -> None:
        super().__init__(pending.kind)
        self.pending = pending


def offered(choice: Any, options: list[Any]) -> bool:
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
        watch: Watch | None = None,
    ):
        self.st = st
        self.dice = dice
        self.answers = answers
        self.policy = policy
        self.ai = 0
        self.events: list[Event] = [] if watch is None else _WatchedEvents(st, watch)
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
        self.mover: Mover | None = None
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
            if a.kind != kind or not offered(a.choice, options):
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
        raise Stop(Pending(kind, to, options, default))

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


def plain_d6(ctx: Ctx, purpose: str, p: Player, target: int, **extra: Any) -> bool:
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


def d6_roll(
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
    alt: tuple[str, int] | None = None,
    **extra: Any,
) -> bool:
    """A D6 against a target with modifiers; a natural 1 fails and (agility rolls) a natural
    6 succeeds. Offers a reroll once after a failure. ``diving_tackle``: the opponent whose
    Diving Tackle (-2) is used when it turns a success into a failure. ``alt``: a once-a-turn
    skill that takes the roll against another target (Break Tackle: ST for AG), used after
    seeing the roll and only when it turns a failure into a success; where a reroll could
    save the roll instead, using it or keeping it is the coach's decision."""
    rerolled = False
    while True:
        face = ctx.roll(6)
        total = face + sum(mods.values())
        ok = face != 1 and (total >= target or (agility and face == 6))
        skill = alt if alt is not None and alt[0] not in ctx.st.players[p.id].used else None
        if (
            ok
            and diving_tackle is not None
            and "Diving Tackle" not in mods
            and face != 6
            and total - 2 < min(target, skill[1] if skill is not None else target)
        ):
            mods = {**mods, "Diving Tackle": -2}
            ctx.dived = True
            ctx.ev("diving_tackle", player=diving_tackle, target_player=p.id)
            total -= 2
            ok = False
        if skill is not None and not ok and face != 1 and total >= skill[1]:
            name, alt_target = skill
            q = ctx.st.players[p.id]
            # where a reroll could save the roll instead, the coach chooses
            if (
                rerolled
                or not _reroll_options(ctx, q, purpose, skill_reroll, team_reroll)
                or ctx.ask(_DECISION[name], ctx.decider(q), [True, False], True)
            ):
                mp = ctx.mp(p.id)
                mp.used = mp.used | {name}
                target = alt_target
                ok = True
                extra = {**extra, _DECISION[name]: True}
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
        if not offer_reroll(
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


# the decision (and the event's flag) of a skill ``d6_roll`` takes as ``alt``
_DECISION = {"Break Tackle": "break_tackle"}


def _reroll_options(
    ctx: Ctx, p: Player, purpose: str, skill_reroll: bool, team_reroll: bool
) -> list[str]:
    """The rerolls ``p`` may take on a failed ``purpose`` roll (empty: none)."""
    st = ctx.st
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
    return options


def offer_reroll(
    ctx: Ctx, p: Player, purpose: str, *, skill_reroll: bool = True, team_reroll: bool = True
) -> bool:
    st = ctx.st
    team = st.teams[p.team]
    options = _reroll_options(ctx, p, purpose, skill_reroll, team_reroll)
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
            return plain_d6(ctx, "loner", p, 4)
        return True
    name = str(choice).split(":", 1)[1]
    if name in ("Dodge", "Sure Feet", "Pro"):
        mp = ctx.mp(p.id)
        mp.used = mp.used | {name}
    ctx.ev("reroll", source=f"skill:{name}", player=p.id, purpose=purpose, result="used")
    if name == "Pro":
        return plain_d6(ctx, "pro", p, 4)
    return True


class Mover:
    """The moving player's movement allowance during one action."""

    __slots__ = ("gfi", "leapt", "pid", "used")

    def __init__(self, pid: str) -> None:
        self.pid = pid
        self.used = 0
        self.gfi = 0
        self.leapt = False
