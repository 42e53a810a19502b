"""The benchmark: declarations resolved per second in random legal play (a figure to print,
never an assertion)."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from .actions import Actor
from .dice import FairDice
from .options import PlayerOptions, TurnOptions, options, reach
from .randomplay import Played, human_sheet, play_match, play_random_turns, random_position
from .state import MatchState


def run(games: int = 20, declarations: int = 200, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    timings: list[float] = []
    total = 0
    t0 = time.perf_counter()
    for g in range(games):
        state = random_position(rng, house_rules=g % 2 == 0)
        played = play_random_turns(state, FairDice(b"bench-seed", f"bench-{g}"), rng, declarations)
        timings.extend(played.timings)
        total += played.declarations
    wall = time.perf_counter() - t0
    resolve_time = sum(timings)
    return {
        "declarations": float(total),
        "resolutions": float(len(timings)),
        "per_second": len(timings) / resolve_time if resolve_time else 0.0,
        "median_us": statistics.median(timings) * 1e6 if timings else 0.0,
        "p90_us": statistics.quantiles(timings, n=10)[-1] * 1e6 if len(timings) > 1 else 0.0,
        "wall_s": wall,
    }


def report(figures: dict[str, float]) -> str:
    return (
        f"{int(figures['resolutions'])} resolutions of {int(figures['declarations'])} random "
        f"legal declarations: {figures['per_second']:,.0f} per second, median "
        f"{figures['median_us']:.1f} us, p90 {figures['p90_us']:.1f} us per resolution "
        f"(wall {figures['wall_s']:.2f} s including move generation and FairDice)"
    )


def _timed(matches: int, play: Callable[[int], Played]) -> tuple[float, list[Played]]:
    """Play ``matches`` matches (``play(m)`` plays the m-th) and the CPU time they took."""
    cpu = 0.0
    played = []
    for m in range(matches):
        t0 = time.process_time()
        played.append(play(m))
        cpu += time.process_time() - t0
    return cpu, played


def _rates(cpu: float, played: list[Played]) -> dict[str, float]:
    declarations = sum(p.declarations for p in played)
    return {
        "matches": float(len(played)),
        "matches_per_second": len(played) / cpu,
        "declarations_per_second": declarations / cpu,
        "declarations_per_match": declarations / len(played),
        "cpu_s": cpu,
    }


def run_matches(matches: int = 200, seed: int = 1, replay: bool = False) -> dict[str, float]:
    """Whole random legal matches, new_match to the final whistle, in one process. Timed in
    CPU time (``time.process_time``: the figure holds on a loaded machine). Decisions are
    answered inline (``resolve``'s policy), or the server's way with ``replay``."""
    rng = random.Random(seed)
    cpu, played = _timed(  # playing only: measuring the state's size is not part of a match
        matches,
        lambda m: play_match(
            FairDice(b"bench-seed", f"match-{m}"),
            rng,
            house_rules=m % 2 == 0,
            keep_events=False,
            replay=replay,
        ),
    )
    sizes = [len(json.dumps(p.state.to_json(compact=True), separators=(",", ":"))) for p in played]
    full = [len(json.dumps(p.state.to_json(), separators=(",", ":"))) for p in played]
    return {
        **_rates(cpu, played),
        "state_bytes_max": float(max(sizes)),
        "state_bytes_median": float(statistics.median(sizes)),
        "full_state_bytes_max": float(max(full)),
        "replay": float(replay),
    }


def report_matches(f: dict[str, float]) -> str:
    return (
        f"{int(f['matches'])} whole random matches"
        f"{' (decisions by replay)' if f.get('replay') else ''}: "
        f"{f['matches_per_second']:,.0f} matches per CPU second, "
        f"{f['declarations_per_second']:,.0f} declarations per second "
        f"({f['declarations_per_match']:.0f} per match, CPU {f['cpu_s']:.2f} s); match state "
        f"as compact JSON: median {f['state_bytes_median'] / 1024:.1f} KiB, max "
        f"{f['state_bytes_max'] / 1024:.1f} KiB (full form max "
        f"{f['full_state_bytes_max'] / 1024:.1f} KiB)"
    )


def run_plain(matches: int = 50, seed: int = 1) -> dict[str, float]:
    """The figure to compare with other engines: two fixed plain Human teams
    (``human_sheet``), no house rules, no overtime, every event kept and the state copied for
    each declaration as the server does. CPU time."""
    rng = random.Random(seed)
    sheets = (human_sheet("h"), human_sheet("a"))
    return _rates(
        *_timed(
            matches,
            lambda m: play_match(
                FairDice(b"bench-seed", f"plain-{m}"),
                rng,
                house_rules=False,
                sheets=sheets,
                overtime=False,
                keep_events=True,
                copied=True,
            ),
        )
    )


def report_plain(f: dict[str, float]) -> str:
    return (
        f"{int(f['matches'])} plain matches (two fixed Human teams, LRB5 without house rules, "
        f"no overtime, events kept, state copied per declaration): "
        f"{f['matches_per_second']:,.1f} matches per CPU second, "
        f"{f['declarations_per_second']:,.0f} declarations per second "
        f"({f['declarations_per_match']:.0f} per match, CPU {f['cpu_s']:.2f} s)"
    )


def _positions(games: int, declarations: int, seed: int) -> list[MatchState]:
    """The benchmark's positions (``run``'s): random positions after some random play."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = random_position(rng, house_rules=g % 2 == 0)
        dice = FairDice(b"bench-seed", f"bench-{g}")
        for _ in range(4):
            state = play_random_turns(state, dice, rng, declarations // 4).state
            out.append(state)
    return out


_RUNS = 3  # each call of the options benchmark is timed this many times


def _best(call: Callable[[], object]) -> tuple[float, float]:
    """The CPU time of ``call``'s first run and the least of ``_RUNS`` runs (as ``timeit``
    advises: on a shared machine the others measure the machine's load as well)."""
    clock = time.process_time
    times = []
    for _ in range(_RUNS):
        t0 = clock()
        call()
        times.append(clock() - t0)
    return times[0], min(times)


def run_options(games: int = 20, declarations: int = 200, seed: int = 1) -> dict[str, float]:
    """``options`` on the benchmark's positions, CPU time per call, the least of ``_RUNS``
    runs (the first runs' median beside it): one player's squares with their chances (the
    safest path of any of them is read on demand: its median too); the acting side's players
    and their actions; and the acting side's every option (each player's squares and
    targets)."""
    clock = time.process_time
    t0 = clock()
    sum(range(10**6))  # a fixed pure-Python loop: the scale of this machine's CPU right now
    calibration = clock() - t0
    times: dict[str, list[float]] = {
        k: [] for k in ("one", "one_first", "path", "side", "every", "every_first")
    }
    for state in _positions(games, declarations, seed):
        for s in ("captain", "rival") if state.house_rules else ("captain",):
            actor = Actor(state.active, s)
            times["side"].append(_best(partial(options, state, actor))[1])
            turn = options(state, actor)
            first, best = _best(partial(_every, turn))
            times["every_first"].append(first)
            times["every"].append(best)
            for pid in turn.players:
                first, best = _best(partial(_squares, turn, pid))
                times["one_first"].append(first)
                times["one"].append(best)
                r = reach(state, pid)
                if r is not None and r.squares:
                    far = next(reversed(r.squares))  # the least likely square: a long path
                    t0 = clock()  # (one run: a path is traced once, then kept)
                    r.path(far)
                    times["path"].append(clock() - t0)
    one, every = times["one"], times["every"]
    return {
        "players": float(len(one)),
        "reach_median_us": statistics.median(one) * 1e6,
        "reach_p90_us": statistics.quantiles(one, n=10)[-1] * 1e6,
        "reach_first_median_us": statistics.median(times["one_first"]) * 1e6,
        "path_median_us": statistics.median(times["path"]) * 1e6,
        "side_median_us": statistics.median(times["side"]) * 1e6,
        "every_median_us": statistics.median(every) * 1e6,
        "every_p90_us": statistics.quantiles(every, n=10)[-1] * 1e6,
        "every_first_median_us": statistics.median(times["every_first"]) * 1e6,
        "calibration_ms": calibration * 1e3,
    }


def _every(turn: TurnOptions) -> list[PlayerOptions]:
    """Every player's squares and targets."""
    return [turn.player(pid) for pid in turn.players]


def _squares(turn: TurnOptions, pid: str) -> dict[str, float]:
    """One player's reachable squares with the chance of each (the search and the names), the
    state's occupied squares and tackle zones read once for the turn's players."""
    r = turn.reach(pid)
    return r.squares if r is not None else {}


def report_options(f: dict[str, float]) -> str:
    return (
        f"options on {int(f['players'])} players' turns (CPU time, the least of {_RUNS} runs; "
        f"first runs in brackets): one player's reachable squares with their chances (the "
        f"state's tackle zones read once for the turn's players), median "
        f"{f['reach_median_us']:.0f} us [{f['reach_first_median_us']:.0f} us] (p90 "
        f"{f['reach_p90_us']:.0f} us), a safest path read from them {f['path_median_us']:.0f} "
        f"us; the acting side's players and actions, median {f['side_median_us']:.0f} us; "
        f"every option of the acting side (each player's squares and targets), median "
        f"{f['every_median_us']:.0f} us [{f['every_first_median_us']:.0f} us] (p90 "
        f"{f['every_p90_us']:.0f} us); this CPU now: sum(range(10**6)) in "
        f"{f['calibration_ms']:.0f} ms"
    )


def run_options_matches(matches: int = 10, seed: int = 1) -> dict[str, float]:
    """Whole matches by a random player picking uniformly among ``options``' list, with the
    sampler's mixed rosters (``run_matches``); CPU time."""
    rng = random.Random(seed)
    return _rates(
        *_timed(
            matches,
            lambda m: play_match(
                FairDice(b"bench-seed", f"options-{m}"),
                rng,
                house_rules=m % 2 == 0,
                keep_events=False,
                by_options=True,
            ),
        )
    )


def report_options_matches(f: dict[str, float], sampler: dict[str, float]) -> str:
    return (
        f"{int(f['matches'])} whole matches picking uniformly among options' list: "
        f"{f['matches_per_second']:,.2f} matches per CPU second "
        f"({f['declarations_per_match']:.0f} declarations per match, "
        f"{f['declarations_per_second']:,.0f} per second), beside the sampler's "
        f"{sampler['matches_per_second']:,.0f} matches per CPU second"
    )


def main() -> int:
    print(report(run()))
    sampler = run_matches()
    print(report_matches(sampler))
    print(report_plain(run_plain()))
    print(report_options(run_options()))
    print(report_options_matches(run_options_matches(), sampler))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
