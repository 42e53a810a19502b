"""Improvement rolls and serious injuries (teams/advancement.py and their use after a match)."""

import pytest
from django.template import Context, Template
from django.utils import translation

from rules import gamedata
from teams import advancement
from teams.advancement import ImprovementRoll


def test_thresholds_are_6_16_31_51_76_176() -> None:
    assert advancement.thresholds() == (6, 16, 31, 51, 76, 176)
    assert [advancement.level(n) for n in (0, 5, 6, 15, 16, 31, 51, 76, 176)] == [
        0,
        0,
        1,
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert advancement.rolls_due(3, 8) == 1
    assert advancement.rolls_due(5, 16) == 2
    assert advancement.rolls_due(6, 15) == 0


def test_a_plain_roll_offers_the_normal_categories_only() -> None:
    lineman = gamedata.position("human.lineman")
    options = advancement.options(lineman, [], ImprovementRoll(2, 5))
    assert "Block" in options and "Dodge" not in options
    assert not any(o.startswith("+") for o in options)


def test_doubles_open_the_double_categories() -> None:
    lineman = gamedata.position("human.lineman")
    options = advancement.options(lineman, [], ImprovementRoll(3, 3))
    assert "Dodge" in options and "Guard" in options and "Block" in options


def test_10_to_12_offer_a_characteristic_increase() -> None:
    lineman = gamedata.position("human.lineman")
    assert advancement.options(lineman, [], ImprovementRoll(4, 6))[:2] == ["+MA", "+AV"]
    assert advancement.options(lineman, [], ImprovementRoll(5, 6))[0] == "+AG"
    assert advancement.options(lineman, [], ImprovementRoll(6, 6))[0] == "+ST"
    assert advancement.options(lineman, ["+ST", "+ST"], ImprovementRoll(6, 6))[0] != "+ST"


def test_skills_already_had_are_not_offered_again() -> None:
    blitzer = gamedata.position("human.blitzer")
    options = advancement.options(blitzer, ["Tackle"], ImprovementRoll(1, 2))
    assert "Block" not in options and "Tackle" not in options and "Guard" in options


def test_serious_injuries_change_the_record() -> None:
    assert advancement.injury_change("badly_hurt") == advancement.InjuryChange()
    assert advancement.injury_change("niggling_injury").niggling == 1
    assert advancement.injury_change("minus_ma").stat == "MA"
    assert advancement.injury_change("minus_ma").miss_next_game
    assert advancement.injury_change("dead").dead
    lineman = gamedata.position("human.lineman")
    assert advancement.stat_loss_allowed(lineman, "AV", [], 1)
    assert not advancement.stat_loss_allowed(lineman, "AV", [], 2)


@pytest.mark.parametrize(
    ("language", "code", "shown"),
    [
        ("en", "badly_hurt", "badly hurt"),
        ("es", "badly_hurt", "malherido"),
        ("es", "miss_next_game", "se pierde el próximo partido"),
        ("es", "", ""),
    ],
)
def test_a_player_s_match_history_names_the_casualty_in_the_reader_s_language(
    language: str, code: str, shown: str
) -> None:
    """The history on the advancement page printed the engine's code (``badly_hurt``)."""
    template = Template("{% load teams_tags %}{{ code|casualty_label }}")
    with translation.override(language):
        assert template.render(Context({"code": code})) == shown
