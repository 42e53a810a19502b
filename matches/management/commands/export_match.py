import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.json import DjangoJSONEncoder

from matches.models import Match
from matches.verification.exports import export_match


class Command(BaseCommand):
    help = "Print a whole match as JSON (teams, line-up, events, posts and every roll)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        match = Match.objects.filter(pk=options["match_id"]).first()
        if match is None:
            raise CommandError(f"There is no match {options['match_id']}.")
        self.stdout.write(json.dumps(export_match(match), indent=1, cls=DjangoJSONEncoder))
