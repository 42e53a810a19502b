"""Random legal play, for property tests and the benchmark."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .actions import Actor, Answer, Declaration, Event
from .board import HEIGHT, NAMES, WIDTH
from .dice import Dice
from .legal import legal_declarations
from .resolve import resolve
from .skills import implemented
from .state import MatchState


@dataclass(slots=True)
class Played:
    state: MatchState
    declarations: int = 0
    events: list[Event] = field(default_factory=list)
    timings: list[float] = field(default_factory=list)


def random_actor(state: MatchState, rng: random.Random) -> Actor:
    return Actor(state.active, rng.choice(("captain", "rival")) if state.house_rules else "captain")


def play_one(
    state: MatchState, dice: Dice, rng: random.Random, timings: list[float] | None = None
) -> tuple[MatchState, list[Event]]:
    """One random legal declaration, its decisions answered at random from their options."""
    actor = random_actor(state, rng)
    options = list(legal_declarations(state, actor))
    if not options:
        other_side = Actor(actor.team, "rival" if actor.side == "captain" else "captain")
        actor = other_side
        options = list(legal_declarations(state, actor)) or [Declaration(None, "end_turn")]
    decl = rng.choice(options)
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
