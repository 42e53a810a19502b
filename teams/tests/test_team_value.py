import pytest

from rules import gamedata
from teams import rosters
from teams.models import Player, Team

pytestmark = pytest.mark.django_db


def test_a_new_teams_value_is_what_it_cost(team: Team) -> None:
    # 710,000 of players + 2 rerolls at 50,000 + fan factor 2 x 10,000.
    assert team.value == 830_000
    assert team.side_value("captain") == 400_000
    assert team.side_value("rival") == 310_000


def test_the_treasury_left_was_shared_by_side_value(team: Team) -> None:
    assert (team.captain_treasury, team.rival_treasury) == (96_000, 74_000)


def test_staff_and_fan_factor_count_at_their_lrb5_prices(team: Team) -> None:
    Team.objects.filter(pk=team.pk).update(
        assistant_coaches=2, cheerleaders=3, apothecary=True, fan_factor=4
    )
    team.refresh_from_db()
    assert team.staff_value == 2 * 10_000 + 3 * 10_000 + 50_000 + 4 * 10_000
    assert team.value == 710_000 + 100_000 + 140_000


def test_rerolls_count_at_the_roster_price_not_the_doubled_one(team: Team) -> None:
    Team.objects.filter(pk=team.pk).update(rerolls=5)
    team.refresh_from_db()
    assert team.rerolls_value == 5 * 50_000


def test_a_player_missing_the_next_game_does_not_count(team: Team) -> None:
    Player.objects.filter(team=team, number=7).update(miss_next_game=True)
    team.refresh_from_db()
    assert team.value == 830_000 - 90_000
    assert team.side_value("rival") == 310_000 - 90_000


def test_dead_and_retired_players_do_not_count_but_journeymen_do(team: Team) -> None:
    Player.objects.filter(team=team, number=1).update(status="dead")
    Player.objects.filter(team=team, number=2).update(status="retired")
    Player.objects.create(
        team=team, number=12, name="Jo", position="human.lineman", side="rival", status="journeyman"
    )
    team.refresh_from_db()
    assert team.value == 830_000 - 2 * 90_000 + 50_000


def test_improvements_raise_a_players_value() -> None:
    lineman = gamedata.position("human.lineman")
    assert rosters.player_value(lineman, []) == 50_000
    assert (
        rosters.player_value(lineman, ["Block", "Dodge", "+ST"])
        == 50_000 + 20_000 + 30_000 + 50_000
    )


def test_stat_losses_and_increases_change_the_stats_shown(team: Team) -> None:
    karl = team.players.get(number=1)
    karl.skills = ["+AG"]
    karl.ma_loss, karl.av_loss = 1, 2
    assert [(s, v, change) for s, v, change in karl.stat_line] == [
        ("MA", 6, "down"),
        ("ST", 3, ""),
        ("AG", 4, "up"),
        ("AV", 6, "down"),
    ]
    karl.st_loss = 5
    assert karl.stat("ST") == 1


def test_the_gate_share_gives_the_remainder_by_the_largest_fraction() -> None:
    assert rosters.share_by_value(100_000, 2, 1) == (67_000, 33_000)
    assert rosters.share_by_value(100_000, 1, 0) == (100_000, 0)
    assert rosters.share_by_value(0, 5, 5) == (0, 0)
    assert rosters.share_by_value(1_000, 0, 0) == (1_000, 0)


@pytest.mark.parametrize(
    ("race_id", "players", "rerolls", "value"),
    [
        # 4 blitzers, 2 catchers, a thrower, 4 linemen, 3 rerolls: 770,000 + 150,000.
        ("human", {"blitzer": 4, "catcher": 2, "thrower": 1, "lineman": 4}, 3, 920_000),
        # 2 Witch Elves, 2 blitzers, a runner, an assassin, 5 linemen: 940,000 + 1 reroll.
        (
            "dark_elf",
            {"witch_elf": 2, "blitzer": 2, "runner": 1, "assassin": 1, "lineman": 5},
            1,
            990_000,
        ),
        # An Ogre team: 5 ogres and 6 snotlings, 2 rerolls at 70,000.
        ("ogre", {"ogre": 5, "snotling": 6}, 2, 960_000),
        # Undead: 2 mummies, 2 wights, 4 ghouls, 3 skeletons, 2 rerolls at 70,000.
        ("undead", {"mummy": 2, "wight": 2, "ghoul": 4, "skeleton": 3}, 2, 910_000),
    ],
)
def test_team_values_for_a_few_races(
    race_id: str, players: dict[str, int], rerolls: int, value: int
) -> None:
    plan = rosters.TeamPlan(
        race=race_id,
        players=tuple(
            rosters.PlannedPlayer(f"{race_id}.{key}", "captain")
            for key, count in players.items()
            for _ in range(count)
        ),
        rerolls=rerolls,
    )
    assert rosters.plan_problems(plan, 1_000_000) == []
    assert rosters.plan_totals(plan).total == value
