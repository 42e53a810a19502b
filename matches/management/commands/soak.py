import os
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tools import soak


class Command(BaseCommand):
    help = (
        "Play whole random matches with the engine, every state checked after every "
        "declaration (the ball, the players, one player a square, the score, the turn counters, "
        "the dice, the SPP), in parallel over the cores; print the figures and every violation "
        "with its seed. Exits 1 when one was found."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=1000)
        parser.add_argument("--first", type=int, default=0, help="the first match's seed")
        parser.add_argument(
            "--workers", type=int, default=os.cpu_count() or 1, help="processes (the cores)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["matches"] < 1 or options["workers"] < 1 or options["first"] < 0:
            raise CommandError("--matches and --workers count from 1, --first from 0.")
        started = time.monotonic()
        done = soak.soak(options["matches"], first=options["first"], workers=options["workers"])
        wall = time.monotonic() - started
        for violation in done.violations:
            self.stdout.write(violation.line())
        rate = done.matches / done.cpu_seconds if done.cpu_seconds else 0.0
        self.stdout.write(
            f"soak: {done.matches} matches (seeds {options['first']}-"
            f"{options['first'] + done.matches - 1}), {done.declarations} declarations, "
            f"{done.cpu_seconds:.1f} s of CPU over {options['workers']} processes, "
            f"{wall:.1f} s of wall time ({rate:.1f} matches per CPU second), "
            f"{len(done.violations)} violations"
        )
        if done.violations:
            raise CommandError(f"{len(done.violations)} violations")
