import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from rules import gamedata
from teams import rosters
from teams.models import League, Player, Team
from teams.tests.conftest import plan_cost, starting_plan

pytestmark = pytest.mark.django_db


def team_json(plan: rosters.TeamPlan, name: str = "Imported", **extra: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": name,
        "race": plan.race,
        "coaches": {"captain": "alice", "rival": "bob"},
        "rerolls": plan.rerolls,
        "fan_factor": plan.fan_factor,
        "assistant_coaches": plan.assistant_coaches,
        "cheerleaders": plan.cheerleaders,
        "apothecary": plan.apothecary,
        "treasury": {"captain": 0, "rival": 0},
        "players": [
            {
                "number": n,
                "name": f"Player {n}",
                "position": p.position,
                "side": p.side,
                "spp": 0,
                "skills": [],
                "injuries": [],
                "status": "active",
            }
            for n, p in enumerate(plan.players, start=1)
        ],
    }
    data.update(extra)
    return data


def run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object, *args: str
) -> tuple[int, str, str]:
    path = tmp_path / "team.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    try:
        call_command("import_team", str(path), *args)
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("race_id", [race.id for race in gamedata.races()])
def test_a_new_team_of_every_race_is_imported_with_its_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User, bob: User, race_id: str
) -> None:
    plan = starting_plan(race_id)
    code, out, err = run(tmp_path, capsys, team_json(plan), "--new")
    team = Team.objects.get()
    assert (code, err) == (0, "")
    assert out.strip() == f"team {team.pk}: value {plan_cost(plan)} gp"
    assert team.race == race_id
    assert (team.captain, team.rival) == (alice, bob)
    assert team.captain_treasury + team.rival_treasury == 1_000_000 - plan_cost(plan)


def test_a_new_team_spending_the_whole_treasury_is_worth_a_million(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User, bob: User
) -> None:
    plan = rosters.TeamPlan(
        race="orc",
        players=tuple(rosters.PlannedPlayer("orc.blitzer", "captain") for _ in range(4))
        + tuple(rosters.PlannedPlayer("orc.black_orc_blocker", "rival") for _ in range(2))
        + (rosters.PlannedPlayer("orc.thrower", "captain"),)
        + tuple(rosters.PlannedPlayer("orc.lineman", "rival") for _ in range(4)),
        rerolls=3,
        fan_factor=2,
        apothecary=True,
    )
    code, out, _err = run(tmp_path, capsys, team_json(plan), "--new")
    team = Team.objects.get()
    assert code == 0
    assert out == f"team {team.pk}: value 1000000 gp\n"
    assert (team.captain_treasury, team.rival_treasury) == (0, 0)


def test_what_is_left_is_shared_like_the_gate_with_the_remainder_to_the_captain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User, bob: User
) -> None:
    plan = rosters.TeamPlan(
        race="human",
        players=tuple(rosters.PlannedPlayer("human.blitzer", "captain") for _ in range(3))
        + tuple(rosters.PlannedPlayer("human.lineman", "rival") for _ in range(8)),
    )
    run(tmp_path, capsys, team_json(plan), "--new")
    team = Team.objects.get()
    # 270,000 + 400,000 spent; 330,000 left, shared 270:400 -> rival 197,014 -> 197,000.
    assert (team.captain_treasury, team.rival_treasury) == (133_000, 197_000)


def test_a_new_team_is_checked_against_the_leagues_treasury(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User, bob: User, gm: User
) -> None:
    League.objects.create(name="VE 160", gm=gm, starting_treasury=1_600_000)
    plan = rosters.TeamPlan(
        race="human",
        players=tuple(rosters.PlannedPlayer("human.blitzer", "captain") for _ in range(4))
        + tuple(rosters.PlannedPlayer("human.lineman", "rival") for _ in range(12)),
        rerolls=8,
    )
    code, _out, err = run(tmp_path, capsys, team_json(plan), "--new")
    assert code == 1 and "Over budget: 1,360,000 gp spent of 1,000,000 gp." in err
    code, out, _err = run(tmp_path, capsys, team_json(plan), "--new", "--league", "VE 160")
    assert code == 0 and out.endswith("value 1360000 gp\n")
    assert Team.objects.filter(league__name="VE 160").exists()


