import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from teams import rosters
from teams.models import Invitation, League, Player, Team
from teams.transfer import export_team, read_team_file, team_file_problems
from tools.demo_teams import load_demo_teams

pytestmark = pytest.mark.django_db


def test_the_demo_has_two_legal_split_teams_in_the_forum_league() -> None:
    # The teams as the demo creates them, before its finished match pays them their winnings.
    for username in ("gm", "alice", "bob", "carol", "dave"):
        User.objects.create_user(username)
    load_demo_teams()
    league = League.objects.get(name="Liga del Foro")
    assert league.gm.username == "gm"
    reavers = Team.objects.get(name="Reikland Reavers")
    raiders = Team.objects.get(name="Orcland Raiders")
    assert reavers.rival is not None and raiders.rival is not None
    assert (reavers.race, reavers.captain.username, reavers.rival.username) == (
        "human",
        "alice",
        "bob",
    )
    assert (raiders.race, raiders.captain.username, raiders.rival.username) == (
        "orc",
        "carol",
        "dave",
    )
    for team in (reavers, raiders):
        assert team.league == league
        assert team.value == 1_000_000
        assert team.side_value("captain") > 0 and team.side_value("rival") > 0
        team_file, _ = read_team_file(export_team(team))
        assert team_file is not None
        assert team_file_problems(team_file, budget=1_000_000) == []
        assert len(team.roster()) >= 11
    assert not Invitation.objects.filter(status="pending").exists()


def test_loading_the_demo_twice_duplicates_nothing() -> None:
    call_command("load_demo")
    counts = (League.objects.count(), Team.objects.count(), Player.objects.count())
    call_command("load_demo")
    assert (League.objects.count(), Team.objects.count(), Player.objects.count()) == counts
    assert counts == (1, 2, 22)


def test_the_demo_game_master_can_open_the_admin() -> None:
    call_command("load_demo")
    assert League.objects.get().gm.is_staff


def test_the_demo_sides_are_worth_what_their_players_cost() -> None:
    # As built: the demo's finished match is played with a new dice seed each time, and an
    # injury in it may lower a side's value.
    for username in ("gm", "alice", "bob", "carol", "dave"):
        User.objects.create_user(username)
    load_demo_teams()
    reavers = Team.objects.get(name="Reikland Reavers")
    assert reavers.side_value(rosters.CAPTAIN) == 420_000
    assert reavers.side_value(rosters.RIVAL) == 350_000
