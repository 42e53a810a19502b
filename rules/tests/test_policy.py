"""``resolve(..., policy=...)`` answers decisions inline; the result must be exactly the one
of stopping at each decision and resolving again with one more answer (the server's way)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import (
    Actor,
    Answer,
    Declaration,
    FairDice,
    MatchState,
    Pending,
    continue_with,
    new_match,
    resolve,
)
from rules.engine.randomplay import (
    choose,
    play_one,
    random_position,
    random_sheet,
)


def _same_step(state: MatchState, dice: FairDice, rng: random.Random, whole: bool) -> MatchState:
    """Play one random declaration both ways from the same rng state; they must agree on the
    state, the events, the dice read and the rng's next state."""
    saved = rng.getstate()
    inline_state, inline_events = play_one(state, dice, rng, whole=whole)
    after = rng.getstate()
    rng.setstate(saved)
    replay_state, replay_events = play_one(state, dice, rng, whole=whole, replay=True)
    assert rng.getstate() == after, "the two ways asked the rng differently"
    assert inline_state.to_json() == replay_state.to_json()
    assert inline_state.dice_used == replay_state.dice_used
    assert [e.to_json() for e in inline_events] == [e.to_json() for e in replay_events]
    return inline_state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), house=st.booleans())
def test_policy_equals_stop_and_replay_in_whole_matches(seed: int, house: bool) -> None:
    rng = random.Random(seed)
    state = new_match(random_sheet(rng, "h"), random_sheet(rng, "a"), house)
    dice = FairDice(seed.to_bytes(8, "big"), f"policy-{seed}")
    for _ in range(3000):
        if state.phase == "finished":
            break
        state = _same_step(state, dice, rng, whole=True)
    assert state.phase == "finished"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), house=st.booleans(), steps=st.integers(1, 40))
def test_policy_equals_stop_and_replay_from_random_positions(
    seed: int, house: bool, steps: int
) -> None:
    rng = random.Random(seed)
    state = random_position(rng, house_rules=house)
    dice = FairDice(seed.to_bytes(8, "big"), f"policy-pos-{seed}")
    for _ in range(steps):
        if state.phase == "finished":
            break
        state = _same_step(state, dice, rng, whole=False)


def _stop_and_go_on(
    state: MatchState,
    actor: Actor,
    decl: Declaration,
    dice: FairDice,
    choices: random.Random,
    stop_after: int,
) -> MatchState:
    picked: list[Answer] = []

    def pick(p: Pending) -> Answer:
        a = Answer(p.kind, p.options[int(choices.random() * len(p.options))])
        picked.append(a)
        return a

    whole = resolve(state, actor, decl, (), dice, pick)
    assert whole.pending is None
    base = calls = 0  # answers handed to the current call; policy calls in it

    def some(p: Pending) -> Answer | None:
        nonlocal calls
        calls += 1
        return picked[base + calls - 1] if calls <= stop_after else None

    res = resolve(state, actor, decl, (), dice, some)
    while res.pending is not None:
        n = len(res.pending.answers)
        assert n == base + stop_after, "the policy's answers are not in pending.answers"
        assert res.pending.answers == [a.to_json() for a in picked[:n]]
        assert res.state.to_json() == {**state.to_json(), "pending": res.pending.to_json()}
        base, calls = n + 1, 0
        res = continue_with(res.state, picked[n], dice, some)
    assert res.state.to_json() == whole.state.to_json()
    assert [e.to_json() for e in res.events] == [e.to_json() for e in whole.events]
    return res.state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), house=st.booleans(), stop_after=st.integers(0, 3))
def test_a_policy_may_stop_and_the_caller_goes_on(seed: int, house: bool, stop_after: int) -> None:
    """A policy that answers some decisions and then returns None stops with those answers in
    ``pending.answers``; continuing (with the policy again) ends where answering everything at
    once ends."""
    rng = random.Random(seed)
    state = random_position(rng, house_rules=house)
    dice = FairDice(seed.to_bytes(8, "big"), f"policy-stop-{seed}")
    for _ in range(30):
        actor, decl = choose(state, rng, whole=False)
        state = _stop_and_go_on(state, actor, decl, dice, random.Random(rng.random()), stop_after)
        if state.phase == "finished":
            break


def test_a_wrong_policy_answer_is_refused() -> None:
    st = new_match(random_sheet(random.Random(3), "h"), random_sheet(random.Random(4), "a"))
    dice = FairDice(b"x", "wrong")

    def bad(p: Pending) -> Answer:
        return Answer(p.kind, "sideways")

    try:
        resolve(st, Actor("home", "captain"), Declaration(None, "start_match"), (), dice, bad)
    except ValueError as e:
        assert "kick_or_receive" in str(e)
    else:  # pragma: no cover
        raise AssertionError("a wrong answer was accepted")
