"""The soak (``manage.py soak``): whole random matches played by the engine, every state
checked after every declaration, in parallel over the machine's cores.

A match is its seed: ``random.Random(seed)`` draws the rosters (random skill sheets, or two
random races' rosters for one match in three) and the declarations, ``FairDice(b"soak", ...)``
the dice, so any violation printed with its seed is played again exactly by ``--first SEED
--matches 1``. What is checked after each declaration:

- the ball: at most one, a carrier standing on the pitch, a loose ball on an empty square, and
  in the play phase a ball on the pitch (carried or lying);
- the players: none gained or lost, at most 11 a team on the pitch, a player on the pitch
  exactly when its state says so, one player a square and the board agreeing with them;
- the score against the touchdowns the events tell, team by team;
- the turn counters: within the half's eight turns while it is played (a Riot may push them
  past its end, which ends it), the active team's started, the half 1 to 3;
- the dice: every face read shown in an event;
- the star player points: ``matches.record.spp`` over the events so far gives each team as many
  touchdowns as its score, and only to its own players.
"""

import os
import random
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from matches.record import spp
from rules import gamedata
from rules.engine import FairDice, MatchState
from rules.engine.actions import Event
from rules.engine.randomplay import play_match
from rules.engine.state import ON_PITCH

TURNS_PER_HALF = 8
RACES = tuple(r.id for r in gamedata.races())


@dataclass(frozen=True)
class Violation:
    seed: int
    declaration: int
    what: str

    def line(self) -> str:
        return f"seed {self.seed}, declaration {self.declaration}: {self.what}"


@dataclass
class Soaked:
    matches: int = 0
    declarations: int = 0
    cpu_seconds: float = 0.0
    violations: list[Violation] = field(default_factory=list)

    def add(self, other: "Soaked") -> None:
        self.matches += other.matches
        self.declarations += other.declarations
        self.cpu_seconds += other.cpu_seconds
        self.violations += other.violations


