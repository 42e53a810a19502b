"""Every pair of the 21 LRB5 races (441 pairings, both orders and mirror matches) plays a whole
random legal match with rosters from rules.gamedata, and no invariant breaks."""

from __future__ import annotations

import json
import random
from pathlib import Path

from rules import gamedata
from rules.engine import FairDice, MatchState, legal
from rules.engine.actions import Event
from rules.engine.randomplay import play_match, race_sheet
from rules.engine.scenario import load_scenario
from rules.engine.skills import REGISTRY
from rules.engine.state import ON_PITCH

from .test_match import match_invariants
from .test_properties import check_invariants

RACES = [r.id for r in gamedata.races()]
SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def test_there_are_21_races() -> None:
    assert len(RACES) == 21


def test_every_pair_of_races_plays_a_whole_random_match() -> None:
    seen_events: set[str] = set()
    for i, home in enumerate(RACES):
        for j, away in enumerate(RACES):
            n = i * len(RACES) + j
            rng = random.Random(n)
            dice = FairDice(b"races", f"{home}-{away}")
            last = {"dice": 0}

            def check(state: MatchState, events: list[Event], last: dict[str, int] = last) -> None:
                match_invariants(state, events)
                faces = sum(len(e.data.get("faces", ())) for e in events)
                assert state.dice_used - last["dice"] == faces, "a die was read without an event"
                last["dice"] = state.dice_used
                for p in state.players.values():
                    assert (p.at is not None) == (p.state in ON_PITCH), p.id
                    if p.state == "casualty":
                        assert p.casualty is not None
                seen_events.update(e.type for e in events)

            played = play_match(dice, rng, house_rules=n % 2 == 0, check=check, races=(home, away))
            state = played.state
            assert state.phase == "finished" and state.result is not None, (home, away)
            again = MatchState.from_json(json.loads(json.dumps(state.to_json(compact=True))))
            assert again.to_json() == state.to_json()
            for team in ("home", "away"):
                zombies = [p for p in state.players.values() if p.id.endswith("-zombie")]
                assert all(
                    p.team != team or state.teams[team].race in ("necromantic", "undead")
                    for p in zombies
                )
            if n % 50 == 0:
                check_invariants(state)
    # the part-3 rules came up in play
    assert {"ball_and_chain", "bomb", "chainsaw_attack", "stab", "secret_weapon"} <= seen_events


def test_race_rosters_are_legal() -> None:
    budget = gamedata.team_building().treasury
    for n, race_id in enumerate(RACES):
        race = gamedata.race(race_id)
        sheet = race_sheet(random.Random(n), race_id, "p")
        regular = [ps for ps in sheet.players if not ps.star]
        assert 11 <= len(regular) <= 16
        counts: dict[str, int] = {}
        cost = sheet.rerolls * race.reroll_cost
        cost += gamedata.team_building().apothecary_cost if sheet.apothecary else 0
        for ps in regular:
            pos = race.position(ps.position)
            counts[pos.id] = counts.get(pos.id, 0) + 1
            assert counts[pos.id] <= pos.max_qty
            cost += pos.cost
            assert set(pos.skills) <= set(ps.skills)
            for gained in set(ps.skills) - set(pos.skills):
                assert pos.access(gained) == "normal", (pos.id, gained)
        assert cost <= budget
        assert not sheet.apothecary or race.apothecary_allowed
        assert not sheet.igor or race.igor_allowed
        assert sheet.necromancer == race.necromancer


def test_every_skill_has_at_least_two_scenarios() -> None:
    counts: dict[str, int] = {}
    for path in sorted(SCENARIOS.rglob("*.json")):
        data = load_scenario(path)
        names = {s for p in data["setup"].get("players", []) for s in p.get("skills", [])}
        for name in names:
            counts[name] = counts.get(name, 0) + 1
    short = {name: counts.get(name, 0) for name in REGISTRY if counts.get(name, 0) < 2}
    assert not short, f"skills with fewer than two scenarios: {short}"


def test_star_players_have_loner_and_neither_apothecary_nor_igor() -> None:
    from rules.engine import PlayerSheet, TeamSheet, new_match

    star = gamedata.star_players()[0]
    home = TeamSheet(
        (PlayerSheet("h1", 1, star.ma, star.st, star.ag, star.av, ("Block",), star=True),),
        apothecary=True,
    )
    state = new_match(home, TeamSheet((PlayerSheet("a1", 1, 6, 3, 3, 8),)))
    assert state.players["h1"].star and state.players["h1"].has("Loner")
    assert all("Loner" in s.skills for s in gamedata.star_players())


def test_the_zombie_is_the_necromantic_zombie_of_the_data() -> None:
    from rules.engine.injury import ZOMBIE

    zombie = gamedata.race("necromantic").position("necromantic.zombie")
    assert (zombie.ma, zombie.st, zombie.ag, zombie.av) == ZOMBIE
    assert zombie.skills == ("Regeneration",)


def test_part3_declarations_round_trip_and_validate() -> None:
    from rules.engine import Declaration

    d = Declaration.from_json(
        {"player": "h1", "action": "block", "target": "a1", "target2": "a2", "stab": False}
    )
    assert Declaration.from_json(d.to_json()) == d
    state = MatchState.from_setup(
        {
            "players": [
                {"id": "h1", "team": "home", "at": "K8", "skills": ["Multiple Block"]},
                {"id": "a1", "team": "away", "at": "L8"},
                {"id": "a2", "team": "away", "at": "L9"},
            ]
        }
    )
    assert legal(state, "home:captain", d) is None
