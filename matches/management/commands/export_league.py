import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.json import DjangoJSONEncoder

from matches.league.archive import export_league
from teams.models import League


class Command(BaseCommand):
    help = (
        "Write a whole league as one JSON document (bbweb-league/1): its people by username, "
        "teams, players, seasons, fixtures and every match with its record, to FILE or to the "
        "standard output. It holds the seeds of the matches not finished (the GM's download "
        "does not): keep it as safe as the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("league_id", type=int)
        parser.add_argument("file", type=Path, nargs="?")

    def handle(self, *args: Any, **options: Any) -> None:
        league = League.objects.filter(pk=options["league_id"]).first()
        if league is None:
            raise CommandError(f"There is no league {options['league_id']}.")
        doc = export_league(league, with_secret_seeds=True)
        body = json.dumps(doc, indent=1, ensure_ascii=False, cls=DjangoJSONEncoder)
        if options["file"] is None:
            self.stdout.write(body)
            return
        try:
            options["file"].write_text(body + "\n", encoding="utf-8")
        except OSError as error:
            raise CommandError(f"{options['file']}: {error.strerror or error}") from None
        matches = len(doc["records"])
        self.stderr.write(f"League {league.name}: {matches} matches written to {options['file']}.")
