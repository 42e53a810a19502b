"""Every scenario file under rules/scenarios/ (all folders) passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.engine.scenario import ScenarioFormatError, load_scenario, main, run_scenario

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(ROOT.rglob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario_file_passes(path: Path) -> None:
    result = run_scenario(load_scenario(path))
    assert result["ok"], "\n".join(result["failures"])


def test_there_are_scenarios_for_the_engine() -> None:
    assert len(list((ROOT / "engine").glob("*.json"))) >= 10


def test_an_invalid_file_names_the_file_and_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "x", "setup": {}, "steps": [{"as": "home:coach"}]}))
    with pytest.raises(ScenarioFormatError, match=r"bad\.json: steps\[0\]\.as"):
        load_scenario(bad)


def test_the_runner_exits_2_on_an_invalid_file_and_1_on_a_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.json").write_text("{not json")
    assert main([str(tmp_path)]) == 2
    failing = {"name": "f", "setup": {"players": []}, "expect": {"active": "away"}}
    (tmp_path / "a.json").write_text(json.dumps(failing))
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    line = json.loads(out[-1])
    assert line["failures"] == ["active: expected 'away', got 'home'"]
    assert set(line) == {"name", "ok", "failures", "state", "events", "dice_used", "pending"}


def test_files_of_a_folder_run_in_name_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("b", "a", "c"):
        (tmp_path / f"{name}.json").write_text(json.dumps({"name": name, "setup": {}}))
    assert main([str(tmp_path)]) == 0
    names = [json.loads(x)["name"] for x in capsys.readouterr().out.splitlines()]
    assert names == ["a", "b", "c"]


def test_running_out_of_dice_fails_with_dice_exhausted() -> None:
    data = {
        "name": "x",
        "setup": {
            "players": [
                {"id": "h1", "team": "home", "at": "K8"},
                {"id": "a1", "team": "away", "at": "L8"},
            ]
        },
        "dice": [],
        "steps": [
            {"as": "home:captain", "declare": {"player": "h1", "action": "move", "path": ["J8"]}}
        ],
    }
    result = run_scenario(data)
    assert result["failures"] == ["steps[0]: dice exhausted"]
