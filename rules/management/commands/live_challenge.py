from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.live.cli import main


class Command(BaseCommand):
    help = (
        "Resolve one 3-LIVE-BB challenge (LIVE.md): JSON in, one JSON line out; exit 0 when "
        "decided, 1 when a throw is missing, 2 for bad input (a file that is not a challenge, "
        "not JSON or nested too deep: its reason also in one line on stderr)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help='the challenge as JSON ("-": standard input)')

    def handle(self, *args: Any, **options: Any) -> None:
        code = main([options["file"]])
        if code:
            raise SystemExit(code)
