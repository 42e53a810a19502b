"""Random legal play, for property tests and the benchmark."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .actions import FACINGS, Actor, Answer, Declaration, Event
from .board import HEIGHT, NAMES, NEIGHBOURS, WIDTH, pass_band, square
from .context import Policy
from .core import in_half
from .dice import Dice
from .legal import legal, legal_declarations
from .lineup import can_set_up, los_column, sides_needed, team_complete
from .match import PlayerSheet, TeamSheet, new_match
from .options import options
from .resolve import resolve
from .ruleset import ruleset_for
from .skills import implemented
from .state import MatchState, Pending, Player, other


@dataclass(slots=True)
class Played:
    state: MatchState
    declarations: int = 0
    events: list[Event] = field(default_factory=list)
    timings: list[float] = field(default_factory=list)


def random_actor(state: MatchState, rng: random.Random) -> Actor:
    return Actor(state.active, rng.choice(("captain", "rival")) if state.house_rules else "captain")


def choose(
    state: MatchState, rng: random.Random, *, whole: bool, by_options: bool = False
) -> tuple[Actor, Declaration]:
    phase = state.phase
    if phase == "pregame":
        if not state.weather_rolled and rng.random() < 0.25:
            return Actor("home", "captain"), Declaration(None, "pregame_weather")
        return Actor("home", "captain"), Declaration(None, "start_match")
    if phase == "kickoff":
        receiving = other(state.kicking)
        while True:
            sq = rng.randrange(WIDTH * HEIGHT)
            if in_half(receiving, sq):
                break
        return Actor(state.kicking, "captain"), Declaration(None, "kick", target=NAMES[sq])
    if phase in ("setup", "perfect_defence", "quick_snap"):
        return random_setup(state, rng)
    if by_options:
        return _options_declaration(state, rng)
    if whole:
        return _random_turn_declaration(state, rng)
    actor = random_actor(state, rng)
    options = list(legal_declarations(state, actor))
    if not options:
        actor = Actor(actor.team, "rival" if actor.side == "captain" else "captain")
        options = list(legal_declarations(state, actor)) or [Declaration(None, "end_turn")]
    return actor, rng.choice(options)


def _pick[T](rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice`` for the hot paths of random play: one C call to ``random()``."""
    return seq[int(rng.random() * len(seq))]


_IMPLEMENTED = tuple(implemented())


def _sample(rng: random.Random, seq: Sequence[str], k: int) -> list[str]:
    """k distinct items of ``seq`` (a small k: draw again on a repeat)."""
    out: list[str] = []
    while len(out) < k:
        x = _pick(rng, seq)
        if x not in out:
            out.append(x)
    return out


_ACTORS = {(t, s): Actor(t, s) for t in ("home", "away") for s in ("captain", "rival")}


def _random_turn_declaration(state: MatchState, rng: random.Random) -> tuple[Actor, Declaration]:
    """A quick random declaration for whole matches: a random player of a side that has not
    ended, one of its candidate declarations, or the end of that side's turn."""
    rs = ruleset_for(state)
    team = state.active
    ended = state.teams[team].ended
    r = rng.random
    sides = [s for s in rs.sides() if s not in ended] if ended else rs.sides()
    side = sides[int(r() * len(sides))] if sides else "captain"  # ``_pick``, inlined
    actor = _ACTORS[team, side]
    if r() < 0.75:
        p = _random_player(state, rng, team, side if rs.split_team else None)
        if p is not None:
            # what ``legal`` checks first holds: the side plays on, the player may act
            may_act = bool(sides) and state.pending is None
            for d in _quick_candidates(state, p, rng):
                if candidate_legal(state, actor, p, d, may_act=may_act):
                    return actor, d
    if r() < 0.0005 and legal(state, actor, _CONCEDE) is None:
        return actor, _CONCEDE
    return actor, _END_TURN


