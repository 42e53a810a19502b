"""Every challenge scenario under rules/live/scenarios/ gives its line and exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.live.cli import run

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(ROOT.glob("*.json"))
MANAGE = Path(__file__).resolve().parents[3] / "manage.py"


def _check(expect: dict[str, object], got: dict[str, object]) -> None:
    if "error" in expect:
        assert {key: got.get(key) for key in expect} == expect
        assert isinstance(got.get("message"), str)
    else:
        assert got == expect


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_gives_its_line_and_exit_status(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    got, status = run(scenario["input"])
    _check(scenario["expect"], got)
    assert status == scenario["exit"]


def test_there_are_scenarios_for_each_kind_of_challenge() -> None:
    kinds = [json.loads(p.read_text(encoding="utf-8"))["input"]["kind"] for p in FILES]
    assert {kind: kinds.count(kind) >= 5 for kind in ("levels", "levelless", "group")} == {
        "levels": True,
        "levelless": True,
        "group": True,
    }


@pytest.mark.parametrize(
    "name",
    [
        "001_seed_example_difference_one_gives_no_redo",
        "020_difference_two_a_lost_first_throw_needs_the_redo",
        "038_levelless_an_unknown_throw_is_bad_input",
        "039_group_the_contracts_example",
    ],
)
def test_the_command_prints_one_line_and_exits_with_the_status(name: str) -> None:
    path = ROOT / f"{name}.json"
    scenario = json.loads(path.read_text(encoding="utf-8"))
    challenge = json.dumps(scenario["input"])
    done = subprocess.run(
        [sys.executable, str(MANAGE), "live_challenge", "-"],
        input=challenge,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    _check(scenario["expect"], json.loads(lines[0]))
    assert done.returncode == scenario["exit"]


def test_the_command_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text('{"kind": "levelless", "a": {"id": "A"}, "b": {"id": "B"}, "throws": []}')
    done = subprocess.run(
        [sys.executable, str(MANAGE), "live_challenge", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (json.loads(done.stdout), done.returncode) == (
        {"ok": False, "needs_throw": ["A", "B"]},
        1,
    )


def test_input_that_is_not_json_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text("{not json")
    done = subprocess.run(
        [sys.executable, str(MANAGE), "live_challenge", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert json.loads(done.stdout)["ok"] is False


def _live_challenge(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MANAGE), "live_challenge", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_file_with_a_utf8_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    challenge = {
        "kind": "levels",
        "a": {"id": "A"},
        "b": {"id": "B"},
        "throws": [["rock", "paper"]],
    }
    path.write_text(json.dumps(challenge), encoding="utf-8-sig")
    done = _live_challenge(path)
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout) == {"ok": True, "winner": "B", "throws_used": 1}


@pytest.mark.parametrize(
    "text",
    [
        "[]",
        '{"kind": "levels", "throws": [["rock", "paper"]]}',
        '{"kind": "levels", "a": {"id": "A"}, "b": {"id": "B"}, "throws": [['
        + "[" * 50000
        + "]" * 50000
        + ', "rock"]]}',
        '{"kind": "levels", "a": {"id": "A"}, "b": {"id": "B"}, "throws": [['
        + "[" * 5000
        + "]" * 5000
        + ', "rock"]]}',
    ],
    ids=["not an object", "no participants", "nested past the parser", "nested deep"],
)
def test_input_that_is_not_a_challenge_gets_a_status_live_md_lists_and_exit_2(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "c.json"
    path.write_text(text)
    done = _live_challenge(path)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"] == "bad_throw"
    assert len(done.stderr.strip().splitlines()) == 1
