from __future__ import annotations

import json
from pathlib import Path

from rules.engine.skills import REGISTRY, implemented
from rules.engine.tables import CASUALTY, agility_target, injury_result

DATA = Path(__file__).resolve().parent.parent / "data" / "lrb5"
PART1 = {
    "Block",
    "Dodge",
    "Sure Hands",
    "Sure Feet",
    "Sprint",
    "Catch",
    "Pass",
    "Tackle",
    "Guard",
    "Mighty Blow",
    "Stand Firm",
    "Side Step",
    "Frenzy",
    "Wrestle",
    "Horns",
    "Dauntless",
    "Juggernaut",
    "Break Tackle",
    "Strip Ball",
    "Thick Skull",
    "Stunty",
    "Pro",
    "Loner",
    "Claw/Claws",
    "Grab",
    "Fend",
    "Dirty Player",
    "Sneaky Git",
    "Regeneration",
    "Bone-Head",
    "Really Stupid",
    "Wild Animal",
    "Take Root",
}
PART2 = {
    "Accurate",
    "Strong Arm",
    "Safe Throw",
    "Nerves of Steel",
    "Dump-Off",
    "Hail Mary Pass",
    "Leader",
    "Diving Catch",
    "Diving Tackle",
    "Shadowing",
    "Pass Block",
    "Kick",
    "Kick-Off Return",
    "Extra Arms",
    "Big Hand",
    "Very Long Legs",
    "Two Heads",
    "Tentacles",
    "Prehensile Tail",
    "Disturbing Presence",
    "Throw Team-Mate",
    "Right Stuff",
    "Always Hungry",
    "Leap",
    "No Hands",
}


def test_the_registry_lists_which_skills_of_skills_json_are_implemented() -> None:
    names = {s["name"] for s in json.loads((DATA / "skills.json").read_text())["skills"]}
    assert set(implemented()) <= names
    assert set(implemented()) == PART1 | PART2
    missing = sorted(names - set(implemented()))
    assert len(missing) == 74 - 33 - 25
    for skill in REGISTRY.values():
        assert skill.hooks, f"{skill.name} names no hook"


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
