from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from rules import gamedata
from teams import rosters
from teams.models import Invitation, League, Player, Team
from teams.tests.conftest import plan_cost, starting_plan

pytestmark = pytest.mark.django_db

RACES = [race.id for race in gamedata.races()]


def form_data(plan: rosters.TeamPlan, **extra: object) -> dict[str, object]:
    counts = Counter((p.position, p.side) for p in plan.players)
    data: dict[str, object] = {
        "race": plan.race,
        "name": "New Team",
        "league": "",
        "rerolls": plan.rerolls,
        "fan_factor": plan.fan_factor,
        "assistant_coaches": plan.assistant_coaches,
        "cheerleaders": plan.cheerleaders,
        "rival": "",
    }
    if plan.apothecary:
        data["apothecary"] = "on"
    for pos in gamedata.race(plan.race).positions:
        for side in rosters.SIDES:
            data[f"{side}__{pos.key}"] = counts[(pos.id, side)]
    data.update(extra)
    return data


def test_there_are_21_lrb5_races() -> None:
    assert len(RACES) == 21


@pytest.mark.parametrize("race_id", RACES)
def test_a_starting_team_of_every_race_is_created_through_the_form(
    client: Client, alice: User, race_id: str
) -> None:
    plan = starting_plan(race_id)
    client.force_login(alice)
    response = client.post(reverse("teams:create"), form_data(plan, name=f"{race_id} team"))
    team = Team.objects.get(name=f"{race_id} team")
    assert response.status_code == 302
    assert response["Location"] == team.get_absolute_url()
    assert team.race == race_id
    assert team.captain == alice and team.rival is None
    assert team.players.count() == len(plan.players) >= 11
    assert team.value == plan_cost(plan)
    budget = gamedata.team_building().treasury
    assert team.captain_treasury + team.rival_treasury == budget - plan_cost(plan)
    assert team.side_value("captain") + team.side_value("rival") == sum(
        gamedata.position(p.position).cost for p in plan.players
    )


def test_the_form_offers_the_positions_of_the_chosen_race(client: Client, alice: User) -> None:
    client.force_login(alice)
    page = client.get(reverse("teams:create"), {"race": "lizardman"}).content.decode()
    assert "Kroxigor" in page and "Skink" in page
    assert 'name="captain__saurus"' in page and 'name="rival__saurus"' in page
    assert "Blitzer" not in page


def test_the_form_asks_for_a_race_first(client: Client, alice: User) -> None:
    client.force_login(alice)
    page = client.get(reverse("teams:create")).content.decode()
    assert "Choose a race to see its positions." in page
    assert 'id="team-form"' not in page


