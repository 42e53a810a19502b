"""The soak at CI's size, and its checks catching what they are for."""

import dataclasses
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from rules.engine import FairDice, MatchState
from rules.engine.actions import Event
from rules.engine.randomplay import play_match
from tools import soak


def test_a_small_soak_over_two_processes_plays_whole_matches_and_breaks_nothing() -> None:
    done = soak.soak(24, first=1000, workers=2, chunk=6)
    assert done.matches == 24
    assert done.declarations > 24 * 50
    assert done.cpu_seconds > 0
    assert done.violations == []


def test_the_command_prints_its_figures() -> None:
    out = StringIO()
    call_command("soak", matches=4, workers=1, stdout=out)
    text = out.getvalue()
    assert "soak: 4 matches (seeds 0-3)" in text and "0 violations" in text


def _a_state_in_play(seed: int) -> MatchState:
    """A match's state as its play phase begins (no score yet)."""
    states: list[MatchState] = []

    def keep(state: MatchState, events: list[Event]) -> None:
        if state.phase == "play" and not states:
            states.append(MatchState.from_json(state.to_json()))

    play_match(FairDice(b"soak-test", str(seed)), random.Random(seed), check=keep)
    return states[0]


def test_a_ball_gone_from_the_pitch_in_play_is_a_violation_with_its_seed() -> None:
    state = _a_state_in_play(7)
    watcher = soak.Watcher(seed=7)
    watcher.dice = state.dice_used
    watcher(state, [])
    assert watcher.violations == []
    state.carrier, state.ball_at = None, None
    watcher(state, [])
    assert [v.line() for v in watcher.violations] == [
        "seed 7, declaration 2: no ball on the pitch in the play phase"
    ]


def test_a_score_without_a_touchdown_and_two_players_on_a_square_are_violations() -> None:
    state = _a_state_in_play(8)
    watcher = soak.Watcher(seed=8)
    watcher.dice = state.dice_used
    state.score["home"] += 1
    on = [p for p in state.players.values() if p.at is not None][:2]
    state.players[on[1].id] = dataclasses.replace(on[1], at=on[0].at)
    watcher(state, [])
    found = " | ".join(v.what for v in watcher.violations)
    assert "home scored 1, the events tell 0 touchdowns" in found
    assert "two players on one square" in found
    assert "the board disagrees" in found


def test_a_violation_fails_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(seed: int) -> tuple[int, list[soak.Violation]]:
        return 1, [soak.Violation(seed, 1, "planted")]

    monkeypatch.setattr(soak, "play", broken)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("soak", matches=2, workers=1, stdout=out)
    assert "seed 0, declaration 1: planted" in out.getvalue()


def test_a_touchback_to_a_team_a_pitch_invasion_stunned_leaves_no_ball_in_fallen_hands() -> None:
    """Seed 65202 of the 100,000-match soak: the kick left the pitch, a Pitch Invasion stunned
    every receiving player, and the touchback gave the ball to a stunned one."""
    declarations, violations = soak.play(65202)
    assert declarations > 100
    assert violations == []