class Watcher:
    """The checks of one match, called after each of its declarations."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.declarations = 0
        self.dice = 0
        self.events: list[tuple[str, dict[str, object]]] = []
        self.players: frozenset[str] | None = None
        self.violations: list[Violation] = []

    def __call__(self, state: MatchState, events: list[Event]) -> None:
        self.declarations += 1
        self.events += [(e.type, e.data) for e in events]
        if self.players is None:
            self.players = frozenset(state.players)
        for what in self.problems(state, events):
            self.violations.append(Violation(self.seed, self.declarations, what))

    def problems(self, state: MatchState, events: list[Event]) -> Iterator[str]:
        yield from _ball(state)
        yield from _players(state, self.players or frozenset())
        yield from _turns(state)
        faces = sum(len(e.data.get("faces", ())) for e in events)
        if state.dice_used - self.dice != faces:
            yield f"{state.dice_used - self.dice} dice read, {faces} shown in the events"
        self.dice = state.dice_used
        yield from _score_and_spp(state, self.events)


def _ball(state: MatchState) -> Iterator[str]:
    if state.carrier is not None and state.ball_at is not None:
        yield "the ball is carried and lying at once"
    if state.carrier is not None:
        carrier = state.players[state.carrier]
        if carrier.at is None or carrier.state != "standing":
            yield f"the ball is held by {carrier.id}, {carrier.state} and off the square grid"
    elif state.ball_at is not None and state.ball_at in state.board:
        yield f"the loose ball lies under {state.board[state.ball_at]}"
    if state.phase == "play" and state.carrier is None and state.ball_at is None:
        yield "no ball on the pitch in the play phase"


def _players(state: MatchState, players: frozenset[str]) -> Iterator[str]:
    now = frozenset(state.players)
    if not players <= now:
        yield f"players gone from the match: {sorted(players - now)}"
    for team in ("home", "away"):
        on = sum(1 for p in state.players.values() if p.team == team and p.at is not None)
        if on > 11:
            yield f"{on} {team} players on the pitch"
    for p in state.players.values():
        if (p.at is not None) != (p.state in ON_PITCH):
            yield f"{p.id} is {p.state} with square {p.at}"
    squares = Counter(p.at for p in state.players.values() if p.at is not None)
    shared = [sq for sq, n in squares.items() if n > 1]
    if shared:
        yield f"two players on one square: {shared}"
    if state.board != {p.at: pid for pid, p in state.players.items() if p.at is not None}:
        yield "the board disagrees with the players' squares"


def _turns(state: MatchState) -> Iterator[str]:
    if state.half not in (1, 2, 3):
        yield f"half {state.half}"
    # A Riot moves the turn markers on by up to three and ends the half when they pass its
    # end (seed 000), so a counter past 8 is checked only while the half is played.
    for team, turn in state.turn.items():
        if turn < 0 or (state.phase == "play" and turn > TURNS_PER_HALF):
            yield f"{team}'s turn counter is {turn}"
    if state.phase == "play" and state.turn[state.active] < 1:
        yield f"{state.active} plays turn {state.turn[state.active]}"


def _score_and_spp(state: MatchState, events: list[tuple[str, dict[str, object]]]) -> Iterator[str]:
    scored: Counter[str] = Counter(
        str(data.get("team")) for kind, data in events if kind == "touchdown"
    )
    earned: Counter[str] = Counter()
    for player, counts in spp.achievements(events).items():
        if player not in state.players:
            yield f"SPP for {player}, who is not in the match"
            continue
        earned[state.players[player].team] += counts["touchdowns"]
        if spp.team_of(player) != state.players[player].team:
            yield f"SPP for {player} counted to the other team"
    awarded = Counter(
        str(data.get("team"))
        for kind, data in events
        if kind == "touchdown" and data.get("awarded")
    )
    for team in ("home", "away"):
        if state.score[team] != scored[team]:
            yield f"{team} scored {state.score[team]}, the events tell {scored[team]} touchdowns"
        if earned[team] + awarded[team] != scored[team]:
            yield f"{team}'s SPP count {earned[team]} touchdowns for {scored[team]} scored"


def play(seed: int) -> tuple[int, list[Violation]]:
    """One soaked match: its declarations and what it broke (a crash is a violation too)."""
    rng = random.Random(seed)
    races = (rng.choice(RACES), rng.choice(RACES)) if seed % 3 == 2 else None
    watcher = Watcher(seed)
    try:
        played = play_match(
            FairDice(b"soak", f"match-{seed}"),
            rng,
            house_rules=seed % 2 == 0,
            check=watcher,
            races=races,
            keep_events=False,
        )
    except Exception as error:  # a crash or a match that never ends is a finding, not a stop
        return watcher.declarations, [
            *watcher.violations,
            Violation(seed, watcher.declarations + 1, f"{type(error).__name__}: {error}"),
        ]
    if played.state.result is None or played.state.result.get("score") != played.state.score:
        watcher.violations.append(Violation(seed, watcher.declarations, "no final result"))
    return watcher.declarations, watcher.violations


def soak_range(seeds: range) -> Soaked:
    """The matches of ``seeds`` in this process."""
    out = Soaked()
    started = time.process_time()
    for seed in seeds:
        declarations, violations = play(seed)
        out.matches += 1
        out.declarations += declarations
        out.violations += violations
    out.cpu_seconds = time.process_time() - started
    return out


def chunks(first: int, matches: int, size: int) -> list[range]:
    return [range(s, min(s + size, first + matches)) for s in range(first, first + matches, size)]


def soak(matches: int, *, first: int = 0, workers: int | None = None, chunk: int = 50) -> Soaked:
    """``matches`` matches from seed ``first``, over ``workers`` processes (the cores)."""
    workers = workers or os.cpu_count() or 1
    total = Soaked()
    parts = chunks(first, matches, chunk)
    if workers == 1:
        for part in parts:
            total.add(soak_range(part))
        return total
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for done in pool.map(soak_range, parts):
            total.add(done)
    return total
