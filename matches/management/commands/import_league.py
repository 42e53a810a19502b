import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.league.restore import Refused, import_league


class Command(BaseCommand):
    help = (
        "Import a league exported by export_league (or downloaded by its GM) into this bbweb, "
        "with the ids it had: every match's record must verify and be the one its rows give. "
        "People are found by username or made without a password or an e-mail. Refuses, in "
        "one line, with exit status 1 and nothing written, a file that is malformed or edited, "
        "a league already here, or ids already taken."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror or error}") from None
        except ValueError as error:  # not UTF-8, or not JSON
            raise CommandError(f"{path} is not valid JSON: {error}") from None
        except RecursionError:
            raise CommandError(f"{path} is not valid JSON: nested too deep") from None
        try:
            league = import_league(doc)
        except Refused as refused:
            raise CommandError(f"{path} is not imported: {refused}") from None
        matches = league.matches.count()
        self.stdout.write(f"League {league.name} imported (id {league.pk}): {matches} matches.")
