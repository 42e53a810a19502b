import json
import subprocess
import sys

import pytest

from rules import gamedata


def test_it_reads_every_lrb5_race_and_position() -> None:
    counts = json.loads((gamedata.DATA_DIR / "races.json").read_text())["counts"]
    assert len(gamedata.races()) == counts["races"] == 21
    assert sum(len(r.positions) for r in gamedata.races()) == counts["positions"]


def test_every_position_id_is_the_race_and_a_slug_of_the_title() -> None:
    assert gamedata.position("chaos_dwarf.chaos_dwarf_blocker").title == "Chaos Dwarf Blocker"
    assert gamedata.position("khemri.thro_ra").title == "Thro-Ra"
    ids = [p.id for race in gamedata.races() for p in race.positions]
    assert len(ids) == len(set(ids))
    for race in gamedata.races():
        for position in race.positions:
            slug = "".join(c if c.isalnum() else "_" for c in position.title.lower())
            assert position.id == f"{race.id}.{slug}"
            assert gamedata.position(position.id) is position


def test_every_race_fields_a_sixteen_player_position() -> None:
    for race in gamedata.races():
        assert any(p.max_qty == 16 for p in race.positions), race.id


def test_a_position_carries_its_cost_stats_and_skills() -> None:
    blitzer = gamedata.position("human.blitzer")
    assert (blitzer.cost, blitzer.max_qty) == (90_000, 4)
    assert (blitzer.ma, blitzer.st, blitzer.ag, blitzer.av) == (7, 3, 3, 8)
    assert blitzer.skills == ("Block",)


def test_races_are_found_by_id_or_english_name() -> None:
    assert gamedata.race("dark_elf") is gamedata.race("Dark Elf")
    with pytest.raises(gamedata.UnknownRace):
        gamedata.race("slann")


def test_an_unknown_position_is_a_specific_error() -> None:
    with pytest.raises(gamedata.UnknownPosition):
        gamedata.position("human.wizard")
    with pytest.raises(gamedata.UnknownPosition):
        gamedata.position("elves.lineman")


def test_races_and_skills_have_spanish_names_from_the_glossary() -> None:
    assert gamedata.race("human").label("es") == "Humanos"
    assert gamedata.race("human").label("en") == "Human"
    assert gamedata.skill("Block").label("es") == "Placar"
    assert gamedata.skill("Mighty Blow").label("es-ES") == "Golpe Mortífero"
    assert all(s.name_es for s in gamedata.skills())


def test_skills_are_found_by_alias() -> None:
    assert gamedata.skill("MB").name == "Mighty Blow"
    assert gamedata.skill("claws").name == "Claw/Claws"
    with pytest.raises(gamedata.UnknownSkill):
        gamedata.skill("Animosity")


def test_skill_access_follows_the_positions_categories() -> None:
    lineman = gamedata.position("human.lineman")
    assert lineman.access("Block") == "normal"
    assert lineman.access("Dodge") == "double"
    assert lineman.access("Horns") is None
    assert lineman.access("Loner") is None


def test_improvements_add_the_lrb5_value() -> None:
    lineman = gamedata.position("human.lineman")
    assert gamedata.improvement_cost(lineman, "Block") == 20_000
    assert gamedata.improvement_cost(lineman, "Dodge") == 30_000
    assert gamedata.improvement_cost(lineman, "+MA") == 30_000
    assert gamedata.improvement_cost(lineman, "+AV") == 30_000
    assert gamedata.improvement_cost(lineman, "+AG") == 40_000
    assert gamedata.improvement_cost(lineman, "+ST") == 50_000
    with pytest.raises(gamedata.GameDataError):
        gamedata.improvement_cost(lineman, "Horns")


def test_rerolls_cost_double_after_creation() -> None:
    assert gamedata.race("orc").reroll_cost == 60_000
    assert gamedata.race("orc").reroll_cost_after_creation == 120_000


def test_team_building_follows_lrb5() -> None:
    rules = gamedata.team_building()
    assert rules.treasury == 1_000_000
    assert (rules.players_min, rules.players_max, rules.max_rerolls) == (11, 16, 8)
    assert rules.apothecary_cost == 50_000
    assert rules.fan_factor_cost == rules.assistant_coach_cost == rules.cheerleader_cost == 10_000


def test_four_races_may_not_hire_an_apothecary() -> None:
    without = {r.id for r in gamedata.races() if not r.apothecary_allowed}
    assert without == {"khemri", "necromantic", "nurgle", "undead"}


def test_goblin_bribes_cost_fifty_thousand_as_seed_003_says() -> None:
    bribes = gamedata.inducement("bribes")
    assert bribes.cost_for("goblin") == 50_000
    assert bribes.cost_for("human") == 100_000


def test_halflings_hire_the_master_chef_cheaper() -> None:
    chef = gamedata.inducement("halfling_master_chef")
    assert chef.cost_for("halfling") == 100_000
    assert chef.cost_for("orc") == 300_000


def test_there_is_no_wizard_in_this_league() -> None:
    for race in gamedata.races():
        assert "wizard" not in {i.id for i in gamedata.inducements_for(race.id)}


def test_igor_is_only_for_teams_without_an_apothecary() -> None:
    assert "igor" in {i.id for i in gamedata.inducements_for("undead")}
    assert "igor" not in {i.id for i in gamedata.inducements_for("human")}
    assert "wandering_apothecary" not in {i.id for i in gamedata.inducements_for("undead")}
    assert "wandering_apothecary" in {i.id for i in gamedata.inducements_for("human")}


def test_mercenaries_cost_thirty_thousand_more_and_fifty_for_a_skill() -> None:
    lineman = gamedata.position("human.lineman")
    assert gamedata.mercenary_cost(lineman) == 80_000
    assert gamedata.mercenary_cost(lineman, extra_skill=True) == 130_000


def test_star_players_are_offered_to_their_races() -> None:
    humans = {s.name for s in gamedata.star_players_for("human")}
    assert "Griff Oberwald" in humans
    assert "Grotty" not in {s.name for s in gamedata.star_players_for("ogre")}
    assert "Brick Far'th" in {s.name for s in gamedata.star_players_for("ogre")}
    assert len([s for s in gamedata.star_players() if s.hireable]) == 41


def test_the_glossary_translates_general_terms() -> None:
    assert gamedata.glossary("es")["Apothecary"] == "Médico"
    assert gamedata.glossary("en")["Apothecary"] == "Apothecary"


def test_the_values_are_frozen() -> None:
    with pytest.raises(AttributeError):
        gamedata.race("human").reroll_cost = 1  # type: ignore[misc]


def test_the_module_is_pure_python_without_django() -> None:
    code = (
        "import sys, rules.gamedata as g; g.races(); g.skills(); g.inducements();"
        "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
