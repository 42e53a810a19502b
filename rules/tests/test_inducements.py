"""Inducements from the team sheets (seed 003) and the pre-match order: weather first."""

from __future__ import annotations

import json

import pytest

from rules.engine import (
    Actor,
    Answer,
    Declaration,
    FairDice,
    MatchState,
    Pending,
    PlayerSheet,
    ScriptedDice,
    TeamSheet,
    legal,
    new_match,
    resolve,
)
from rules.engine.state import Team

HOME = Actor("home", "captain")


def _players(prefix: str, n: int = 11) -> tuple[PlayerSheet, ...]:
    return tuple(PlayerSheet(f"{prefix}{i}", i, 6, 3, 3, 8) for i in range(1, n + 1))


def test_every_inducement_reaches_the_state() -> None:
    home = TeamSheet(
        (
            *_players("h"),
            PlayerSheet("h12", 12, 7, 4, 4, 9, ("Block",), star=True),
            PlayerSheet("h13", 13, 6, 3, 3, 8, ("Tackle",), mercenary=True),
        ),
        rerolls=2,
        apothecary=True,
        babes=2,
        chefs=1,
        wandering_apothecaries=2,
        extra_training=3,
        bribes=3,
        igor=False,
    )
    away = TeamSheet(_players("a"), rerolls=1, bribes=1, igor=True, race="undead")
    st = new_match(home, away)
    h, a = st.teams["home"], st.teams["away"]
    assert (h.rerolls, h.base_rerolls) == (5, 5)  # 2 + 3 Extra Team Training, every half
    assert (h.apothecary, h.babes, h.chefs, h.bribes, h.igor) == (3, 2, 1, 3, False)
    assert (a.rerolls, a.apothecary, a.babes, a.chefs, a.bribes, a.igor) == (1, 0, 0, 0, 1, True)
    assert st.players["h12"].star and st.players["h12"].has("Loner")
    assert st.players["h13"].has("Loner") and not st.players["h13"].star
    shown = st.to_json()["teams"]["home"]
    assert shown["apothecary"] == 3 and shown["babes"] == 2 and shown["chefs"] == 1
    again = MatchState.from_json(json.loads(json.dumps(st.to_json(compact=True))))
    assert again.to_json() == st.to_json()


def test_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="babes"):
        new_match(TeamSheet(_players("h"), babes=-1), TeamSheet(_players("a")))
    with pytest.raises(ValueError, match="weather"):
        new_match(TeamSheet(_players("h")), TeamSheet(_players("a")), weather="fog")


@pytest.mark.parametrize(
    ("stored", "uses", "shown"), [(True, 1, True), (False, 0, False), (2, 2, 2)]
)
def test_apothecary_true_false_or_a_count(stored: object, uses: int, shown: object) -> None:
    team = Team.from_json({"apothecary": stored})
    assert team.apothecary == uses
    assert team.to_json()["apothecary"] == shown
    assert type(team.to_json()["apothecary"]) is type(shown)


def test_apothecary_count_is_never_negative() -> None:
    with pytest.raises(ValueError, match="apothecary"):
        Team.from_json({"apothecary": -1})


def test_split_pre_match_equals_one_start_match() -> None:
    """Weather, then (inducements chosen, the match built again) the rest: the same dice give
    the same match as one ``start_match``."""
    home, away = TeamSheet(_players("h"), fan_factor=3), TeamSheet(_players("a"))
    dice = FairDice(b"split", "m1")
    start = Declaration(None, "start_match")

    def receive(p: Pending) -> Answer:
        return Answer(p.kind, "receive")

    one = resolve(new_match(home, away), HOME, start, (), dice, receive)
    assert one.pending is None and one.state.phase == "setup"

    first = new_match(TeamSheet(_players("h")), TeamSheet(_players("a")))
    weather = Declaration(None, "pregame_weather")
    assert legal(first, HOME, weather) is None
    w = resolve(first, HOME, weather, (), dice)
    assert w.state.phase == "pregame" and w.state.weather_rolled
    assert [e.type for e in w.events] == ["weather"] and w.state.dice_used == 2
    assert legal(w.state, HOME, weather) is not None  # once only
    # ... petty cash and inducements are chosen here; the fan factor is known ...
    built = new_match(home, away, weather=w.state.weather, dice_used=w.state.dice_used)
    assert built.weather_rolled
    rest = resolve(built, HOME, start, (), dice, receive)
    assert rest.state.to_json() == one.state.to_json()
    assert [e.to_json() for e in w.events + rest.events] == [e.to_json() for e in one.events]


def test_single_start_match_still_rolls_the_weather() -> None:
    st = new_match(TeamSheet(_players("h")), TeamSheet(_players("a")))
    dice = ScriptedDice([6, 6, 1, 1, 1, 1, 4])
    res = resolve(st, HOME, Declaration(None, "start_match"), (), dice)
    assert res.pending is not None and res.pending.kind == "kick_or_receive"
    assert res.partial is not None and res.partial.weather == "blizzard"
    assert [e.type for e in res.events][:1] == ["weather"]


def test_bribes_and_igor_from_the_sheet_are_spent_in_play() -> None:
    """A foul seen by the referee: the sheet's bribe is offered and works on 2+."""
    sheet = TeamSheet(_players("h"), bribes=1, igor=True)
    st = new_match(sheet, TeamSheet(_players("a")), house_rules=False)
    assert (st.teams["home"].bribes, st.teams["home"].igor) == (1, True)
    setup = st.to_json()
    setup.update(phase="play", active="home", turn={"home": 2, "away": 1})
    for pid, sq, state in (("h1", "K8", "standing"), ("a1", "L8", "prone")):
        setup["players"][pid].update(at=sq, state=state)
    board = MatchState.from_json(setup)
    foul = Declaration("h1", "foul", target="a1")
    assert legal(board, HOME, foul) is None
    res = resolve(board, HOME, foul, (), ScriptedDice([3, 3, 1, 1]))  # a double: seen
    assert res.pending is not None and res.pending.kind == "bribe"
    done = resolve(board, HOME, foul, (Answer("bribe", True),), ScriptedDice([3, 3, 2]))
    assert done.state.teams["home"].bribes == 0
    assert done.state.players["h1"].state == "standing"
