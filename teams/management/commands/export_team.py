import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from teams.models import Team
from teams.transfer import export_team


class Command(BaseCommand):
    help = "Print a team as JSON (the shape import_team reads)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("team_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        team = Team.objects.filter(pk=options["team_id"]).first()
        if team is None:
            raise CommandError(f"There is no team {options['team_id']}.")
        self.stdout.write(json.dumps(export_team(team), indent=2, ensure_ascii=False))