def _options_declaration(state: MatchState, rng: random.Random) -> tuple[Actor, Declaration]:
    """A declaration picked uniformly among every option ``options`` lists for a side that has
    not ended (as a bot picks): a Move to any square its player reaches, any target of a
    block, blitz, foul, pass or hand-off, or the side's own claim_blitz or end_turn."""
    rs = ruleset_for(state)
    team = state.active
    ended = state.teams[team].ended
    sides = [s for s in rs.sides() if s not in ended] or ["captain"]
    actor = _ACTORS[team, sides[int(rng.random() * len(sides))]]
    turn = options(state, actor)
    each = [turn.player(pid) for pid in turn.players]
    total = sum(len(po) for po in each) + len(turn.team)
    i = int(rng.random() * total)
    for po in each:
        if i < len(po):
            return actor, po.declaration(i)
        i -= len(po)
    return actor, Declaration(None, turn.team[i]) if turn.team else _END_TURN


_CONCEDE = Declaration(None, "concede")
_END_TURN = Declaration(None, "end_turn")


def candidate_legal(
    state: MatchState, actor: Actor, p: Player, d: Declaration, *, may_act: bool
) -> bool:
    """``legal(state, actor, d) is None`` for a candidate of ``_quick_candidates``, cheaply.
    ``may_act``: the actor's side plays on and ``p`` may act (as ``_random_player`` chose it).
    A candidate's squares are free and next to each other and its target is an opponent next
    to ``p``, so a plain move is legal unless ``p`` has taken root and moves, and an attack
    unless its target is in the wrong state or (blitz, foul) the allowance is spent. Rarer
    declarations (and Ball & Chain players) ask ``legal``."""
    if (
        may_act
        and d.target2 is None
        and not d.stab
        and d.gaze is None
        and not d.facings
        and "Ball & Chain" not in p.skills
    ):
        action = d.action
        if action == "move":
            return not (p.rooted and d.path)
        if action in _ATTACKS and not d.path:
            assert d.target is not None
            target = state.players[d.target].state
            if action == "foul":
                team = state.teams[actor.team]
                return ruleset_for(state).foul_free(team, actor.side) and target in _DOWN
            if action == "blitz":
                team = state.teams[actor.team]
                return ruleset_for(state).blitz_free(team, actor.side) and target == "standing"
            return target == "standing" and (p.state == "standing" or "Jump Up" in p.skills)
    return legal(state, actor, d) is None


_DOWN = ("prone", "stunned")  # a foul's targets


def _random_player(
    state: MatchState, rng: random.Random, team: str, side: str | None
) -> Player | None:
    """A player of ``team`` (and ``side``) on the pitch who may still act, uniformly at random:
    a few draws among everyone on the pitch (cheap), then the full list."""
    everyone = state.players
    on_pitch = list(state.board.values())
    if not on_pitch:
        return None
    r = rng.random
    n = len(on_pitch)
    for _ in range(6):
        p = everyone[on_pitch[int(r() * n)]]  # ``_pick``, inlined
        if (
            p.team == team
            and not p.acted
            and (p.state == "standing" or p.state == "prone")
            and (side is None or p.side == side)
        ):
            return p
    players = [
        p
        for pid in on_pitch
        if (p := everyone[pid]).team == team
        and not p.acted
        and (p.state == "standing" or p.state == "prone")
        and (side is None or p.side == side)
    ]
    return _pick(rng, players) if players else None


