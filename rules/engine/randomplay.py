"""Random legal play, for property tests and the benchmark."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .actions import Actor, Answer, Declaration, Event
from .board import HEIGHT, NAMES, NEIGHBOURS, WIDTH, pass_band, square
from .dice import Dice
from .flow import can_set_up, los_column, sides_needed, team_complete
from .legal import legal, legal_declarations
from .match import PlayerSheet, TeamSheet, new_match
from .resolve import in_half, resolve
from .ruleset import ruleset_for
from .skills import implemented
from .state import MatchState, other


@dataclass(slots=True)
class Played:
    state: MatchState
    declarations: int = 0
    events: list[Event] = field(default_factory=list)
    timings: list[float] = field(default_factory=list)


def random_actor(state: MatchState, rng: random.Random) -> Actor:
    return Actor(state.active, rng.choice(("captain", "rival")) if state.house_rules else "captain")


def _choose(state: MatchState, rng: random.Random, *, whole: bool) -> tuple[Actor, Declaration]:
    phase = state.phase
    if phase == "pregame":
        return Actor("home", "captain"), Declaration(None, "start_match")
    if phase == "kickoff":
        receiving = other(state.kicking)
        while True:
            sq = rng.randrange(WIDTH * HEIGHT)
            if in_half(receiving, sq):
                break
        return Actor(state.kicking, "captain"), Declaration(None, "kick", target=NAMES[sq])
    if phase in ("setup", "perfect_defence", "quick_snap"):
        return _random_setup(state, rng)
    if whole:
        return _random_turn_declaration(state, rng)
    actor = random_actor(state, rng)
    options = list(legal_declarations(state, actor))
    if not options:
        actor = Actor(actor.team, "rival" if actor.side == "captain" else "captain")
        options = list(legal_declarations(state, actor)) or [Declaration(None, "end_turn")]
    return actor, rng.choice(options)


def _random_turn_declaration(state: MatchState, rng: random.Random) -> tuple[Actor, Declaration]:
    """A quick random declaration for whole matches: a random player of a side that has not
    ended, one of its candidate declarations, or the end of that side's turn."""
    rs = ruleset_for(state)
    team = state.active
    sides = [s for s in rs.sides() if s not in state.teams[team].ended]
    side = rng.choice(sides) if sides else "captain"
    actor = Actor(team, side)
    players = [
        p
        for p in state.players.values()
        if p.team == team
        and p.at is not None
        and not p.acted
        and p.state in ("standing", "prone")
        and rs.controls(team, side, p)
    ]
    if players and rng.random() < 0.75:
        p = rng.choice(players)
        for d in _quick_candidates(state, p, rng):
            if legal(state, actor, d) is None:
                return actor, d
    if rng.random() < 0.0005 and legal(state, actor, Declaration(None, "concede")) is None:
        return actor, Declaration(None, "concede")
    return actor, Declaration(None, "end_turn")


def _quick_candidates(state: MatchState, p: object, rng: random.Random) -> list[Declaration]:
    """A few random declarations for one player (cheap: no full enumeration)."""
    from .state import Player

    assert isinstance(p, Player) and p.at is not None
    out: list[Declaration] = []
    if state.carrier == p.id or (state.ball_at is not None and rng.random() < 0.5):
        out.append(_run(state, p))
    if state.carrier == p.id and rng.random() < 0.3:
        out.extend(_pass_candidates(state, p, rng))
    foes = []
    mates = []
    free = []
    for s in NEIGHBOURS[p.at]:
        oid = state.board.get(s)
        if oid is None:
            free.append(s)
        elif state.players[oid].team == p.team:
            mates.append(oid)
        else:
            foes.append(oid)
    if foes:
        f = rng.choice(foes)
        out.append(Declaration(p.id, rng.choice(("block", "blitz", "block", "foul")), (), f))
    if mates and state.carrier == p.id:
        out.append(Declaration(p.id, "hand_off", (), rng.choice(mates)))
    if free:
        s1 = rng.choice(free)
        s2 = rng.choice(NEIGHBOURS[s1])
        if s2 not in state.board and s2 != p.at:
            out.append(Declaration(p.id, "move", (NAMES[s1], NAMES[s2])))
        out.append(Declaration(p.id, "move", (NAMES[s1],)))
    out.append(Declaration(p.id, "move"))
    return out


