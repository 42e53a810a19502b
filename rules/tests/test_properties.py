"""Random legal play from random legal positions never crashes and never breaks an invariant."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import FairDice, MatchState, legal, randomplay
from rules.engine.actions import Actor, Declaration
from rules.engine.legal import legal_declarations
from rules.engine.randomplay import play_match, play_one, random_actor, random_position
from rules.engine.state import Player


def check_invariants(state: MatchState) -> None:
    squares = [p.at for p in state.players.values() if p.at is not None]
    assert len(squares) == len(set(squares)), "two players on one square"
    for team in ("home", "away"):
        on = [p for p in state.players.values() if p.team == team and p.at is not None]
        assert len(on) <= 11
    for p in state.players.values():
        assert (p.at is not None) == (p.state in ("standing", "prone", "stunned"))
    assert state.board == {p.at: pid for pid, p in state.players.items() if p.at is not None}
    balls = (state.carrier is not None) + (state.ball_at is not None)
    assert balls <= 1, "more than one ball"
    if state.carrier is not None:
        assert state.players[state.carrier].state == "standing"
    check_loose_ball(state)
    assert MatchState.from_json(state.to_json()).to_json() == state.to_json()


def check_loose_ball(state: MatchState) -> None:
    """A loose ball lies on an empty square: never under a fallen player (who cannot hold
    it), nor under a standing one (who would have had to pick it up or catch it)."""
    if state.carrier is None and state.ball_at is not None:
        under = state.board.get(state.ball_at)
        assert under is None or state.players[under].state == "standing", (
            "the ball lies under a fallen player"
        )
        assert under is None, "a loose ball on an occupied square"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), house=st.booleans(), steps=st.integers(1, 60))
def test_random_legal_play_keeps_every_invariant(seed: int, house: bool, steps: int) -> None:
    rng = random.Random(seed)
    state = random_position(rng, house_rules=house)
    check_invariants(state)
    dice = FairDice(seed.to_bytes(8, "big"), f"prop-{seed}")
    for _ in range(steps):
        previous = state
        before = state.to_json()
        used = state.dice_used
        state, events = play_one(state, dice, rng)
        assert previous.to_json() == before, "resolve mutated its input state"
        faces = sum(len(e.data.get("faces", ())) for e in events)
        assert state.dice_used - used == faces, "a die was read without an event"
        check_invariants(state)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), house=st.booleans())
def test_generated_declarations_are_legal(seed: int, house: bool) -> None:
    rng = random.Random(seed)
    state = random_position(rng, house_rules=house)
    actor = random_actor(state, rng)
    for decl in legal_declarations(state, actor):
        assert legal(state, actor, decl) is None


def test_a_long_random_game_does_not_crash() -> None:
    rng = random.Random(7)
    state = random_position(rng)
    dice = FairDice(b"long", "long-game")
    turns = 0
    for _ in range(1500):
        state, events = play_one(state, dice, rng)
        turns += sum(1 for e in events if e.type == "turn_start")
        if state.phase == "finished":
            break
    check_invariants(state)
    assert turns > 20 or state.phase == "finished"


def test_random_play_judges_its_candidates_as_legal_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random play's cheap verdict on a candidate declaration is ``legal``'s, in whole
    matches of both rulesets (random stats and races)."""
    quick = randomplay.candidate_legal
    judged = {True: 0, False: 0}

    def compared(
        state: MatchState, actor: Actor, p: Player, d: Declaration, *, may_act: bool
    ) -> bool:
        verdict = quick(state, actor, p, d, may_act=may_act)
        assert verdict == (legal(state, actor, d) is None), d
        judged[verdict] += 1
        return verdict

    monkeypatch.setattr(randomplay, "candidate_legal", compared)
    rng = random.Random(11)
    for i in range(24):
        races = ("orc", "skaven") if i % 3 == 2 else None
        play_match(FairDice(b"candidates", f"m{i}"), rng, house_rules=i % 2 == 0, races=races)
    assert judged[True] > 1000 and judged[False] > 10


def test_random_play_shuffles_as_the_standard_library_does() -> None:
    for seed in range(200):
        for n in (0, 1, 2, 7, 16, 28):
            mine, theirs = list(range(n)), list(range(n))
            a, b = random.Random(seed), random.Random(seed)
            randomplay.shuffle(a, mine)
            b.shuffle(theirs)
            assert mine == theirs and a.getstate() == b.getstate()
