from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.engine import bench


class Command(BaseCommand):
    help = (
        "Resolve random legal play and whole random matches; print declarations and matches "
        "per second, the median time and the size of a match state; the plain Human-vs-Human "
        "figure; the cost of options and whole matches played by picking among them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--declarations", type=int, default=200)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--matches", type=int, default=200)
        parser.add_argument("--plain-matches", type=int, default=50)
        parser.add_argument("--options-matches", type=int, default=10)
        parser.add_argument(
            "--replay",
            action="store_true",
            help="answer decisions the server's way (stop and resolve again), for comparison",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        figures = bench.run(options["games"], options["declarations"], options["seed"])
        self.stdout.write(bench.report(figures))
        sampler = bench.run_matches(options["matches"], options["seed"], options["replay"])
        self.stdout.write(bench.report_matches(sampler))
        self.stdout.write(bench.report_plain(bench.run_plain(options["plain_matches"])))
        self.stdout.write(
            bench.report_options(
                bench.run_options(options["games"], options["declarations"], options["seed"])
            )
        )
        self.stdout.write(
            bench.report_options_matches(
                bench.run_options_matches(options["options_matches"], options["seed"]), sampler
            )
        )