def _quick_candidates(state: MatchState, p: Player, rng: random.Random) -> Iterator[Declaration]:
    """A few random declarations for one player, built lazily (cheap: no full enumeration)."""
    at = p.at
    assert at is not None
    skills = p.skills
    if "Ball & Chain" in skills:
        yield _ball_and_chain(p, rng)
        return
    if "Bombardier" in skills and rng.random() < 0.3:
        bomb = _bomb(state, p, rng)
        if bomb is not None:
            yield bomb
    pid = p.id
    carrier = state.carrier == pid
    if carrier or (state.ball_at is not None and rng.random() < 0.5):
        yield _run(state, p)
    if carrier and rng.random() < 0.3:
        yield from _pass_candidates(state, p, rng)
    foes = []
    mates = []
    free = []
    board = state.board
    players = state.players
    team = p.team
    around = NEIGHBOURS[at]
    for s, oid in zip(around, map(board.get, around), strict=True):
        if oid is None:
            free.append(s)
        elif players[oid].team == team:
            mates.append(oid)
        else:
            foes.append(oid)
    r = rng.random  # ``_pick``, inlined below: one ``random()`` a choice
    if foes:
        f = foes[int(r() * len(foes))]
        if skills:
            yield from _part3_candidates(state, p, foes, rng)
        yield Declaration(pid, _ATTACKS[int(r() * 4)], (), f)
    if mates and carrier:
        yield Declaration(pid, "hand_off", (), mates[int(r() * len(mates))])
    if free:
        s1 = free[int(r() * len(free))]
        around1 = NEIGHBOURS[s1]
        s2 = around1[int(r() * len(around1))]
        if s2 not in board and s2 != at:
            yield Declaration(pid, "move", (NAMES[s1], NAMES[s2]))
        yield Declaration(pid, "move", (NAMES[s1],))
    yield Declaration(pid, "move")


_ATTACKS = ("block", "blitz", "block", "foul")


def _part3_candidates(
    state: MatchState, p: Player, foes: list[str], rng: random.Random
) -> list[Declaration]:
    """Multiple Block, Stab and Hypnotic Gaze declarations against adjacent opponents."""
    out: list[Declaration] = []
    f = rng.choice(foes)
    if "Multiple Block" in p.skills and len(foes) > 1 and rng.random() < 0.5:
        f2 = rng.choice([x for x in foes if x != f])
        out.append(Declaration(p.id, "block", (), f, target2=f2))
    if "Stab" in p.skills and rng.random() < 0.5:
        out.append(Declaration(p.id, rng.choice(("block", "blitz")), (), f, stab=True))
    if "Hypnotic Gaze" in p.skills and rng.random() < 0.5:
        out.append(Declaration(p.id, "move", gaze=f))
    return out


def _ball_and_chain(p: Player, rng: random.Random) -> Declaration:
    left = max(p.ma - (3 if p.state == "prone" else 0), 0)
    if rng.random() < 0.5:
        return Declaration(p.id, "move")
    n = left + rng.randint(0, 2)
    return Declaration(p.id, "move", facings=tuple(rng.choice(FACINGS) for _ in range(n)))


def _bomb(state: MatchState, p: Player, rng: random.Random) -> Declaration | None:
    assert p.at is not None
    x, y = divmod(p.at, HEIGHT)
    tx, ty = x + rng.randint(-6, 6), y + rng.randint(-6, 6)
    if not (0 <= tx < WIDTH and 0 <= ty < HEIGHT) or square(tx, ty) == p.at:
        return None
    return Declaration(p.id, "bomb", target=NAMES[square(tx, ty)])


def _run(state: MatchState, p: Player) -> Declaration:
    """A move towards the ball, or with the ball towards the end zone it attacks."""
    at = p.at
    assert at is not None
    x, y = divmod(at, HEIGHT)
    if state.carrier == p.id:
        gx, gy = (WIDTH - 1 if p.team == "home" else 0), y
    else:
        ball = state.ball_at
        assert ball is not None
        gx, gy = divmod(ball, HEIGHT)
    path: list[str] = []
    board = state.board
    budget = p.ma if p.state == "standing" else max(p.ma - 3, 0)
    for _ in range(budget):
        if x == gx and y == gy:
            break
        x += (gx > x) - (gx < x)
        y += (gy > y) - (gy < y)
        sq = x * HEIGHT + y  # ``square(x, y)``
        if sq in board:
            break
        path.append(NAMES[sq])
    return Declaration(p.id, "move", tuple(path))


