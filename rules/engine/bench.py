"""The benchmark: declarations resolved per second in random legal play (a figure to print,
never an assertion)."""

from __future__ import annotations

import json
import random
import statistics
import time

from .dice import FairDice
from .randomplay import play_match, play_random_turns, random_position


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


def run_matches(matches: int = 200, seed: int = 1, replay: bool = False) -> dict[str, float]:
    """Whole random legal matches, new_match to the final whistle, in one process. Timed in
    CPU time (``time.process_time``: the figure holds on a loaded machine). Decisions are
    answered inline (``resolve``'s policy), or the server's way with ``replay``."""
    rng = random.Random(seed)
    declarations = 0
    sizes: list[int] = []
    full: list[int] = []
    wall = 0.0  # playing only: measuring the state's size is not part of a match
    for m in range(matches):
        t0 = time.process_time()
        played = play_match(
            FairDice(b"bench-seed", f"match-{m}"),
            rng,
            house_rules=m % 2 == 0,
            keep_events=False,
            replay=replay,
        )
        wall += time.process_time() - t0
        declarations += played.declarations
        sizes.append(len(json.dumps(played.state.to_json(compact=True), separators=(",", ":"))))
        full.append(len(json.dumps(played.state.to_json(), separators=(",", ":"))))
    return {
        "matches": float(matches),
        "matches_per_second": matches / wall,
        "declarations_per_second": declarations / wall,
        "declarations_per_match": declarations / matches,
        "state_bytes_max": float(max(sizes)),
        "state_bytes_median": float(statistics.median(sizes)),
        "full_state_bytes_max": float(max(full)),
        "wall_s": wall,
        "replay": float(replay),
    }


def report_matches(f: dict[str, float]) -> str:
    return (
        f"{int(f['matches'])} whole random matches"
        f"{' (decisions by replay)' if f.get('replay') else ''}: "
        f"{f['matches_per_second']:,.0f} matches per CPU second, "
        f"{f['declarations_per_second']:,.0f} declarations per second "
        f"({f['declarations_per_match']:.0f} per match, CPU {f['wall_s']:.2f} s); match state "
        f"as compact JSON: median {f['state_bytes_median'] / 1024:.1f} KiB, max "
        f"{f['state_bytes_max'] / 1024:.1f} KiB (full form max "
        f"{f['full_state_bytes_max'] / 1024:.1f} KiB)"
    )


def main() -> int:
    print(report(run()))
    print(report_matches(run_matches()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
