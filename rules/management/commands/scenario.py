from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.engine.scenario import main


class Command(BaseCommand):
    help = (
        "Run rules scenario files (SCENARIOS.md): one JSON line per file; exit 0 when all pass, "
        "1 when an expectation fails, 2 for an invalid file (not a scenario, not JSON or nested "
        "too deep: one line on stderr each)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="scenario files or folders")

    def handle(self, *args: Any, **options: Any) -> None:
        code = main(list(options["paths"]))
        if code:
            raise SystemExit(code)
