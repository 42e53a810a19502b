from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from bbweb.roles import make_game_master
from tools.demo_matches import load_demo_matches
from tools.demo_teams import load_demo_teams

DEMO_PASSWORD = "bbweb-demo"
DEMO_USERS = [
    ("gm", "The league's game master"),
    ("alice", "Captain of the Reikland Reavers (Human)"),
    ("bob", "Rival coach of the Reikland Reavers"),
    ("carol", "Captain of the Orcland Raiders (Orc)"),
    ("dave", "Rival coach of the Orcland Raiders"),
]


class Command(BaseCommand):
    help = "Load the demo league: users, teams and a match in play. Safe to run twice."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        for username, _role in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"email": f"{username}@bbweb.local"}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
        make_game_master(User.objects.get(username="gm"))
        teams = load_demo_teams()
        for team in teams:
            self.stdout.write(f"Team {team.pk}: {team.name} ({team.race}), value {team.value} gp")
        for match in load_demo_matches(teams[0], teams[1]):
            status = match.get_status_display()
            self.stdout.write(f"Match {match.pk}: {match} ({status}), /matches/{match.pk}/")
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}):")
        for username, role in DEMO_USERS:
            self.stdout.write(f"  {username:<6} {role}")
