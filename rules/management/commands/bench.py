from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.engine import bench


class Command(BaseCommand):
    help = (
        "Resolve random legal play and whole random matches; print declarations and matches "
        "per second, the median time and the size of a match state."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--declarations", type=int, default=200)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--matches", type=int, default=200)
        parser.add_argument(
            "--replay",
            action="store_true",
            help="answer decisions the server's way (stop and resolve again), for comparison",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        figures = bench.run(options["games"], options["declarations"], options["seed"])
        self.stdout.write(bench.report(figures))
        self.stdout.write(
            bench.report_matches(
                bench.run_matches(options["matches"], options["seed"], options["replay"])
            )
        )
