"""Whole random legal matches, from new_match to the final whistle, never break an invariant."""

from __future__ import annotations

import json
import random

from rules.engine import FairDice, MatchState
from rules.engine.actions import Event
from rules.engine.match import new_match
from rules.engine.randomplay import play_match, play_one, random_sheet

from .test_properties import check_invariants, check_loose_ball


def match_invariants(state: MatchState, events: list[Event]) -> None:
    squares = [p.at for p in state.players.values() if p.at is not None]
    assert len(squares) == len(set(squares)), "two players on one square"
    for team in ("home", "away"):
        assert sum(1 for p in state.players.values() if p.team == team and p.at is not None) <= 11
    assert (state.carrier is not None) + (state.ball_at is not None) <= 1, "more than one ball"
    if state.phase in ("setup", "kickoff", "pregame"):
        assert state.carrier is None and state.ball_at is None
    assert state.board == {p.at: pid for pid, p in state.players.items() if p.at is not None}
    check_loose_ball(state)


def test_a_thousand_random_matches_end_with_a_result_and_keep_every_invariant() -> None:
    ended_by: dict[str, int] = {}
    touchdowns = 0
    for i in range(1000):
        rng = random.Random(i)
        dice = FairDice(b"whole-matches", f"match-{i}")
        seen = {"dice": 0, "score": 0}

        def check(state: MatchState, events: list[Event], seen: dict[str, int] = seen) -> None:
            match_invariants(state, events)
            faces = sum(len(e.data.get("faces", ())) for e in events)
            assert state.dice_used - seen["dice"] == faces, "a die was read without an event"
            scored = sum(1 for e in events if e.type == "touchdown")
            assert state.score["home"] + state.score["away"] - seen["score"] == scored
            seen["dice"] = state.dice_used
            seen["score"] = state.score["home"] + state.score["away"]

        played = play_match(dice, rng, house_rules=i % 2 == 0, check=check)
        state = played.state
        assert state.phase == "finished" and state.result is not None
        result = state.result
        assert result["score"] == state.score
        if result["by"] in ("full_time", "overtime"):
            assert (
                result["winner"] is None
                or state.score[result["winner"]] > max(state.score.values()) - 1
            )
        ended_by[result["by"]] = ended_by.get(result["by"], 0) + 1
        touchdowns += sum(state.score.values())
        if i % 100 == 0:
            check_invariants(state)
            assert len(json.dumps(state.to_json(compact=True))) <= 12 * 1024
    assert touchdowns > 0
    assert set(ended_by) >= {"full_time", "shoot_out"}


def test_new_match_starts_in_the_pregame_with_everyone_in_the_reserves() -> None:
    from rules.engine import PlayerSheet, TeamSheet, new_match

    home = TeamSheet((PlayerSheet("h1", 1, 6, 3, 3, 8, ("Block",)),), rerolls=3, fan_factor=4)
    away = TeamSheet((PlayerSheet("a1", 1, 6, 3, 3, 8, side="rival"),), apothecary=True)
    state = new_match(home, away)
    assert state.phase == "pregame" and state.turn == {"home": 0, "away": 0}
    assert state.players["h1"].state == "reserves" and state.players["a1"].side == "rival"
    assert state.teams["home"].rerolls == 3 and state.teams["away"].apothecary
    again = MatchState.from_json(json.loads(json.dumps(state.to_json(compact=True))))
    assert again.to_json() == state.to_json()


def test_player_ids_must_be_unique_across_both_teams() -> None:
    import pytest

    from rules.engine import PlayerSheet, TeamSheet, new_match

    sheet = TeamSheet((PlayerSheet("p1", 1, 6, 3, 3, 8),))
    with pytest.raises(ValueError, match="twice"):
        new_match(sheet, sheet)


def test_a_match_played_in_place_or_without_its_events_is_the_same_match() -> None:
    """``play_match`` changes each state in place (and may drop the events): the same match
    as declaring one by one on copies, with the same events."""
    for i in range(30):
        house = i % 2 == 0
        dice = FairDice(b"events", f"match-{i}")
        rng = random.Random(i)
        state = new_match(random_sheet(rng, "h"), random_sheet(rng, "a"), house)
        events: list[Event] = []
        while state.phase != "finished":
            previous = state
            state, evs = play_one(state, dice, rng, whole=True)
            assert state is not previous
            events.extend(evs)
        in_place, dropped = random.Random(i), random.Random(i)
        played = play_match(dice, in_place, house_rules=house)
        quiet = play_match(dice, dropped, house_rules=house, keep_events=False)
        assert [e.to_json() for e in played.events] == [e.to_json() for e in events]
        assert quiet.events == []
        assert played.state.to_json() == quiet.state.to_json() == state.to_json()
        assert played.declarations == quiet.declarations
        assert in_place.getstate() == dropped.getstate() == rng.getstate()
