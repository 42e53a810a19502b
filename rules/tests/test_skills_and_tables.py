from __future__ import annotations

import json
from pathlib import Path

from rules.engine.skills import REGISTRY, canonical, implemented
from rules.engine.tables import CASUALTY, agility_target, injury_result

DATA = Path(__file__).resolve().parent.parent / "data" / "lrb5"


def test_every_skill_and_trait_of_skills_json_is_in_the_registry_and_nothing_else() -> None:
    """No allow-list: a skill added to the data without an implementation fails here."""
    data = json.loads((DATA / "skills.json").read_text())["skills"]
    names = {s["name"] for s in data}
    assert set(implemented()) == names
    assert len(names) == 74
    for skill in REGISTRY.values():
        assert skill.hooks, f"{skill.name} names no hook"


def test_every_alias_of_skills_json_reads_as_its_skill() -> None:
    data = json.loads((DATA / "skills.json").read_text())["skills"]
    for s in data:
        for alias in s["aliases"]:
            assert canonical(alias) == s["name"], alias


def test_the_casualty_table_matches_tables_json() -> None:
    table = json.loads((DATA / "tables.json").read_text())["casualty_table"]["results"]
    codes = {
        "no lasting effect": "badly_hurt",
        "miss next game": "miss_next_game",
        "niggling injury + miss next game": "niggling_injury",
        "-1 MA + miss next game": "minus_ma",
        "-1 AV + miss next game": "minus_av",
        "-1 AG + miss next game": "minus_ag",
        "-1 ST + miss next game": "minus_st",
        "the player is dead": "dead",
    }
    for row in table:
        lo, _, hi = row["range"].partition("-")
        for value in range(int(lo), int(hi or lo) + 1):
            if value % 10 in (0, 9):
                continue
            assert CASUALTY[value] == codes[row["effect"]], value
    assert len(CASUALTY) == 48


def test_agility_and_injury_tables() -> None:
    assert [agility_target(ag) for ag in range(1, 8)] == [6, 5, 4, 3, 2, 1, 1]
    assert injury_result(7, thick_skull=False, stunty=False) == "stunned"
    assert injury_result(8, thick_skull=False, stunty=False) == "ko"
    assert injury_result(8, thick_skull=True, stunty=False) == "stunned"
    assert injury_result(10, thick_skull=False, stunty=False) == "casualty"
    assert injury_result(7, thick_skull=False, stunty=True) == "ko"
    assert injury_result(9, thick_skull=False, stunty=True) == "badly_hurt"
