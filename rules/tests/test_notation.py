from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import Declaration
from rules.engine.legal import legal_declarations
from rules.engine.notation import NotationError, format_declaration, parse
from rules.engine.randomplay import random_actor, random_position

OWN = {7: "h7", 3: "h3", 5: "h5", 4: "h4", 2: "h2", 6: "h6"}
OPP = {12: "a12", 9: "a9"}


@pytest.mark.parametrize(
    ("text", "decl"),
    [
        ("#7 move K8-L9-M9", Declaration("h7", "move", ("K8", "L9", "M9"))),
        ("#3 block #12", Declaration("h3", "block", (), "a12")),
        ("#5 blitz K8-L8 #12 then M8", Declaration("h5", "blitz", ("K8", "L8"), "a12", ("M8",))),
        ("#4 foul #9", Declaration("h4", "foul", (), "a9")),
        ("#2 hand_off J7 #6", Declaration("h2", "hand_off", ("J7",), "h6")),
        ("#7 move", Declaration("h7", "move")),
        ("end turn", Declaration(None, "end_turn")),
        ("claim blitz", Declaration(None, "claim_blitz")),
    ],
)
def test_the_forum_notation_parses_and_prints_back(text: str, decl: Declaration) -> None:
    assert parse(text, OWN, OPP) == decl
    assert format_declaration(decl, OWN, OPP) == text


@pytest.mark.parametrize("text", ["#99 move K8", "#7 jump K8", "#7 move K8-Q99", "#3 block 12"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse(text, OWN, OPP)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_legal_declaration_round_trips(seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(rng)
    actor = random_actor(state, rng)
    own = {
        p.number: pid
        for pid, p in state.players.items()
        if p.team == actor.team and p.number is not None
    }
    opp = {
        p.number: pid
        for pid, p in state.players.items()
        if p.team != actor.team and p.number is not None
    }
    for decl in legal_declarations(state, actor):
        text = format_declaration(decl, own, opp)
        assert parse(text, own, opp) == decl
        assert format_declaration(parse(text, own, opp), own, opp) == text
