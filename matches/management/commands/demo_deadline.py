"""Give the demo a deadline that visibly expires: the demo match's open deadline (a decision
or the turn) passes in a minute, and the worker's beat sweep applies its default."""

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from matches import services
from matches.models import Match
from teams.models import League, Team
from tools.demo_teams import DEMO_LEAGUE


class Command(BaseCommand):
    help = __doc__ or ""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=int, default=60)

    def handle(self, *args: Any, **options: Any) -> None:
        league = League.objects.get(name=DEMO_LEAGUE)
        match = Match.objects.filter(league=league, status=Match.Status.IN_PLAY).first()
        if match is None:
            home, away = Team.objects.filter(league=league).order_by("pk")[:2]
            gm = User.objects.get(username="gm")
            match = services.create_match(home=home, away=away, gm=gm, league=league)
        soon = timezone.now() + timedelta(seconds=options["seconds"])
        decision = match.decisions.filter(answered_at__isnull=True).first()
        if decision is not None:
            decision.deadline_at = soon
            decision.save(update_fields=["deadline_at"])
            what = f"the {decision.kind} decision of {decision.to}"
        else:
            Match.objects.filter(pk=match.pk).update(turn_deadline_at=soon, turn_time_left=None)
            what = "the team turn"
        local = timezone.localtime(soon)
        self.stdout.write(
            f"Match {match.pk} ({match}): {what} expires at {local:%H:%M:%S}; "
            "the worker's sweep applies its default and posts it in the thread."
        )