def _pass_candidates(state: MatchState, p: Player, rng: random.Random) -> list[Declaration]:
    assert p.at is not None
    mates = [
        q
        for q in state.players.values()
        if q.team == p.team and q.id != p.id and q.at is not None and pass_band(p.at, q.at)
    ]
    out = [Declaration(p.id, "pass", target=q.id) for q in rng.sample(mates, min(2, len(mates)))]
    x = rng.randrange(WIDTH)
    y = rng.randrange(HEIGHT)
    if pass_band(p.at, square(x, y)) and square(x, y) != p.at:
        out.append(Declaration(p.id, "pass", target=NAMES[square(x, y)]))
    return out


def random_setup(state: MatchState, rng: random.Random) -> tuple[Actor, Declaration]:
    rs = ruleset_for(state)
    receiving = other(state.kicking)
    if state.phase == "setup":
        team = state.kicking if not team_complete(state, state.kicking, rs.sides()) else receiving
    elif state.phase == "perfect_defence":
        team = state.kicking
    else:
        team = receiving
    need = [s for s in sides_needed(state, team, rs.sides()) if s not in state.teams[team].posted]
    side = need[0] if need else rs.sides()[0]
    split = len(rs.sides()) > 1
    mine = [p for p in state.players.values() if p.team == team and (not split or p.side == side)]
    if state.phase == "perfect_defence":
        placements = {p.id: NAMES[p.at] for p in mine if p.at is not None}
    elif state.phase == "quick_snap":
        placements = {}
        taken = set(state.board)
        for p in mine:
            if p.at is None or p.state != "standing" or rng.random() < 0.5:
                continue
            free = [s for s in NEIGHBOURS[p.at] if s not in taken]
            if free:
                sq = rng.choice(free)
                taken.add(sq)
                taken.discard(p.at)
                placements[p.id] = NAMES[sq]
    else:
        plan = formation(state, team)
        ids = {p.id for p in mine}
        placements = {pid: sq for pid, sq in plan.items() if pid in ids}
    return Actor(team, side), Declaration(
        None, "setup", placements=tuple(sorted(placements.items()))
    )


def formation(state: MatchState, team: str) -> dict[str, str]:
    """A legal set-up for the whole team, the same for both sides of a drive: up to 11
    players, three (or all, if fewer) on the line of scrimmage, the rest in the centre."""
    seed = f"{state.half}:{state.turn}:{state.score}:{team}:{state.dice_used}"
    eligible = tuple(
        sorted([p.id for p in state.players.values() if p.team == team and can_set_up(p)])
    )
    return dict(_formation(seed, team, eligible))


