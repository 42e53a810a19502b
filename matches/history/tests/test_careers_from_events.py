"""Careers and records over random records of matches: each match a random list of feats
(touchdowns, interceptions, completions, casualties by block) written as the engine writes
their events, some of them taken back by a GM's rewind. The careers and records must be the
feats that stand, counted here from the list, not from the events."""

from collections import Counter
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from matches.record import careers

HOME = [f"h{n}" for n in range(1, 12)]
AWAY = [f"a{n}" for n in range(1, 12)]
LINEUP: dict[str, dict[str, Any]] = {
    pid: {"pk": 100 + i, "kind": "player"} for i, pid in enumerate(HOME + AWAY)
}


@dataclass(frozen=True)
class Event:
    number: int
    type: str
    data: dict[str, Any]


def _side(pid: str) -> str:
    return "home" if pid.startswith("h") else "away"


def _feat_events(kind: str, one: str, other: str) -> list[tuple[str, dict[str, Any]]]:
    """A feat of ``one`` (``other`` an opponent or a team-mate, as the feat needs) as the
    engine records it."""
    act = ("declaration", {"actor": f"{_side(one)}:captain"})
    if kind == "touchdowns":
        return [act, ("move", {"player": one}), ("touchdown", {"player": one})]
    if kind == "interceptions":
        return [act, ("interception", {"player": one})]
    if kind == "completions":
        return [
            act,
            ("throw", {"player": one, "target": other}),
            ("pass", {"player": one, "result": "accurate"}),
            ("catch", {"player": other, "result": "success"}),
        ]
    return [
        act,
        ("block_result", {"player": one, "target": other}),
        ("knocked_down", {"player": other}),
        ("armour", {"player": other}),
        ("injury", {"player": other, "result": "casualty"}),
        ("casualty", {"player": other, "result": "badly_hurt"}),
    ]


feat = st.tuples(
    st.sampled_from(["touchdowns", "interceptions", "completions", "casualties"]),
    st.integers(0, 21),
    st.integers(0, 10),
    st.booleans(),  # taken back by a rewind
)
match_plan = st.tuples(
    st.lists(feat, max_size=12),
    st.integers(0, 5),
    st.integers(0, 5),
    st.sampled_from(["home", "away", None]),
)


def _record(
    feats: list[tuple[str, int, int, bool]],
) -> tuple[list[Event], Counter[tuple[str, str]]]:
    """The events of a match and the feats that stand, by (engine id, kind)."""
    events: list[Event] = []
    standing: Counter[tuple[str, str]] = Counter()
    for kind, who, whom, undone in feats:
        one = (HOME + AWAY)[who]
        mates, opponents = (HOME, AWAY) if _side(one) == "home" else (AWAY, HOME)
        other = (
            [p for p in mates if p != one][whom % 10] if kind == "completions" else opponents[whom]
        )
        first = len(events) + 1
        for type_, data in _feat_events(kind, one, other):
            events.append(Event(len(events) + 1, type_, data))
        if undone:
            taken = list(range(first, len(events) + 1))
            events.append(Event(len(events) + 1, "rewind", {"undone": taken}))
        else:
            standing[(one, kind)] += 1
    return events, standing


@settings(max_examples=200, deadline=None)
@given(plans=st.lists(match_plan, min_size=1, max_size=4))
def test_careers_and_records_are_the_feats_that_stand(plans: list[Any]) -> None:
    lines: list[careers.Line] = []
    games: list[careers.Game] = []
    expected: dict[int, Counter[str]] = {entry["pk"]: Counter() for entry in LINEUP.values()}
    best_in_match: Counter[str] = Counter()
    for number, (feats, home_score, away_score, winner) in enumerate(plans):
        events, standing = _record(feats)
        match_lines = careers.lines_of_match(number, events, LINEUP, {"h1": "mje"}, {"a1": "dead"})
        assert [line.engine_id for line in match_lines] == HOME + AWAY  # by shirt, as numbers
        lines += match_lines
        for (pid, kind), count in standing.items():
            expected[LINEUP[pid]["pk"]][kind] += count
            best_in_match[kind] = max(best_in_match[kind], count)
        games += careers.games_of(
            number, "H", "A", {"home": home_score, "away": away_score}, winner
        )

    by_player = careers.careers(lines)
    kinds = ("touchdowns", "interceptions", "completions", "casualties")
    for pk, want in expected.items():
        career = by_player[pk]
        assert career.matches == len(plans)
        assert {kind: career.total(kind) for kind in kinds} == {kind: want[kind] for kind in kinds}
        spp = 3 * want["touchdowns"] + 2 * want["interceptions"] + want["completions"]
        spp += 2 * want["casualties"] + (5 * len(plans) if pk == LINEUP["h1"]["pk"] else 0)
        assert career.spp == spp == sum(career.spp_by_kind().values())
        assert career.casualties_suffered == (len(plans) if pk == LINEUP["a1"]["pk"] else 0)

    found = careers.records(lines, games, top=3)
    assert [f.value for f in found.match_touchdowns[:1]] == [
        v for v in [best_in_match["touchdowns"]] if v
    ]
    most = max(expected.values(), key=lambda line: line["casualties"])["casualties"]
    assert [f.value for f in found.career_casualties[:1]] == [v for v in [most] if v]
    wins = [g.scored - g.conceded for g in games if g.result == "win" and g.scored > g.conceded]
    assert (
        [f.value for f in found.biggest_wins[:1]] == [max(wins)] if wins else not found.biggest_wins
    )
    h2h = careers.head_to_head(g for g in games if g.team == "H")
    assert len(h2h) == 1 and h2h[0].played == len(plans)
    assert h2h[0].scored == sum(plan[1] for plan in plans)
