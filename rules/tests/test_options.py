"""``options``: every declaration it lists is legal, every legal declaration of each kind is
listed, and the chances are those of the rolls on the way."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import FairDice, MatchState, legal, options
from rules.engine.actions import Actor, Declaration
from rules.engine.board import NAMES, NEIGHBOURS, adjacent, distance, parse_square
from rules.engine.core import move_budget
from rules.engine.options import PlayerOptions, reach
from rules.engine.pathing import Walk, bit_squares
from rules.engine.randomplay import play_random_turns, random_position
from rules.engine.state import Player

HOME = Actor("home", "captain")


def _position(seed: int, house: bool, steps: int) -> MatchState:
    rng = random.Random(seed)
    state = random_position(rng, house_rules=house)
    return play_random_turns(
        state, FairDice(seed.to_bytes(8, "big"), f"o-{seed}"), rng, steps
    ).state


def _random_path(state: MatchState, p: Player, rng: random.Random, most: int) -> tuple[str, ...]:
    """A random legal path of up to ``most`` squares (a Leap counted twice)."""
    assert p.at is not None
    if p.rooted:
        return ()
    path: list[str] = []
    cur, used, leapt = p.at, 0, False
    for _ in range(rng.randint(0, most)):
        steps = [(s, 1) for s in NEIGHBOURS[cur] if s not in state.board or s == p.at]
        if "Leap" in p.skills and not leapt:
            steps += [
                (s, 2)
                for s in range(len(NAMES))
                if distance(cur, s) == 2 and (s not in state.board or s == p.at)
            ]
        steps = [(s, c) for s, c in steps if used + c <= most]
        if not steps:
            break
        s, c = rng.choice(steps)
        leapt = leapt or c == 2
        used += c
        path.append(NAMES[s])
        cur = s
    return tuple(path)


def _ids(targets: tuple[object, ...]) -> set[str]:
    return {t.player for t in targets}  # type: ignore[attr-defined]


def _check_listed_is_legal(
    state: MatchState, actor: Actor, po: PlayerOptions, rng: random.Random
) -> None:
    """Every target, and the Moves to a sample of the squares (each path is traced)."""
    moves = len(po.reach.squares) if po.reach is not None else 0
    picked = set(rng.sample(range(moves), min(moves, 12))) | set(range(moves, len(po)))
    for i in sorted(picked):
        d = po.declaration(i)
        assert legal(state, actor, d) is None, (d, legal(state, actor, d))


def _check_legal_is_listed(
    state: MatchState, actor: Actor, po: PlayerOptions, rng: random.Random
) -> None:
    p = state.players[po.player]
    assert p.at is not None
    budget = move_budget(p)
    squares = po.reach.squares if po.reach is not None else {}
    for _ in range(8):
        path = _random_path(state, p, rng, budget)
        d = Declaration(p.id, "move", path)
        if po.reach is not None and legal(state, actor, d) is None:
            assert (path[-1] if path else NAMES[p.at]) in squares, d
        end = parse_square(path[-1]) if path else p.at
        for q in state.players.values():
            if q.at is None or q.id == p.id or not adjacent(end, q.at):
                continue
            kinds = ["blitz", "foul"] if q.team != p.team else ["hand_off"]
            if not path and q.team != p.team:
                kinds.append("block")
            for kind in kinds:
                d = Declaration(p.id, kind, path, q.id)
                if legal(state, actor, d) is not None:
                    continue
                if kind == "hand_off" and state.carrier != p.id:
                    continue  # only its carrier's hand-offs are listed (see options)
                assert kind in po.actions, d
                listed = {
                    "block": po.block,
                    "blitz": po.blitz,
                    "foul": po.foul,
                    "hand_off": po.hand_off,
                }[kind]
                assert q.id in _ids(listed), d
        if state.carrier == p.id:
            for q in state.players.values():
                if q.team == p.team and q.id != p.id and q.at is not None:
                    d = Declaration(p.id, "pass", path, q.id)
                    if legal(state, actor, d) is None:
                        assert q.id in _ids(po.pass_), d


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), house=st.booleans(), steps=st.integers(0, 40))
def test_options_lists_only_legal_declarations_and_every_kind_of_legal_one(
    seed: int, house: bool, steps: int
) -> None:
    state = _position(seed, house, steps)
    rng = random.Random(seed)
    for side in ("captain", "rival"):
        actor = Actor(state.active, side)
        turn = options(state, actor)
        for name in turn.team:
            assert legal(state, actor, Declaration(None, name)) is None
        for p in state.players.values():
            if p.team == actor.team and p.id not in turn.players:
                assert legal(state, actor, Declaration(p.id, "move")) is not None, p.id
        for pid in turn.players:
            po = turn.player(pid)
            assert po.actions == turn.players[pid]
            _check_listed_is_legal(state, actor, po, rng)
            _check_legal_is_listed(state, actor, po, rng)


def test_nothing_is_listed_for_the_side_not_playing() -> None:
    state = _position(7, False, 0)
    idle = Actor("away" if state.active == "home" else "home", "captain")
    turn = options(state, idle)
    assert turn.players == {} and turn.team == ()


def _state(players: list[dict[str, object]], **extra: object) -> MatchState:
    setup: dict[str, object] = {"active": "home", "turn": {"home": 3, "away": 2}}
    setup["players"] = players
    setup.update(extra)
    return MatchState.from_setup(setup, False)


def _mover(**kw: object) -> dict[str, object]:
    return {"id": "h1", "team": "home", "at": "K8", **kw}


def test_an_open_field_is_all_certain_within_ma_then_going_for_it() -> None:
    state = _state([_mover(ma=6)])
    r = reach(state, "h1")
    assert r is not None
    squares = r.squares
    assert squares["K8"] == 1.0
    assert squares["Q8"] == 1.0  # six squares
    assert squares["R8"] == pytest.approx(5 / 6)  # one Going For It
    assert squares["S8"] == pytest.approx(25 / 36)  # two
    assert "T8" not in squares
    assert len(r.path("S8") or ()) == 8


def test_a_dodge_takes_the_square_with_fewest_tackle_zones() -> None:
    # a1 on L8 marks K8: leaving it is a dodge (AG3: 4+, +1, -1 per zone on the square entered)
    state = _state([_mover(), {"id": "a1", "team": "away", "at": "L8"}])
    r = reach(state, "h1")
    assert r is not None
    assert r.chance("J8") == pytest.approx(4 / 6)  # no zone on J8: 3+
    # straight into a1's zone on K7 is 4+ (3/6): going round by J8 or J7 is safer
    assert r.chance("K7") == pytest.approx(4 / 6)
    assert len(r.path("K7") or ()) == 2
    assert r.chance("I8") == pytest.approx(4 / 6)
    assert r.path("I8") in (("J7", "I8"), ("J8", "I8"), ("J9", "I8"))


def test_a_ball_on_the_way_counts_its_pick_up_and_a_safer_way_round_is_preferred() -> None:
    state = _state([_mover()], ball={"at": "L8"})
    r = reach(state, "h1")
    assert r is not None
    assert r.chance("L8") == pytest.approx(4 / 6)  # pick-up: AG3 4+, +1
    assert r.chance("M8") == 1.0
    assert "L8" not in (r.path("M8") or ())


def test_stunty_ignores_the_zones_of_the_square_entered() -> None:
    state = _state([_mover(skills=["Stunty"]), {"id": "a1", "team": "away", "at": "L8"}])
    r = reach(state, "h1")
    assert r is not None
    assert r.chance("K7") == pytest.approx(4 / 6)
    assert r.path("K7") == ("K7",)


def test_a_leap_jumps_over_a_wall_at_its_agility_roll() -> None:
    wall: list[dict[str, object]] = [
        {"id": f"a{i}", "team": "away", "at": f"L{i}"} for i in range(1, 16)
    ]
    state = _state([_mover(skills=["Leap"]), *wall])
    r = reach(state, "h1")
    assert r is not None
    # leaving K8 marked by the wall needs no dodge for a Leap: AG3 4+
    assert r.chance("M8") == pytest.approx(3 / 6)
    assert r.path("M8") == ("M8",)
    po = options(state, HOME).player("h1")
    assert legal(state, HOME, Declaration("h1", "move", ("M8",))) is None
    assert "M8" in (po.reach.squares if po.reach else {})


def test_block_and_blitz_targets_carry_their_dice() -> None:
    state = _state(
        [
            _mover(st=4),
            {"id": "a1", "team": "away", "at": "L8"},
            {"id": "a2", "team": "away", "at": "P8", "st": 1},
            {"id": "a3", "team": "away", "at": "F8", "state": "prone"},
        ]
    )
    po = options(state, HOME).player("h1")
    (block,) = po.block
    assert (block.player, block.dice, block.chooser) == ("a1", 2, "attacker")
    blitz = {t.player: t for t in po.blitz}
    assert blitz["a2"].dice == 3  # ST 4 against 1: more than double
    assert legal(state, HOME, Declaration("h1", "blitz", blitz["a2"].path, "a2")) is None
    (foul,) = po.foul
    assert foul.player == "a3" and 0 < foul.armour < 1


def _best_chances_square_by_square(state: MatchState, pid: str) -> dict[str, float]:
    """The best chance of each square, found the plain way: every (square, squares entered,
    Leap used) state, one number of squares after the other, each step's chance from the same
    per-step rules (``Walk.factor``) the fast search uses."""
    p = state.players[pid]
    assert p.at is not None
    budget = 0 if p.rooted else move_budget(p)
    walk = Walk(state, p, move_budget(p))
    empty = set(bit_squares(walk.empty))
    layers: list[dict[tuple[int, bool], float]] = [{(p.at, False): walk.start}]
    layers += [{} for _ in range(budget)]
    for k in range(budget + 1):
        for (sq, leapt), chance in layers[k].items():
            steps = [(n, 1) for n in NEIGHBOURS[sq] if n in empty]
            if walk.leap and not leapt:
                steps += [(n, 2) for n in empty if distance(sq, n) == 2]
            for n, cost in steps:
                if k + cost > budget:
                    continue
                key = (n, leapt or cost == 2)
                c = chance * walk.factor(sq, n, k + cost, leap=cost == 2)
                if c > layers[k + cost].get(key, -1.0):
                    layers[k + cost][key] = c
    best: dict[str, float] = {}
    for layer in layers:
        for (sq, _), chance in layer.items():
            best[NAMES[sq]] = max(best.get(NAMES[sq], -1.0), chance)
    return best


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_the_fast_search_finds_the_best_chance_of_every_square(seed: int) -> None:
    state = _position(seed, seed % 2 == 1, 30)
    leapers = 0
    for pid, p in sorted(state.players.items()):
        if p.at is None or "Ball & Chain" in p.skills:
            continue
        if seed == 29 and leapers < 4 and not p.rooted:  # a few leapers too
            p = state.players[pid] = p.copy()
            p.skills = p.skills | {"Leap"}
            leapers += 1
        r = reach(state, pid)
        assert r is not None
        expected = _best_chances_square_by_square(state, pid)
        assert r.squares.keys() == expected.keys(), pid
        for name, chance in expected.items():
            assert r.squares[name] == pytest.approx(chance, abs=1e-12), (pid, name)


def test_the_turns_reach_reads_the_same_squares_as_reach_alone() -> None:
    state = _position(5, True, 20)
    turn = options(state, Actor(state.active, "captain"))
    assert turn.players
    for pid in turn.players:
        alone = reach(state, pid)
        shared = turn.reach(pid)
        assert (alone is None) == (shared is None)
        if alone is not None and shared is not None:
            assert shared.squares == alone.squares
    other = next(p for p in state.players if p not in turn.players)
    assert turn.reach(other) is None
