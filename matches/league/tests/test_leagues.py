"""The season's arithmetic: the round robin, the standings with their tie-breaks, and what a
match's record says (touchdowns, casualties, SPP), undone events left out."""

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import pytest

from matches.record.season import (
    PlayerLine,
    Points,
    Result,
    leaders,
    round_robin,
    standings,
    tally,
)

SIX = ["Reavers", "Raiders", "Bruisers", "Stunties", "Marauders", "Vampires"]


def test_a_round_robin_of_six_teams_has_every_pair_meet_once_in_five_rounds() -> None:
    rounds = round_robin(SIX)
    assert len(rounds) == 5
    assert all(len(pairs) == 3 for pairs in rounds)
    met = Counter(frozenset(pair) for pairs in rounds for pair in pairs)
    assert set(met) == {frozenset(pair) for pair in combinations(SIX, 2)}
    assert set(met.values()) == {1}


def test_no_team_plays_twice_in_a_round() -> None:
    for pairs in round_robin(SIX):
        playing = [team for pair in pairs for team in pair]
        assert len(playing) == len(set(playing)) == 6


def test_home_and_away_games_are_shared_out() -> None:
    rounds = round_robin(SIX)
    home = Counter(h for pairs in rounds for h, _a in pairs)
    assert all(home[team] in (2, 3) for team in SIX)


@pytest.mark.parametrize("count", [2, 3, 4, 5, 7, 8, 9, 12])
def test_any_number_of_teams_gets_a_season_with_one_team_resting_when_odd(count: int) -> None:
    teams = list(range(count))
    rounds = round_robin(teams)
    assert len(rounds) == (count if count % 2 else count - 1)
    met = Counter(frozenset(pair) for pairs in rounds for pair in pairs)
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}
    for pairs in rounds:
        playing = [team for pair in pairs for team in pair]
        assert len(playing) == len(set(playing)) == count - count % 2


def test_the_standings_count_games_touchdowns_casualties_and_points() -> None:
    results = [
        Result("A", "B", 2, 1, "home", 3, 1),
        Result("B", "C", 1, 1, None, 0, 2),
        Result("C", "A", 0, 2, "away", 1, 0),
    ]
    table = standings(["A", "B", "C"], results, Points(3, 1, 0))
    # B and C have a point each; B's touchdown difference (-1) beats C's (-2).
    assert [row.team for row in table] == ["A", "B", "C"]
    a, b, c = table
    assert (a.played, a.won, a.drawn, a.lost, a.td_for, a.td_against, a.casualties, a.points) == (
        2,
        2,
        0,
        0,
        4,
        1,
        3,
        6,
    )
    assert (b.played, b.won, b.drawn, b.lost, b.points) == (2, 0, 1, 1, 1)
    assert (c.td_for, c.td_against, c.casualties, c.points) == (1, 3, 3, 1)


def test_a_tie_on_points_goes_to_the_touchdown_difference() -> None:
    results = [Result("A", "X", 3, 0, "home"), Result("B", "X", 1, 0, "home")]
    table = standings(["B", "A", "X"], results, Points())
    assert [row.team for row in table] == ["A", "B", "X"]


def test_a_tie_on_points_and_difference_goes_to_the_casualties() -> None:
    results = [
        Result("A", "X", 1, 0, "home", home_casualties=1),
        Result("B", "Y", 1, 0, "home", home_casualties=4),
    ]
    table = standings(["A", "B", "X", "Y"], results, Points())
    assert [row.team for row in table][:2] == ["B", "A"]


def test_the_league_points_are_the_league_settings() -> None:
    table = standings(["A", "B"], [Result("A", "B", 0, 0, None)], Points(2, 5, -1))
    assert [row.points for row in table] == [5, 5]
    table = standings(["A", "B"], [Result("A", "B", 0, 1, "away")], Points(2, 5, -1))
    assert [(row.team, row.points) for row in table] == [("B", 2), ("A", -1)]


def test_an_awarded_match_counts_for_the_team_it_was_awarded_to() -> None:
    table = standings(["A", "B"], [Result("A", "B", 1, 1, "away")], Points())
    assert [(row.team, row.won, row.lost) for row in table] == [("B", 1, 0), ("A", 0, 1)]


