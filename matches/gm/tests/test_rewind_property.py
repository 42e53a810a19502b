"""A GM's rewind or re-roll rebuilds the state from the events that remain, and never reads
a die of the stream twice."""

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import services
from matches.gm.tests.conftest import play
from matches.models import Match, MatchEvent
from teams.models import League, Team

pytestmark = pytest.mark.django_db

SETTINGS = settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _events(match: Match) -> list[MatchEvent]:
    return list(match.events.order_by("number"))


def _dice_seen(events: list[MatchEvent]) -> int:
    return max(int(e.data.get("dice_to", 0)) for e in events)


def _without_dice(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "dice_used"}


def _mid_setup(state: dict[str, Any]) -> bool:
    teams = state["teams"].values()
    return state["phase"] == "setup" and any(team.get("posted") for team in teams)


def assert_stored_state_is_the_fold(match: Match) -> None:
    """The fold never stops at a question: a stored state waiting for an answer is the fold
    with that question pending."""
    match.refresh_from_db()
    stored = {**match.state, "pending": None}
    assert stored == services.fold(match).to_json(compact=True)


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(3, 40), point=st.floats(0, 1))
def test_after_a_rewind_the_state_is_the_fold_of_the_events_that_remain(
    seed: int,
    steps: int,
    point: float,
    home: Team,
    away: Team,
    gm: User,
    alice: User,
    league: League,
    coaches: dict[str, User],
) -> None:
    rng = random.Random(seed)
    match = services.create_match(home=home, away=away, gm=gm, league=league)
    # The state after each event that ends a declaration (the one the next starts from).
    snapshots = {1: match.events.get(number=1).data["state"]}
    if match.state["pending"] is None:
        snapshots[match.events.count()] = match.state
    for last, state in play(match, coaches, rng, steps):
        if state["pending"] is None:
            snapshots.setdefault(last, state)
    events = _events(match)
    # The random player's set-up formation is seeded by the dice position, so it cannot
    # finish a team's set-up that one side posted before the dice moved on: no rewind there.
    declarations = [
        e for e in events if e.type == "declaration" and not _mid_setup(snapshots[e.number - 1])
    ]
    target = declarations[int(point * (len(declarations) - 1))]
    seen = max(_dice_seen(events), services.load_state(match).dice_used)

    dispute = services.raise_dispute(
        match.pk, alice, reason="That roll was wrong.", event_number=target.number
    )
    rewind = services.rule_on_dispute(match.pk, gm, dispute.pk, "rewind", note="Again.")
    match.refresh_from_db()

    folded = services.fold(match).to_json(compact=True)
    assert match.state == folded
    # The state is the one the match had just before the target, with the dice moved on.
    assert _without_dice(match.state) == _without_dice(snapshots[target.number - 1])
    assert match.state["dice_used"] >= seen
    assert rewind.data["undone"][0] == target.number
    assert dispute.event is not None
    assert all(n in rewind.data["undone"] for n in range(target.number, dispute.event.number))
    assert match.status == Match.Status.IN_PLAY

    # Play goes on from new dice, and the record still folds to the stored state.
    play(match, coaches, rng, 5)
    assert_stored_state_is_the_fold(match)
    later = [e for e in _events(match) if e.number > rewind.number and e.type == "declaration"]
    assert all(e.data["dice_from"] >= seen for e in later)


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(3, 40), point=st.floats(0, 1))
def test_a_granted_reroll_reads_new_dice_and_keeps_the_rolls_before_it(
    seed: int,
    steps: int,
    point: float,
    home: Team,
    away: Team,
    gm: User,
    carol: User,
    league: League,
    coaches: dict[str, User],
) -> None:
    rng = random.Random(seed)
    match = services.create_match(home=home, away=away, gm=gm, league=league)
    play(match, coaches, rng, steps)
    match.refresh_from_db()
    events = _events(match)
    rolls = [e for e in events if e.data.get("faces")]
    roll = rolls[int(point * (len(rolls) - 1))]
    seen = max(_dice_seen(events), services.load_state(match).dice_used)

    dispute = services.raise_dispute(
        match.pk, carol, reason="Roll it again.", event_number=roll.number
    )
    granted = services.rule_on_dispute(match.pk, gm, dispute.pk, "grant_reroll")
    match.refresh_from_db()

    assert match.state == services.fold(match).to_json(compact=True)
    assert granted.data["new_from"] >= seen
    assert granted.data["dice_to"] > granted.data["new_from"]
    acting = next(e for e in events if e.number == granted.data["to"])
    before = [e for e in events if acting.number < e.number < roll.number and e.data.get("faces")]
    redone = [e for e in _events(match) if e.number > granted.number and e.data.get("faces")]
    # The rolls made before the disputed one stand, face for face.
    assert [e.data["faces"] for e in redone[: len(before)]] == [e.data["faces"] for e in before]
    assert redone[len(before)].type == roll.type
    play(match, coaches, rng, 5)
    assert_stored_state_is_the_fold(match)
