"""preview and legal_actions: what the web UI shows before a coach posts."""

from __future__ import annotations

from rules.engine import Declaration, MatchState, chance, legal_actions, preview


def position() -> MatchState:
    return MatchState.from_setup(
        {
            "turn": {"home": 3, "away": 2},
            "players": [
                {"id": "h1", "team": "home", "at": "K8", "ag": 3},
                {"id": "h2", "team": "home", "at": "O8", "side": "rival"},
                {"id": "a1", "team": "away", "at": "L8"},
                {"id": "a2", "team": "away", "at": "H3", "state": "prone"},
            ],
            "ball": {"carrier": "h1"},
        }
    )


def test_chance_counts_the_natural_one_and_six() -> None:
    assert chance(4, {"dodge": 1}) == 4 / 6
    assert chance(6, {"tackle_zones": -3}) == 1 / 6
    assert chance(1, {"x": 5}) == 5 / 6
    assert chance(2, {}, agility=False) == 5 / 6


def test_a_dodge_then_going_for_it_shows_each_roll_and_the_overall_chance() -> None:
    state = position()
    path = ("J8", "I8", "H8", "G8", "F8", "E8", "D8")
    rolls = preview(state, "home:captain", Declaration("h1", "move", path))
    assert [r["roll"] for r in rolls] == ["dodge", "gfi", "overall"]
    assert rolls[0]["square"] == "J8" and rolls[0]["target"] == 4
    assert rolls[0]["chance"] == round(4 / 6, 4)
    assert rolls[-1]["chance"] == round(4 / 6 * 5 / 6, 4)


def test_a_block_shows_the_dice_and_who_chooses() -> None:
    state = position()
    rolls = preview(state, "home:captain", Declaration("h1", "block", target="a1"))
    assert rolls[0]["roll"] == "block" and rolls[0]["dice"] == 1
    assert rolls[0]["chooser"] == "attacker"


def test_a_pass_shows_the_pass_and_the_catch() -> None:
    state = position()
    rolls = preview(state, "home:captain", Declaration("h1", "pass", target="h2"))
    assert [r["roll"] for r in rolls] == ["pass", "catch", "overall"]
    assert rolls[0]["modifiers"] == {"quick": 1, "tackle_zones": -1}


def test_legal_actions_lists_what_the_player_may_declare_now() -> None:
    state = position()
    assert legal_actions(state, "home:captain", "h1") == [
        "move",
        "block",
        "blitz",
        "pass",
        "hand_off",
        "foul",
    ]
    assert legal_actions(state, "home:captain", "h2") == []
    assert legal_actions(state, "home:rival", "h2")[0] == "move"
    assert legal_actions(state, "away:captain", "a1") == []


def test_a_fouls_armour_roll_is_on_the_target_square_not_the_foulers() -> None:
    state = position()
    path = ("J7", "I6", "I5", "I4")  # h1 walks from K8 to beside a2, prone on H3
    rolls = preview(state, "home:captain", Declaration("h1", "foul", path, target="a2"))
    armour = next(r for r in rolls if r["roll"] == "armour")
    assert armour["square"] == "H3"
