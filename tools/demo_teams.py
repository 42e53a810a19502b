"""The demo league: two legal starting teams, each split between a captain and a rival."""

from django.contrib.auth.models import User
from django.db import transaction

from teams import rosters, services
from teams.models import League, Team

DEMO_LEAGUE = "Liga del Foro"
C, R = rosters.CAPTAIN, rosters.RIVAL

# (position, side, name) in shirt-number order; staff and rerolls bring each team to 1,000,000.
REIKLAND = [
    ("human.blitzer", C, "Karl Fleischer"),
    ("human.blitzer", C, "Otto Brandt"),
    ("human.thrower", C, "Johann Weiss"),
    ("human.catcher", C, "Anna Vogel"),
    ("human.lineman", C, "Dieter Koch"),
    ("human.lineman", C, "Hans Richter"),
    ("human.blitzer", R, "Max Steiner"),
    ("human.blitzer", R, "Rudi Hoffmann"),
    ("human.catcher", R, "Lena Fuchs"),
    ("human.lineman", R, "Ulrich Baer"),
    ("human.lineman", R, "Wolfgang Roth"),
]
ORCLAND = [
    ("orc.blitzer", C, "Gorbag"),
    ("orc.blitzer", C, "Ugluk"),
    ("orc.black_orc_blocker", C, "Grimgor"),
    ("orc.thrower", C, "Snaga"),
    ("orc.lineman", C, "Muzgash"),
    ("orc.lineman", C, "Lugdush"),
    ("orc.blitzer", R, "Shagrat"),
    ("orc.blitzer", R, "Radbug"),
    ("orc.black_orc_blocker", R, "Azog"),
    ("orc.lineman", R, "Grishnakh"),
    ("orc.lineman", R, "Mauhur"),
]
DEMO_TEAMS = [
    (
        "Reikland Reavers",
        "alice",
        "bob",
        rosters.TeamPlan(
            race="human",
            players=tuple(
                rosters.PlannedPlayer(p, s, n, name)
                for n, (p, s, name) in enumerate(REIKLAND, start=1)
            ),
            rerolls=2,
            fan_factor=5,
            assistant_coaches=1,
            cheerleaders=2,
            apothecary=True,
        ),
    ),
    (
        "Orcland Raiders",
        "carol",
        "dave",
        rosters.TeamPlan(
            race="orc",
            players=tuple(
                rosters.PlannedPlayer(p, s, n, name)
                for n, (p, s, name) in enumerate(ORCLAND, start=1)
            ),
            rerolls=3,
            fan_factor=2,
            apothecary=True,
        ),
    ),
]


@transaction.atomic
def load_demo_teams() -> list[Team]:
    """Create the demo league and its two teams unless they exist (safe to run again)."""
    gm = User.objects.get(username="gm")
    # The demo teams were built on plain LRB5's 1,000,000 (a new league starts at VE 160).
    league, _created = League.objects.get_or_create(
        name=DEMO_LEAGUE, defaults={"gm": gm, "starting_treasury": 1_000_000}
    )
    teams = []
    for name, captain, rival, plan in DEMO_TEAMS:
        team = Team.objects.filter(league=league, name=name).first()
        if team is None:
            team = services.create_team(
                User.objects.get(username=captain),
                plan,
                name=name,
                league=league,
                rival_username=rival,
            )
            services.accept_invitation(User.objects.get(username=rival), team.invitations.get())
        teams.append(team)
    return teams
