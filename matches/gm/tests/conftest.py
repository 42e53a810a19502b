"""The cast of a match: alice captains the home Reavers with bob on their rival's side, carol
captains the away Raiders with erin on theirs, gm runs the league and the match, otto is
another game master, and dave only watches."""

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from matches import services
from matches.models import Match
from matches.record.folding import undone_numbers
from matches.tests.dice import use_dice
from matches.tests.people import (
    alice,
    bob,
    carol,
    dave,
    erin,
    gm,
    league,
    otto,
    split_team,
)
from rules.engine import FairDice
from rules.engine.randomplay import choose
from teams.models import League, Team
from teams.tests.conftest import REAVERS, starting_plan


@pytest.fixture
def home(alice: User, bob: User, league: League) -> Team:
    return split_team(alice, bob, REAVERS, "Reikland Reavers", league)


@pytest.fixture
def away(carol: User, erin: User, league: League) -> Team:
    return split_team(carol, erin, starting_plan("orc"), "Orcland Raiders", league)


@pytest.fixture
def match(
    home: Team, away: Team, gm: User, league: League, monkeypatch: pytest.MonkeyPatch
) -> Match:
    # The same dice every run: the tests play random legal moves and look for a question or a
    # roll to dispute, and with other dice a match could end before one came up. A match's
    # own dice depend on its id too, which differs with the tests run before in the process.
    use_dice(monkeypatch, lambda match: FairDice(bytes(range(7, 39)), "gm match"))
    return services.create_match(home=home, away=away, gm=gm, league=league)


@pytest.fixture
def coaches(alice: User, bob: User, carol: User, erin: User) -> dict[str, User]:
    return {"home:captain": alice, "home:rival": bob, "away:captain": carol, "away:rival": erin}


def play(
    match: Match, coaches: dict[str, User], rng: random.Random, steps: int
) -> list[tuple[int, dict[str, Any]]]:
    """Random legal play through the services; returns the number of the last event and the
    stored state after each call."""
    seen = []
    for _ in range(steps):
        match.refresh_from_db()
        state = services.load_state(match)
        if state.phase == "finished" or match.status != Match.Status.IN_PLAY:
            break
        if state.pending is not None:
            choice = rng.choice(state.pending.options)
            services.answer(match.pk, coaches[state.pending.to], choice)
        else:
            actor, decl = choose(state, rng, whole=True)
            services.declare(match.pk, coaches[str(actor)], decl.to_json(), side=actor.side)
        match.refresh_from_db()
        seen.append(
            (match.events.order_by("-number").values_list("number", flat=True)[0], match.state)
        )
    return seen


def first_roll(match: Match, after: int = 0) -> int:
    """The number of the first live event with dice after event ``after``."""
    events = list(match.events.order_by("number"))
    gone = undone_numbers(events)
    return next(
        e.number
        for e in events
        if e.number > after and e.data.get("faces") and e.number not in gone
    )
