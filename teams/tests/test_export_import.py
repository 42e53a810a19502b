import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from teams import services
from teams.models import Player, Team
from teams.transfer import export_team, read_team_file

pytestmark = pytest.mark.django_db


def veteran_team(team: Team) -> Team:
    """The Reavers after a few matches: skills, injuries, a dead player, uneven treasuries."""
    Team.objects.filter(pk=team.pk).update(
        fan_factor=11, captain_treasury=180_000, rival_treasury=45_000, assistant_coaches=2
    )
    Player.objects.filter(team=team, number=1).update(
        spp=23, skills=["Dodge", "+MA"], niggling_injuries=1, av_loss=1
    )
    Player.objects.filter(team=team, number=8).update(miss_next_game=True, spp=4)
    Player.objects.filter(team=team, number=6).update(status="dead")
    Player.objects.create(
        team=team,
        number=6,
        name="New Jens",
        position="human.lineman",
        side="captain",
        status="journeyman",
    )
    team.refresh_from_db()
    return team


def test_the_export_has_the_agreed_shape(team: Team) -> None:
    data = export_team(veteran_team(team))
    assert list(data) == [
        "name", "race", "coaches", "rerolls", "fan_factor", "assistant_coaches",
        "cheerleaders", "apothecary", "treasury", "players",
    ]  # fmt: skip
    assert data["coaches"] == {"captain": "alice", "rival": "bob"}
    assert data["treasury"] == {"captain": 180_000, "rival": 45_000}
    players = data["players"]
    assert isinstance(players, list)
    assert players[0] == {
        "number": 1,
        "name": "Karl",
        "position": "human.blitzer",
        "side": "captain",
        "spp": 23,
        "skills": ["Dodge", "+MA"],
        "injuries": ["niggling", "-AV"],
        "status": "active",
    }


def test_export_then_import_gives_back_the_same_team(team: Team) -> None:
    original = export_team(veteran_team(team))
    value = team.value
    team.delete()
    team_file, problems = read_team_file(json.loads(json.dumps(original)))
    assert problems == [] and team_file is not None
    copy = services.import_team(team_file)
    assert export_team(copy) == original
    assert copy.value == value


def test_the_commands_round_trip_through_a_file(
    team: Team, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    veteran_team(team)
    call_command("export_team", str(team.pk))
    exported = capsys.readouterr().out
    path = tmp_path / "reavers.json"
    path.write_text(exported)
    original = json.loads(exported)
    value = team.value
    call_command("import_team", str(path))
    out = capsys.readouterr().out
    copy = Team.objects.exclude(pk=team.pk).get()
    assert out == f"team {copy.pk}: value {value} gp\n"
    assert export_team(copy) == original


def test_a_new_team_round_trips_with_import_new(
    team: Team, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = export_team(team)
    path = tmp_path / "reavers.json"
    path.write_text(json.dumps(original))
    team.delete()
    call_command("import_team", str(path), "--new")
    assert export_team(Team.objects.get()) == original


def test_the_team_page_offers_the_json_download(client: Client, team: Team) -> None:
    page = client.get(team.get_absolute_url()).content.decode()
    assert reverse("teams:export", args=[team.pk]) in page
    response = client.get(reverse("teams:export", args=[team.pk]))
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="reikland-reavers-{team.pk}.json"'
    )
    assert json.loads(response.content) == export_team(team)


def test_exporting_an_unknown_team_fails_clearly() -> None:
    with pytest.raises(CommandError, match="There is no team 999"):
        call_command("export_team", "999")
