from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.live.cli import main


class Command(BaseCommand):
    help = "Resolve one 3-LIVE-BB challenge (LIVE.md): JSON in, one JSON line out; exit 0, 1, 2."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help='the challenge as JSON ("-": standard input)')

    def handle(self, *args: Any, **options: Any) -> None:
        code = main([options["file"]])
        if code:
            raise SystemExit(code)