def test_a_race_change_through_htmx_renders_only_the_builder(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.get(
        reverse("teams:create"), {"race": "orc", "name": "Kept"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="builder">')
    assert "<html" not in html
    assert "Black Orc Blocker" in html
    assert 'value="Kept"' in html


def test_the_totals_partial_shows_the_live_cost_and_remaining_budget(
    client: Client, alice: User
) -> None:
    client.force_login(alice)
    data = form_data(
        rosters.TeamPlan(race="human", players=()),
        captain__blitzer=2,
        rival__lineman=3,
        rerolls=1,
    )
    response = client.post(reverse("teams:create_totals"), data, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<aside id="totals"')
    # 2 x 90,000 + 3 x 50,000 + 50,000 = 380,000; 620,000 left.
    assert "380,000 gp" in html
    assert "620,000 gp" in html
    assert "5 players" in html
    assert "Too few players: 5, a new team needs at least 11." in html
    assert not Team.objects.exists()


def test_the_totals_use_the_leagues_starting_treasury(
    client: Client, alice: User, gm: User
) -> None:
    league = League.objects.create(name="VE 160", gm=gm, starting_treasury=1_600_000)
    client.force_login(alice)
    data = form_data(starting_plan("human"), league=league.pk)
    html = client.post(reverse("teams:create_totals"), data).content.decode()
    assert "1,600,000 gp" in html


def test_a_team_may_spend_a_bigger_league_treasury(client: Client, alice: User, gm: User) -> None:
    league = League.objects.create(name="VE 160", gm=gm, starting_treasury=1_600_000)
    plan = rosters.TeamPlan(
        race="human",
        players=tuple(rosters.PlannedPlayer("human.blitzer", "captain") for _ in range(4))
        + tuple(rosters.PlannedPlayer("human.lineman", "rival") for _ in range(12)),
        rerolls=4,
    )
    client.force_login(alice)
    client.post(reverse("teams:create"), form_data(plan, league=league.pk))
    team = Team.objects.get()
    assert team.league == league
    assert team.value == 4 * 90_000 + 12 * 50_000 + 4 * 50_000 == 1_160_000


def test_the_gold_left_is_shared_by_the_value_of_each_side(client: Client, alice: User) -> None:
    plan = rosters.TeamPlan(
        race="human",
        players=tuple(rosters.PlannedPlayer("human.blitzer", "captain") for _ in range(4))
        + tuple(rosters.PlannedPlayer("human.lineman", "rival") for _ in range(7)),
    )
    client.force_login(alice)
    client.post(reverse("teams:create"), form_data(plan))
    team = Team.objects.get()
    # Spent 360,000 + 350,000 = 710,000; 290,000 left, shared 360:350: exact 147,042 and
    # 142,958, the rival's larger fraction takes the thousand left (largest remainder).
    assert team.rival_treasury == 143_000
    assert team.captain_treasury == 147_000


def test_an_invited_rival_is_asked_and_the_captain_holds_both_sides_meanwhile(
    client: Client, alice: User, bob: User
) -> None:
    client.force_login(alice)
    client.post(reverse("teams:create"), form_data(starting_plan("orc"), rival="bob"))
    team = Team.objects.get()
    assert team.rival is None
    assert Invitation.objects.get().user == bob
    assert team.controls(alice, "captain") and team.controls(alice, "rival")
    assert not team.controls(bob, "rival")


ILLEGAL = [
    (
        "too many of a position",
        {"captain__blitzer": 3, "rival__blitzer": 2, "captain__lineman": 6},
        "Too many Blitzer: 5, at most 4.",
    ),
    (
        "over 16 players",
        {"captain__lineman": 9, "rival__lineman": 8},
        "Too many players: 17, at most 16.",
    ),
    ("under 11 players", {"captain__lineman": 10}, "Too few players: 10, a new team needs"),
    (
        "over budget",
        {"captain__blitzer": 4, "captain__catcher": 4, "rival__lineman": 8},
        "Over budget: 1,040,000 gp spent of 1,000,000 gp.",
    ),
    ("too many rerolls", {"captain__lineman": 11, "rerolls": 9}, "Select a valid choice."),
    ("negative staff", {"captain__lineman": 11, "cheerleaders": -1}, "greater than or equal to 0"),
    ("no name", {"captain__lineman": 11, "name": " "}, "This field is required."),
    ("unknown rival", {"captain__lineman": 11, "rival": "nobody"}, "no coach called “nobody”"),
    ("the captain as rival", {"captain__lineman": 11, "rival": "alice"}, "cannot also be"),
]


@pytest.mark.parametrize(("case", "changes", "message"), ILLEGAL, ids=[c[0] for c in ILLEGAL])
def test_an_illegal_roster_is_refused_with_a_clear_message(
    client: Client, alice: User, case: str, changes: dict[str, object], message: str
) -> None:
    client.force_login(alice)
    data = form_data(rosters.TeamPlan(race="human", players=()), **changes)
    response = client.post(reverse("teams:create"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Team.objects.exists()
    assert not Player.objects.exists()


def test_a_race_without_an_apothecary_cannot_buy_one(client: Client, alice: User) -> None:
    client.force_login(alice)
    data = form_data(starting_plan("undead"), apothecary="on")
    page = client.get(reverse("teams:create"), {"race": "undead"}).content.decode()
    assert 'name="apothecary"' not in page
    assert "may not have an apothecary" in page
    client.post(reverse("teams:create"), data)
    assert Team.objects.get().apothecary is False


def test_an_unknown_race_is_refused(client: Client, alice: User) -> None:
    client.force_login(alice)
    data = form_data(starting_plan("human"), race="slann")
    response = client.post(reverse("teams:create"), data)
    assert response.status_code == 200
    assert not Team.objects.exists()


def test_team_names_are_unique_within_a_league(client: Client, alice: User, league: League) -> None:
    client.force_login(alice)
    data = form_data(starting_plan("human"), name="Twins", league=league.pk)
    client.post(reverse("teams:create"), data)
    response = client.post(reverse("teams:create"), data)
    assert "Liga del Foro already has a team called Twins." in response.content.decode()
    assert Team.objects.count() == 1


def test_a_visitor_must_log_in_to_create_a_team(client: Client) -> None:
    response = client.post(reverse("teams:create"), form_data(starting_plan("human")))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert not Team.objects.exists()