def test_an_invalid_file_names_every_problem_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User
) -> None:
    players = [
        {"number": n, "name": f"P{n}", "position": "human.blitzer", "side": "captain"}
        for n in range(1, 6)
    ] + [
        {"number": n, "name": f"L{n}", "position": "human.lineman", "side": "rival"}
        for n in range(6, 17)
    ]
    players.append({"number": 3, "name": "Wiz", "position": "human.wizard", "side": "rival"})
    data = {
        "name": "Broken",
        "race": "human",
        "coaches": {"captain": "alice", "rival": "nobody"},
        "rerolls": 2,
        "fan_factor": 0,
        "assistant_coaches": 0,
        "cheerleaders": 0,
        "apothecary": True,
        "treasury": {"captain": 0, "rival": 0},
        "players": players,
    }
    code, out, err = run(tmp_path, capsys, data, "--new")
    assert code == 1
    assert out == ""
    for message in [
        "Unknown position “human.wizard” for a Human team.",
        "Too many Blitzer: 5, at most 4.",
        "Too many players: 17, at most 16.",
        "Duplicate player number 3 (2 players).",
        "Over budget: 1,150,000 gp spent of 1,000,000 gp.",
        "Unknown coach “nobody”.",
    ]:
        assert message in err
    assert not Team.objects.exists()
    assert not Player.objects.exists()


def test_an_unknown_race_and_a_forbidden_apothecary_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User, bob: User
) -> None:
    code, _out, err = run(
        tmp_path, capsys, team_json(starting_plan("human"), race="slann"), "--new"
    )
    assert code == 1 and "Unknown race “slann”." in err
    data = team_json(starting_plan("nurgle"), apothecary=True)
    code, _out, err = run(tmp_path, capsys, data, "--new")
    assert code == 1 and "Nurgle teams may not have an apothecary." in err
    assert not Team.objects.exists()


def test_unknown_coaches_are_created_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = team_json(starting_plan("skaven"), coaches={"captain": "erin", "rival": "frank"})
    code, _out, err = run(tmp_path, capsys, data, "--new")
    assert code == 1 and "Unknown coach “erin”." in err and "Unknown coach “frank”." in err
    assert not User.objects.exists()
    code, _out, _err = run(tmp_path, capsys, data, "--new", "--create-coaches")
    assert code == 0
    team = Team.objects.get()
    assert team.rival is not None
    assert (team.captain.username, team.rival.username) == ("erin", "frank")
    assert not team.captain.has_usable_password()


def test_a_file_without_a_rival_leaves_the_rival_side_to_the_captain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User
) -> None:
    data = team_json(starting_plan("elf"), coaches={"captain": "alice", "rival": None})
    code, _out, _err = run(tmp_path, capsys, data, "--new")
    team = Team.objects.get()
    assert code == 0 and team.rival is None and team.controls(alice, "rival")


def test_a_new_team_has_no_veterans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User, bob: User
) -> None:
    data = team_json(starting_plan("human"))
    players = data["players"]
    assert isinstance(players, list)
    players[0].update(spp=6, skills=["Dodge"])
    players[1].update(status="dead")
    code, _out, err = run(tmp_path, capsys, data, "--new")
    assert code == 1
    assert "Player #1 Player 1: a new team's players have no SPP, skills or injuries yet." in err
    assert "Player #2 Player 2: a new team's players are all active." in err


