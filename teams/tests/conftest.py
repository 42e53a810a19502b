"""The cast: alice captains the Reavers (Human), bob coaches their rival's side, carol coaches
another team, dave has no team yet, and gm is the league's game master."""

import pytest
from django.contrib.auth.models import User

from bbweb.roles import make_game_master
from rules import gamedata
from teams import rosters, services
from teams.models import League, Team

C, R = rosters.CAPTAIN, rosters.RIVAL


def starting_plan(race_id: str, *, rerolls: int = 2) -> rosters.TeamPlan:
    """A legal starting team of any race: one of each special position that fits, linemen up
    to 12 players, a few rerolls, the players alternating between the two sides."""
    race = gamedata.race(race_id)
    budget = gamedata.team_building().treasury
    lineman = min((p for p in race.positions if p.max_qty == 16), key=lambda p: p.cost)
    specials = [p for p in race.positions if p is not lineman]
    while True:
        picks = specials + [lineman] * (12 - len(specials))
        cost = sum(p.cost for p in picks) + rerolls * race.reroll_cost
        if cost <= budget or not specials:
            break
        specials.remove(max(specials, key=lambda p: p.cost))
    return rosters.TeamPlan(
        race=race.id,
        players=tuple(
            rosters.PlannedPlayer(p.id, C if i % 2 == 0 else R) for i, p in enumerate(picks)
        ),
        rerolls=rerolls,
    )


def plan_cost(plan: rosters.TeamPlan) -> int:
    """Worked out from the data directly, not through the code under test."""
    race = gamedata.race(plan.race)
    players = sum(gamedata.position(p.position).cost for p in plan.players)
    staff = 10_000 * (plan.fan_factor + plan.assistant_coaches + plan.cheerleaders)
    return players + plan.rerolls * race.reroll_cost + staff + (50_000 if plan.apothecary else 0)


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob")


@pytest.fixture
def carol(db: None) -> User:
    return User.objects.create_user("carol")


@pytest.fixture
def dave(db: None) -> User:
    return User.objects.create_user("dave")


@pytest.fixture
def gm(db: None) -> User:
    user = User.objects.create_user("gm")
    make_game_master(user)
    return user


@pytest.fixture
def league(gm: User) -> League:
    # The tests' figures are worked out on plain LRB5's 1,000,000 (a new league's default is VE
    # 160, tested on its own).
    return League.objects.create(name="Liga del Foro", gm=gm, starting_treasury=1_000_000)


REAVERS = rosters.TeamPlan(
    race="human",
    players=(
        rosters.PlannedPlayer("human.blitzer", C, 1, "Karl"),
        rosters.PlannedPlayer("human.blitzer", C, 2, "Otto"),
        rosters.PlannedPlayer("human.thrower", C, 3, "Johann"),
        rosters.PlannedPlayer("human.lineman", C, 4, "Dieter"),
        rosters.PlannedPlayer("human.lineman", C, 5, "Hans"),
        rosters.PlannedPlayer("human.lineman", C, 6, "Jens"),
        rosters.PlannedPlayer("human.blitzer", R, 7, "Max"),
        rosters.PlannedPlayer("human.catcher", R, 8, "Lena"),
        rosters.PlannedPlayer("human.lineman", R, 9, "Ulrich"),
        rosters.PlannedPlayer("human.lineman", R, 10, "Wolf"),
        rosters.PlannedPlayer("human.lineman", R, 11, "Rudi"),
    ),
    rerolls=2,
    fan_factor=2,
)
# Players 710,000 (captain's side 400,000, rival's 310,000) + rerolls 100,000 + fan factor
# 20,000 = 830,000. The 170,000 left is shared 400:310: the rival's side gets 74,000 (74,225
# rounded down to thousands), the captain's side 96,000.


@pytest.fixture
def team(alice: User, bob: User, league: League) -> Team:
    """The Reavers with bob already the rival coach."""
    created = services.create_team(
        alice, REAVERS, name="Reikland Reavers", league=league, rival_username="bob"
    )
    services.accept_invitation(bob, created.invitations.get())
    created.refresh_from_db()
    return created


@pytest.fixture
def solo_team(alice: User) -> Team:
    """The Reavers before any rival joined: alice holds both sides."""
    return services.create_team(alice, REAVERS, name="Solo Reavers")


@pytest.fixture
def other_team(carol: User) -> Team:
    return services.create_team(carol, starting_plan("orc"), name="Orcland Raiders")
