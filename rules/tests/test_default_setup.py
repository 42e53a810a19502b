"""The default set-up of a side that missed its set-up deadline is always legal, and the
kick-off follows once every side has posted one (alone, or after the other side's own); the
default kick is legal too."""

from __future__ import annotations

import random

from rules.engine import Declaration, FairDice, MatchState, legal, resolve, ruleset_for
from rules.engine.lineup import (
    default_kick,
    default_setup,
    on_los,
    sides_needed,
    team_complete,
    wide_zone,
)
from rules.engine.match import new_match
from rules.engine.randomplay import formation, random_policy, random_sheet
from rules.engine.state import other


def _awaited(state: MatchState) -> tuple[str, str] | None:
    rs = ruleset_for(state)
    kicking = state.kicking
    team = other(kicking) if team_complete(state, kicking, rs.sides()) else kicking
    posted = state.teams[team].posted
    need = [s for s in sides_needed(state, team, rs.sides()) if s not in posted]
    return (team, need[0]) if need else None


def _kick_off_setup(seed: int) -> tuple[MatchState, FairDice, random.Random]:
    rng = random.Random(seed)
    dice = FairDice(b"default-setups", str(seed))
    state = new_match(random_sheet(rng, "h"), random_sheet(rng, "a"), house_rules=seed % 2 == 0)
    start = Declaration(None, "start_match")
    state = resolve(state, "home:captain", start, (), dice, random_policy(rng)).state
    assert state.phase == "setup"
    for p in list(state.players.values()):  # injuries: some teams have fewer than 11
        if rng.random() < 0.25:
            state.players[p.id] = p.copy()
            state.players[p.id].state = "casualty"
    return state, dice, rng


def test_a_default_set_up_is_always_legal_and_leads_to_the_kick_off() -> None:
    fewer = 0
    for seed in range(400):
        state, dice, rng = _kick_off_setup(seed)
        rs = ruleset_for(state)
        while state.phase == "setup":
            waiting = _awaited(state)
            assert waiting is not None
            team, side = waiting
            actor = f"{team}:{side}"
            first = not state.teams[team].posted and len(rs.sides()) > 1
            if first and rng.random() < 0.5:  # the coach posts; the other side misses it
                mine = {
                    pid: sq
                    for pid, sq in formation(state, team).items()
                    if state.players[pid].side == side
                }
                decl = Declaration(None, "setup", placements=tuple(sorted(mine.items())))
            else:  # sometimes with a formation saved from another drive, or another roster
                saved = formation(state, team) if rng.random() < 0.5 else None
                if saved and rng.random() < 0.5:
                    saved = {pid: sq for pid, sq in saved.items() if rng.random() < 0.7}
                    saved["x99"] = "A1"
                decl = default_setup(state, team, side, rs.sides(), saved)
            assert legal(state, actor, decl) is None, (seed, actor, decl)
            state = resolve(state, actor, decl, (), dice, random_policy(rng)).state
            if team_complete(state, team, rs.sides()):
                placed = [p.at for p in state.players.values() if p.team == team and p.at]
                fewer += len(placed) < 11
                assert sum(1 for sq in placed if on_los(team, sq)) >= min(3, len(placed))
                assert all(sum(wide_zone(sq) == z for sq in placed) <= 2 for z in (0, 1))
        assert state.phase == "kickoff"
        kicker = ruleset_for(state).captain(state.kicking)
        assert legal(state, kicker, default_kick(state)) is None
    assert fewer > 0  # short-handed teams were tried


def test_a_default_in_a_perfect_defence_keeps_the_set_up_and_in_a_quick_snap_nobody_steps() -> None:
    state, _dice, _rng = _kick_off_setup(3)
    state.phase = "quick_snap"
    assert default_setup(state, "home", "captain", ("captain", "rival")).placements == ()