def test_a_file_that_is_not_json_or_not_a_team_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User
) -> None:
    code, _out, err = run(tmp_path, capsys, "{not json")
    assert code == 1 and "not valid JSON" in err
    code, _out, err = run(tmp_path, capsys, [1, 2])
    assert code == 1 and "The file must hold one JSON object (a team)." in err
    code, _out, err = run(tmp_path, capsys, {"name": "x", "race": "human", "rerolls": "two"})
    assert code == 1
    assert "coaches: expected an object." in err
    assert "rerolls: expected a whole number from 0 to 32,767." in err
    assert "players: expected a list." in err


def test_a_missing_file_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        call_command("import_team", "/nonexistent/team.json")
    assert "cannot read the file" in capsys.readouterr().err


def test_an_unknown_league_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User, bob: User
) -> None:
    code, _out, err = run(tmp_path, capsys, team_json(starting_plan("human")), "--league", "Nope")
    assert code == 1 and "unknown league 'Nope'" in err
    assert not Team.objects.exists()


def test_a_played_team_keeps_its_treasury_and_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User, bob: User
) -> None:
    data = team_json(starting_plan("human"), treasury={"captain": 120_000, "rival": 35_000})
    data["fan_factor"] = 12
    players = data["players"]
    assert isinstance(players, list)
    players[0].update(
        position="human.lineman", spp=17, skills=["Block", "+ST"], injuries=["niggling", "-AV"]
    )
    players[1].update(injuries=["miss_next_game"])
    players[2].update(status="dead")
    code, out, err = run(tmp_path, capsys, data)
    assert (code, err) == (0, "")
    team = Team.objects.get()
    first = team.players.get(number=1)
    assert (team.captain_treasury, team.rival_treasury, team.fan_factor) == (120_000, 35_000, 12)
    assert (first.spp, first.skills, first.niggling_injuries, first.av_loss) == (
        17,
        ["Block", "+ST"],
        1,
        1,
    )
    assert first.value == 50_000 + 20_000 + 50_000
    assert team.players.get(number=3).status == "dead"
    assert out.strip() == f"team {team.pk}: value {team.value} gp"


def test_a_played_team_with_impossible_skills_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alice: User, bob: User
) -> None:
    data = team_json(starting_plan("human"))
    players = data["players"]
    assert isinstance(players, list)
    players[0].update(position="human.lineman", skills=["Horns", "Teleport", "+XX"])
    players[1].update(injuries=["broken heart"], status="sleeping")
    code, _out, err = run(tmp_path, capsys, data)
    assert code == 1
    assert "A Lineman cannot learn Horns." in err
    assert "Unknown skill “Teleport”." in err
    assert "Unknown skill “+XX”." in err
    assert "unknown injuries broken heart" in err
    assert "unknown status “sleeping”" in err
    assert not Team.objects.exists()


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d.update(name="x" * 10_000), "name: expected a text of at most 80"),
        (lambda d: d.update(name="Nul\x00Team"), "name: expected a text of at most 80"),
        (lambda d: d["players"][0].update(name="Karl\x00"), "player 1: name: expected"),
        (lambda d: d.update(rerolls=10**30), "rerolls: expected a whole number from 0 to"),
        (lambda d: d["players"][0].update(spp=2**31), "player 1: spp: expected a whole number"),
        (lambda d: d.update(treasury={"captain": 10**12, "rival": 0}), "treasury.captain:"),
        (lambda d: d["players"][0].update(skills=["Block"] * 1000), "player 1: skills"),
    ],
)
def test_a_file_beyond_the_database_s_bounds_is_a_list_of_problems(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    alice: User,
    bob: User,
    change: Any,
    problem: str,
) -> None:
    data = team_json(starting_plan("human"))
    change(data)
    code, _out, err = run(tmp_path, capsys, data)
    assert code == 1 and problem in err and "Traceback" not in err
    assert not Team.objects.exists()


def test_json_nested_100000_deep_is_a_problem_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(tmp_path, capsys, "[" * 100_000 + "]" * 100_000)
    assert code == 1 and "nested too deep" in err
    assert not Team.objects.exists()
