"""The benchmark: declarations resolved per second in random legal play (a figure to print,
never an assertion)."""

from __future__ import annotations

import random
import statistics
import time

from .dice import FairDice
from .randomplay import play_random_turns, random_position


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


def main() -> int:
    print(report(run()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