@lru_cache(maxsize=64)
def _formation(seed: str, team: str, ids: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    r = random.Random(seed)
    eligible = list(ids)
    shuffle(r, eligible)
    chosen = eligible[:11]
    line = list(_LINE[team])
    shuffle(r, line)
    back = list(_BACK[team])
    shuffle(r, back)
    squares = line[: min(3, len(chosen))] + back
    return tuple((pid, NAMES[sq]) for pid, sq in zip(chosen, squares, strict=False))


def _set_up_squares(team: str, columns: range) -> tuple[int, ...]:
    """The central squares (rows 5-11) of ``columns`` counted from ``team``'s line of
    scrimmage (0 the line, 1 the column behind it...)."""
    los = los_column(team)
    step = -1 if team == "home" else 1
    return tuple(square(los + step * k, y) for k in columns for y in range(4, 11))


_LINE = {t: _set_up_squares(t, range(1)) for t in ("home", "away")}
_BACK = {t: _set_up_squares(t, range(1, 5)) for t in ("home", "away")}


def shuffle[T](r: random.Random, x: list[T]) -> None:
    """``r.shuffle(x)``: the same permutation from the same generator (CPython's algorithm,
    its ``_randbelow`` inlined, since every set-up of random play shuffles 50 items)."""
    getrandbits = r.getrandbits
    for i in reversed(range(1, len(x))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def random_policy(rng: random.Random) -> Policy:
    """Answer every decision at random from its options (``resolve``'s ``policy``)."""

    def policy(pending: Pending) -> Answer:
        return Answer(pending.kind, _pick(rng, pending.options))

    return policy


def play_one(
    state: MatchState,
    dice: Dice,
    rng: random.Random,
    timings: list[float] | None = None,
    *,
    whole: bool = False,
    replay: bool = False,
    in_place: bool = False,
    keep_events: bool = True,
    by_options: bool = False,
) -> tuple[MatchState, list[Event]]:
    """One random legal declaration, its decisions answered at random from their options:
    inline through a policy, or (``replay``) the server's way, stopping at each decision and
    resolving again with one more answer. Both read the rng and the dice alike. Inline only:
    ``in_place``, the caller drops ``state``, which is changed rather than copied;
    ``keep_events`` False, the caller drops the events, which are not even made.
    ``by_options``: the declaration is picked uniformly among ``options``' list."""
    actor, decl = choose(state, rng, whole=whole, by_options=by_options)
    if not replay:
        policy = random_policy(rng)
        if timings is None:  # (untimed: no clock reads)
            res = resolve(
                state, actor, decl, (), dice, policy, in_place=in_place, keep_events=keep_events
            )
            return res.state, res.events
        t0 = time.perf_counter()
        res = resolve(
            state, actor, decl, (), dice, policy, in_place=in_place, keep_events=keep_events
        )
        timings.append(time.perf_counter() - t0)
        return res.state, res.events
    answers: tuple[Answer, ...] = ()
    while True:
        t0 = time.perf_counter()
        res = resolve(state, actor, decl, answers, dice)
        if timings is not None:
            timings.append(time.perf_counter() - t0)
        if res.pending is None:
            return res.state, res.events
        answers = (*answers, Answer(res.pending.kind, _pick(rng, res.pending.options)))


def play_random_turns(
    state: MatchState, dice: Dice, rng: random.Random, max_declarations: int
) -> Played:
    out = Played(state)
    for _ in range(max_declarations):
        out.state, evs = play_one(out.state, dice, rng, out.timings)
        out.events.extend(evs)
        out.declarations += 1
    return out


def random_sheet(rng: random.Random, prefix: str) -> TeamSheet:
    """A random roster of 11 to 16 players with random skills and sides."""
    skills = _IMPLEMENTED
    r = rng.random

    def upto(low: int, high: int) -> int:  # ``rng.randint`` for this hot path
        return low + int(r() * (high - low + 1))

    players = tuple(
        PlayerSheet(
            id=f"{prefix}{n}",
            number=n,
            ma=upto(3, 8),
            st=upto(2, 5),
            ag=upto(1, 4),
            av=upto(7, 9),
            skills=tuple(_sample(rng, skills, upto(0, 2))),
            side="captain" if r() < 0.5 else "rival",
        )
        for n in range(1, upto(11, 16) + 1)
    )
    sheet = TeamSheet(
        players,
        rerolls=rng.randint(0, 4),
        apothecary=rng.random() < 0.5,
        fan_factor=rng.randint(0, 9),
        cheerleaders=rng.randint(0, 3),
        assistant_coaches=rng.randint(0, 3),
    )
    return with_random_inducements(sheet, rng)


def with_random_inducements(
    sheet: TeamSheet, rng: random.Random, wandering: bool = True
) -> TeamSheet:
    """Seed 003's in-match inducements within their limits (bribes and Igor apart)."""
    return dataclasses.replace(
        sheet,
        babes=rng.choice((0, 0, 1, 2)),
        chefs=int(rng.random() < 0.2),
        wandering_apothecaries=rng.choice((0, 0, 1, 2)) if wandering else 0,
        extra_training=rng.choice((0, 0, 1)),
    )


def human_sheet(prefix: str) -> TeamSheet:
    """A plain LRB5 Human team, the same every time: 2 Blitzers, 2 Catchers, a Thrower and 6
    Linemen with their starting skills, 3 team rerolls and an apothecary (1,000,000 gp less
    a little); no skill gained, no inducement, all on the captain's side."""
    from rules import gamedata

    by_id = {q.id: q for q in gamedata.race("human").positions}
    order = ["blitzer"] * 2 + ["catcher"] * 2 + ["thrower"] + ["lineman"] * 6
    players = tuple(
        PlayerSheet(f"{prefix}{n}", n, q.ma, q.st, q.ag, q.av, tuple(q.skills), position=q.id)
        for n, q in enumerate((by_id[f"human.{o}"] for o in order), start=1)
    )
    return TeamSheet(players, rerolls=3, apothecary=True, race="human")


def race_sheet(rng: random.Random, race_id: str, prefix: str) -> TeamSheet:
    """A random legal roster of a race from ``rules.gamedata``: 11 to 16 players within the
    positions' limits and 1,000,000 gp (rerolls and an apothecary included), each with up to
    two skills gained from its normal skill access, sometimes a star player (Loner added),
    bribes, Igor and the Necromancer as the race allows."""
    from rules import gamedata

    race = gamedata.race(race_id)
    budget = gamedata.team_building().treasury
    rerolls = rng.randint(0, 3)
    budget -= rerolls * race.reroll_cost
    apothecary = race.apothecary_allowed and rng.random() < 0.5
    if apothecary:
        budget -= gamedata.team_building().apothecary_cost
    cheapest = min((q for q in race.positions if q.max_qty >= 11), key=lambda q: q.cost)
    size = rng.randint(11, 16)
    while rerolls and budget < size * cheapest.cost:
        rerolls -= 1
        budget += race.reroll_cost
    if apothecary and budget < size * cheapest.cost:
        apothecary = False
        budget += gamedata.team_building().apothecary_cost
    size = max(11, min(size, budget // cheapest.cost))
    taken: dict[str, int] = {}
    chosen: list[gamedata.Position] = []
    for n in range(size):
        rest = (size - n - 1) * cheapest.cost
        fits = [
            q for q in race.positions if taken.get(q.id, 0) < q.max_qty and q.cost + rest <= budget
        ]
        q = rng.choice(fits) if fits else cheapest
        taken[q.id] = taken.get(q.id, 0) + 1
        budget -= q.cost
        chosen.append(q)
    by_code: dict[str, list[str]] = {}
    for sk in gamedata.skills():
        by_code.setdefault(sk.category_code, []).append(sk.name)
    players = []
    for n, q in enumerate(chosen, start=1):
        pool = sorted({x for c in q.normal_categories for x in by_code.get(c, ())} - set(q.skills))
        gained = rng.sample(pool, min(len(pool), rng.choice((0, 0, 1, 2))))
        skills = set(q.skills) | set(gained)
        if "Frenzy" in skills and "Grab" in skills:
            skills.discard("Grab")
        players.append(
            PlayerSheet(
                f"{prefix}{n}",
                n,
                q.ma,
                q.st,
                q.ag,
                q.av,
                tuple(sorted(skills)),
                rng.choice(("captain", "rival")),
                position=q.id,
            )
        )
    stars = gamedata.star_players_for(race.id)
    if stars and rng.random() < 0.3:
        sp = rng.choice(stars)
        n = len(players) + 1
        players.append(
            PlayerSheet(
                f"{prefix}{n}",
                n,
                sp.ma,
                sp.st,
                sp.ag,
                sp.av,
                sp.skills,
                rng.choice(("captain", "rival")),
                name=sp.name,
                star=True,
            )
        )
    sheet = TeamSheet(
        tuple(players),
        rerolls=rerolls,
        apothecary=apothecary,
        fan_factor=rng.randint(0, 9),
        cheerleaders=rng.randint(0, 3),
        assistant_coaches=rng.randint(0, 3),
        race=race.id,
        bribes=rng.randint(0, 2),
        igor=race.igor_allowed and rng.random() < 0.5,
        necromancer=race.necromancer,
    )
    return with_random_inducements(sheet, rng, wandering=race.apothecary_allowed)


def play_match(
    dice: Dice,
    rng: random.Random,
    house_rules: bool = True,
    max_declarations: int = 20000,
    check: object = None,
    races: tuple[str, str] | None = None,
    *,
    keep_events: bool = True,
    timed: bool = False,
    replay: bool = False,
    sheets: tuple[TeamSheet, TeamSheet] | None = None,
    overtime: bool = True,
    copied: bool = False,
    by_options: bool = False,
) -> Played:
    """A whole random legal match from ``new_match`` to the final whistle (random stats, or
    rosters of the two ``races``, or the two ``sheets``). ``keep_events``: collect every event
    in ``events``; ``timed``: each resolution's time in ``timings``; ``replay``: answer
    decisions the server's way (stop and resolve again) instead of inline; ``overtime``: False,
    a tie at full time is a draw; ``copied``: each declaration resolved on a copy of the state,
    as the server does (not in place); ``by_options``: declarations picked uniformly among
    ``options``' list (as a bot picks) instead of by the quick sampler."""
    if sheets is not None:
        home, away = sheets
    elif races is None:
        home, away = random_sheet(rng, "h"), random_sheet(rng, "a")
    else:
        home, away = race_sheet(rng, races[0], "h"), race_sheet(rng, races[1], "a")
    state = new_match(home, away, house_rules, overtime)
    out = Played(state)
    timings = out.timings if timed else None
    make_events = keep_events or callable(check)
    declarations = 0
    while state.phase != "finished":
        if declarations >= max_declarations:
            raise RuntimeError("a random match did not end")
        state, evs = play_one(
            state,
            dice,
            rng,
            timings,
            whole=True,
            replay=replay,
            in_place=not copied,  # each state is dropped for the next one
            keep_events=make_events,
            by_options=by_options,
        )
        declarations += 1
        if keep_events:
            out.events.extend(evs)
        if callable(check):
            check(state, evs)
    out.state = state
    out.declarations = declarations
    return out


def random_position(rng: random.Random, house_rules: bool = True, per_team: int = 11) -> MatchState:
    """A random legal position: up to 11 players a team on distinct squares, random skills,
    states and sides, the ball carried or on the ground."""
    skills = implemented()
    squares = rng.sample(range(WIDTH * HEIGHT), 2 * per_team)
    players = []
    for i, sq in enumerate(squares):
        team = "home" if i < per_team else "away"
        players.append(
            {
                "id": f"{team[0]}{i % per_team + 1}",
                "team": team,
                "side": rng.choice(("captain", "rival")),
                "number": i % per_team + 1,
                "ma": rng.randint(2, 9),
                "st": rng.randint(1, 6),
                "ag": rng.randint(1, 5),
                "av": rng.randint(6, 10),
                "skills": rng.sample(skills, rng.randint(0, 3)),
                "at": NAMES[sq],
                "state": rng.choice(("standing",) * 6 + ("prone", "stunned")),
            }
        )
    standing = [p for p in players if p["state"] == "standing"]
    ball: dict[str, str] = {}
    if standing and rng.random() < 0.5:
        ball = {"carrier": str(rng.choice(standing)["id"])}
    else:
        free = [s for s in range(WIDTH * HEIGHT) if s not in squares]
        ball = {"at": NAMES[rng.choice(free)]}
    setup = {
        "active": rng.choice(("home", "away")),
        "weather": rng.choice(("nice", "blizzard", "pouring_rain")),
        "teams": {
            t: {"rerolls": rng.randint(0, 3), "apothecary": rng.random() < 0.5}
            for t in ("home", "away")
        },
        "players": players,
        "ball": ball,
    }
    return MatchState.from_setup(setup, house_rules)