def test_a_team_without_games_is_in_the_table() -> None:
    table = standings(["A", "B", "Idle"], [Result("A", "B", 1, 0, "home")], Points())
    idle = next(row for row in table if row.team == "Idle")
    assert (idle.played, idle.points) == (0, 0)


@dataclass
class Ev:
    number: int
    type: str
    data: dict[str, Any] = field(default_factory=dict)


def _declaration(n: int, actor: str, player: str | None, action: str) -> Ev:
    return Ev(
        n, "declaration", {"actor": actor, "declaration": {"player": player, "action": action}}
    )


def _action(n: int, player: str, action: str) -> Ev:
    return Ev(n, "action", {"player": player, "action": action})


def test_a_match_record_gives_touchdowns_casualties_and_completions() -> None:
    events = [
        _declaration(1, "home:captain", "h1", "block"),
        _action(2, "h1", "block"),
        Ev(3, "block_result", {"player": "h1", "target": "a4", "face": 6}),
        Ev(4, "knocked_down", {"player": "a4"}),
        Ev(5, "injury", {"player": "a4", "result": "casualty", "crowd": False}),
        Ev(6, "casualty", {"player": "a4", "result": "broken_ribs"}),
        Ev(7, "casualty", {"player": "a4", "result": "badly_hurt"}),  # the apothecary's roll
        _declaration(8, "home:rival", "h3", "pass"),
        _action(9, "h3", "pass"),
        Ev(10, "throw", {"player": "h3", "target": "h8"}),
        Ev(11, "pass", {"player": "h3", "result": "accurate"}),
        Ev(12, "catch", {"player": "h8", "result": "success"}),
        _declaration(13, "home:rival", "h8", "move"),
        Ev(14, "touchdown", {"player": "h8", "team": "home"}),
        _declaration(15, "away:captain", "a2", "foul"),
        Ev(16, "foul", {"player": "a2", "target": "h5"}),
        Ev(17, "injury", {"player": "h5", "result": "casualty", "crowd": False}),
        Ev(18, "casualty", {"player": "h5", "result": "dead"}),
        _declaration(19, "away:captain", "a1", "move"),
        Ev(20, "injury", {"player": "a1", "result": "casualty", "crowd": False}),  # its own dodge
        Ev(21, "casualty", {"player": "a1", "result": "broken_ribs"}),
    ]
    counted = tally(events)
    assert counted.casualties == {"home": 1, "away": 1}  # the foul's counts for the standings
    assert counted.players["h1"].casualties == 1 and counted.players["h1"].spp == 2
    assert counted.players["h3"].completions == 1 and counted.players["h3"].spp == 1
    assert counted.players["h8"].touchdowns == 1 and counted.players["h8"].spp == 3
    assert counted.players["a2"].spp == 0  # a foul earns no SPP


def test_undone_events_are_not_counted() -> None:
    events = [
        _declaration(1, "home:captain", "h8", "move"),
        Ev(2, "touchdown", {"player": "h8", "team": "home"}),
        Ev(3, "rewind", {"undone": [1, 2]}),
        _declaration(4, "home:captain", "h8", "move"),
    ]
    assert tally(events).players["h8"].touchdowns == 0


def test_an_interception_earns_spp_and_spoils_the_completion() -> None:
    events = [
        _declaration(1, "home:captain", "h3", "pass"),
        Ev(2, "throw", {"player": "h3", "target": "h8"}),
        Ev(3, "interception", {"player": "a7", "thrower": "h3"}),
        Ev(4, "catch", {"player": "h8", "result": "success"}),
    ]
    counted = tally(events)
    assert counted.players["a7"].spp == 2 and counted.players["h3"].completions == 0


def test_the_leaders_are_ranked_and_nobody_at_zero_is_listed() -> None:
    lines = {
        "Karl": PlayerLine(touchdowns=3),
        "Grimgor": PlayerLine(casualties=4),
        "Lena": PlayerLine(touchdowns=1, completions=2),
        "Hans": PlayerLine(),
    }
    board = leaders(lines, top=2)
    assert [(x.player, x.value) for x in board["touchdowns"]] == [("Karl", 3), ("Lena", 1)]
    assert [(x.player, x.value) for x in board["casualties"]] == [("Grimgor", 4)]
    assert [(x.player, x.value) for x in board["spp"]] == [("Karl", 9), ("Grimgor", 8)]
