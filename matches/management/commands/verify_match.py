import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.verification.exports import verify


class Command(BaseCommand):
    help = (
        "Check an exported match: its hash chain and, once the seed is revealed, every roll "
        "(the match's and its pre- and post-match sequence's) recomputed from the seed and "
        "every event replayed, the GM's rulings included; with --head, against a receipt. Exits 1 "
        "on any mismatch, when the seed is not revealed, or when the file is not a match "
        "export (unreadable, not JSON, nested too deep), saying so in one line."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--head",
            metavar="RECEIPT",
            help="a receipt of the match's record (the match page, an e-mail, the post-match "
            "report): the file must hold the events, posts and teams it was taken on",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = json.loads(options["file"].read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"{options['file']}: {error.strerror or error}") from None
        except ValueError as error:  # not UTF-8, or not JSON
            raise CommandError(f"{options['file']} is not valid JSON: {error}") from None
        except RecursionError:
            raise CommandError(f"{options['file']} is not valid JSON: nested too deep") from None
        if not isinstance(data, dict):
            raise CommandError(f"{options['file']} is not a match export: not a JSON object")
        try:
            result = verify(data, options["head"])
        except (AttributeError, KeyError, TypeError, ValueError, RecursionError) as error:
            raise CommandError(f"{options['file']} is not a match export: {error!r}") from None
        for problem in result.problems:
            self.stderr.write(problem)
        if result.problems:
            raise CommandError(f"{len(result.problems)} problem(s): the record does not verify.")
        if not result.seed_revealed:
            raise CommandError(
                f"The hash chain of the {result.events} events is intact, but the seed is not "
                "revealed yet (it is when the match ends): no roll could be verified."
            )
        values = (
            " The post-match figures, the team values included, are recomputed from the events."
            if result.values_itemised
            else " The post-match figures are recomputed from the events; the team values are "
            "checked for their arithmetic only (a record made before the rosters were "
            "itemised beside them)."
        )
        held = f" It gives back the receipt {options['head']}." if options["head"] else ""
        self.stdout.write(
            f"OK: {result.rolls} rolls and {result.sequence_rolls} sequence rolls recomputed "
            f"from the seed, and {result.events} events in an intact hash chain.{values}{held}"
        )
