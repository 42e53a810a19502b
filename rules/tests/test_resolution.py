"""Replay exactness, pending decisions, and the public API's contract."""

from __future__ import annotations

from typing import Any

from rules.engine import (
    Actor,
    Answer,
    Declaration,
    FairDice,
    MatchState,
    ScriptedDice,
    check_answer,
    contest_winner,
    continue_with,
    legal,
    resolve,
)


def block_position(**home: Any) -> MatchState:
    return MatchState.from_setup(
        {
            "turn": {"home": 3, "away": 2},
            "teams": {"home": {"rerolls": 1}},
            "players": [
                {"id": "h1", "team": "home", "at": "K8", **home},
                {"id": "a1", "team": "away", "at": "L8"},
                {"id": "h9", "team": "home", "at": "D4"},
            ],
        }
    )


BLOCK = Declaration("h1", "block", target="a1")


def test_a_pending_decision_returns_the_input_state_with_only_pending_set() -> None:
    state = block_position()
    before = state.to_json()
    res = resolve(state, "home:captain", BLOCK, (), ScriptedDice([2]))
    # a Pushed may be re-rolled too: the team reroll is offered before the push
    assert res.pending is not None and res.pending.kind == "reroll"
    assert state.to_json() == before, "the input state is never mutated"
    after = res.state.to_json()
    assert after.pop("pending") is not None
    before.pop("pending")
    assert after == before, "nothing half-done is stored"
    assert res.state.dice_used == 0
    assert res.partial is not None and res.partial.dice_used == 1


def test_resolving_again_with_the_answer_reads_the_same_dice() -> None:
    state = block_position()
    dice = ScriptedDice([2, 4, 4])
    first = resolve(state, "home:captain", BLOCK, (), dice)
    assert first.pending is not None
    keep, push = Answer("reroll", "none"), Answer("push", "M9")
    second = resolve(state, "home:captain", BLOCK, (keep, push), dice)
    assert second.pending is not None and second.pending.kind == "follow_up"
    done = resolve(state, "home:captain", BLOCK, (keep, push, Answer("follow_up", True)), dice)
    assert done.pending is None
    assert done.state.players["a1"].at is not None
    assert done.state.to_json()["players"]["a1"]["at"] == "M9"
    assert done.state.to_json()["players"]["h1"]["at"] == "L8"
    assert done.state.dice_used == 1
    again = continue_with(second.state, Answer("follow_up", True), dice)
    assert again.state.to_json() == done.state.to_json()


def test_replay_from_the_same_state_is_exact_with_fair_dice() -> None:
    state = block_position(skills=["Dodge"])
    dice = FairDice(b"seed", "match-7")
    move = Declaration("h1", "move", ("J8", "I8", "H8"))
    results = [resolve(state, "home:captain", move, (), dice) for _ in range(2)]
    a, b = (r.state.to_json() for r in results)
    assert a == b
    assert [e.to_json() for e in results[0].events] == [e.to_json() for e in results[1].events]


def test_every_roll_is_an_event_and_dice_used_counts_the_faces() -> None:
    state = block_position()
    state.teams["home"].rerolls = 0
    res = resolve(
        state,
        "home:captain",
        Declaration("h1", "move", ("J8",)),
        (),
        ScriptedDice([2, 5, 5, 6, 6, 6, 3]),
    )
    faces = sum(len(e.data.get("faces", ())) for e in res.events)
    assert faces == res.state.dice_used == 7
    assert [e.type for e in res.events if e.data.get("faces")] == [
        "dodge",
        "armour",
        "injury",
        "casualty",
    ]