def _run(state: MatchState, p: object) -> Declaration:
    """A move towards the ball, or with the ball towards the end zone it attacks."""
    from .state import Player

    assert isinstance(p, Player) and p.at is not None
    x, y = divmod(p.at, HEIGHT)
    if state.carrier == p.id:
        gx, gy = (WIDTH - 1 if p.team == "home" else 0), y
    else:
        assert state.ball_at is not None
        gx, gy = divmod(state.ball_at, HEIGHT)
    path: list[str] = []
    budget = p.ma if p.state == "standing" else max(p.ma - 3, 0)
    for _ in range(budget):
        if (x, y) == (gx, gy):
            break
        x += (gx > x) - (gx < x)
        y += (gy > y) - (gy < y)
        sq = square(x, y)
        if sq in state.board:
            break
        path.append(NAMES[sq])
    return Declaration(p.id, "move", tuple(path))


def _pass_candidates(state: MatchState, p: object, rng: random.Random) -> list[Declaration]:
    from .state import Player

    assert isinstance(p, Player) and p.at is not None
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


def _random_setup(state: MatchState, rng: random.Random) -> tuple[Actor, Declaration]:
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
        placements = {pid: sq for pid, sq in plan.items() if state.players[pid] in mine}
    return Actor(team, side), Declaration(
        None, "setup", placements=tuple(sorted(placements.items()))
    )


def formation(state: MatchState, team: str) -> dict[str, str]:
    """A legal set-up for the whole team, the same for both sides of a drive: up to 11
    players, three (or all, if fewer) on the line of scrimmage, the rest in the centre."""
    seed = f"{state.half}:{state.turn}:{state.score}:{team}:{state.dice_used}"
    r = random.Random(seed)
    eligible = sorted(p.id for p in state.players.values() if p.team == team and can_set_up(p))
    r.shuffle(eligible)
    chosen = eligible[:11]
    los = los_column(team)
    step = -1 if team == "home" else 1
    line = [square(los, y) for y in range(4, 11)]
    r.shuffle(line)
    back = [square(los + step * k, y) for k in range(1, 5) for y in range(4, 11)]
    r.shuffle(back)
    squares = line[: min(3, len(chosen))] + back
    return {pid: NAMES[sq] for pid, sq in zip(chosen, squares, strict=False)}


def play_one(
    state: MatchState,
    dice: Dice,
    rng: random.Random,
    timings: list[float] | None = None,
    *,
    whole: bool = False,
) -> tuple[MatchState, list[Event]]:
    """One random legal declaration, its decisions answered at random from their options."""
    actor, decl = _choose(state, rng, whole=whole)
    answers: tuple[Answer, ...] = ()
    events: list[Event] = []
    while True:
        t0 = time.perf_counter()
        res = resolve(state, actor, decl, answers, dice)
        if timings is not None:
            timings.append(time.perf_counter() - t0)
        if res.pending is None:
            events.extend(res.events)
            return res.state, events
        answers = (*answers, Answer(res.pending.kind, rng.choice(res.pending.options)))


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
    skills = implemented()
    players = tuple(
        PlayerSheet(
            id=f"{prefix}{n}",
            number=n,
            ma=rng.randint(3, 8),
            st=rng.randint(2, 5),
            ag=rng.randint(1, 4),
            av=rng.randint(7, 9),
            skills=tuple(rng.sample(skills, rng.randint(0, 2))),
            side=rng.choice(("captain", "rival")),
        )
        for n in range(1, rng.randint(11, 16) + 1)
    )
    return TeamSheet(
        players,
        rerolls=rng.randint(0, 4),
        apothecary=rng.random() < 0.5,
        fan_factor=rng.randint(0, 9),
        cheerleaders=rng.randint(0, 3),
        assistant_coaches=rng.randint(0, 3),
    )


def play_match(
    dice: Dice,
    rng: random.Random,
    house_rules: bool = True,
    max_declarations: int = 20000,
    check: object = None,
) -> Played:
    """A whole random legal match from ``new_match`` to the final whistle."""
    state = new_match(random_sheet(rng, "h"), random_sheet(rng, "a"), house_rules)
    out = Played(state)
    while out.state.phase != "finished":
        if out.declarations >= max_declarations:
            raise RuntimeError("a random match did not end")
        out.state, evs = play_one(out.state, dice, rng, out.timings, whole=True)
        out.events.extend(evs)
        out.declarations += 1
        if callable(check):
            check(out.state, evs)
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