def test_legal_returns_stable_codes_and_a_message() -> None:
    state = block_position()
    err = legal(state, "away:captain", BLOCK)
    assert err is not None and err.code == "not_your_turn" and err.message
    err = legal(state, "home:rival", BLOCK)
    assert err is not None and err.code == "not_your_player"
    err = legal(state, "home:captain", Declaration("h1", "move", ("J8", "H8", "Z1")))
    assert err is not None and err.code == "path_illegal"
    too_far = tuple(f"{c}8" for c in "JIHGFEDC")
    err = legal(state, "home:captain", Declaration("h1", "move", (*too_far, "B8")))
    assert err is not None and err.code == "too_far"
    assert legal(state, "home:captain", BLOCK) is None


def test_house_rules_off_lets_either_side_string_act_for_all_players() -> None:
    data = block_position().to_json()
    data["house_rules"] = False
    state = MatchState.from_json(data)
    assert legal(state, "home:rival", BLOCK) is None
    assert legal(state, "home:rival", Declaration(None, "claim_blitz")) is not None


def test_check_answer_sends_captain_decisions_to_the_captain() -> None:
    state = MatchState.from_setup(
        {
            "players": [
                {"id": "h1", "team": "home", "at": "K8"},
                {"id": "r1", "team": "home", "side": "rival", "at": "K4"},
            ],
        }
    )
    res = resolve(state, "home:rival", Declaration(None, "claim_blitz"), (), ScriptedDice([]))
    assert res.pending is not None and res.pending.to == "home:captain"
    grant = Answer("blitz_claim", "grant")
    err = check_answer(res.state, res.pending, Actor("home", "rival"), grant)
    assert err is not None and err.code == "not_captain"
    err = check_answer(res.state, res.pending, "home:captain", Answer("blitz_claim", "yes"))
    assert err is not None and err.code == "choice_illegal"
    assert check_answer(res.state, res.pending, "home:captain", grant) is None
    err = check_answer(state, None, "home:captain", grant)
    assert err is not None and err.code == "no_decision_pending"
    err = legal(res.state, "home:captain", Declaration("h1", "move"))
    assert err is not None and err.code == "decision_pending"


def test_the_contested_rival_blitz_claim_with_a_tie_break() -> None:
    state = MatchState.from_setup(
        {
            "players": [
                {"id": "h1", "team": "home", "at": "K8"},
                {"id": "r1", "team": "home", "side": "rival", "at": "K4"},
                {"id": "a1", "team": "away", "at": "P8"},
            ],
        }
    )
    claim = Declaration(None, "claim_blitz")
    # rival 5+5+2 = 12, captain 6+3+1 + 2 = 12: sorted, the captain's 6 beats the rival's 5
    dice = ScriptedDice([5, 5, 2, 6, 3, 1])
    res = resolve(state, "home:rival", claim, (Answer("blitz_claim", "contest"),), dice)
    assert res.pending is None
    contest = next(e for e in res.events if e.type == "blitz_contest")
    assert contest.data["rival"] == [5, 5, 2] and contest.data["captain"] == [6, 3, 1]
    assert contest.data["rival_total"] == contest.data["captain_total"] == 12
    assert contest.data["result"] == "captain"
    assert res.state.teams["home"].blitz_side == "captain"
    err = legal(res.state, "home:rival", Declaration("r1", "blitz", (), "a1"))
    assert err is not None and err.code in ("blitz_used", "target_illegal")
    assert legal(res.state, "home:rival", claim) is not None
    assert contest_winner([6, 4, 2], [5, 4, 1]) == "rival"  # 12 v 12, 6 beats 5
    assert contest_winner([6, 4, 2], [6, 3, 1]) == "rival"  # 12 v 12, second die decides
    assert contest_winner([6, 6, 6], [6, 5, 4]) == "rival"  # 18 v 17
    assert contest_winner([3, 3, 3], [3, 2, 2]) == "rival"  # 9 v 9, 3 = 3, then 3 beats 2
    assert contest_winner([2, 2, 2], [1, 1, 2]) == "rival"  # 6 v 6: 2 = 2, then 2 beats 1
    assert contest_winner([4, 4, 1], [5, 1, 1]) == "captain"  # 9 v 9: 5 beats 4
