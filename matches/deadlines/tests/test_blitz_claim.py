"""House rule 1: the rival's Blitz claim, the captain's grant or contest, and the opposed 3D6
roll made by a task (at once after a contest, or when the claim window closes)."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User

from matches import services, tasks
from matches.deadlines.tests.conftest import Clock, player, put
from matches.models import Decision, Match, Post
from rules.engine import contest_winner
from teams.models import League

pytestmark = pytest.mark.django_db


def claim(match: Match, bob: User) -> Decision:
    outcome = services.declare(match.pk, bob, {"action": "claim_blitz"})
    assert outcome.decision is not None
    return outcome.decision


def test_the_rivals_claim_opens_a_window_for_the_captain(
    in_play: Match, bob: User, clock: Clock
) -> None:
    decision = claim(in_play, bob)
    assert (decision.kind, decision.to) == ("blitz_claim", "home:captain")
    hours = League.objects.get().blitz_claim_window_hours
    assert decision.deadline_at == clock() + timedelta(hours=hours)


def test_the_captain_grants_the_blitz_without_a_roll(
    in_play: Match, alice: User, bob: User, dice: list[int]
) -> None:
    claim(in_play, bob)
    services.answer(in_play.pk, alice, "grant")
    in_play.refresh_from_db()
    state = services.load_state(in_play)
    assert state.teams["home"].blitz_side == "rival"
    assert state.dice_used == 0


def test_a_contest_is_rolled_by_a_task_and_posted_with_both_sets_of_dice(
    in_play: Match, alice: User, bob: User, dice: list[int], on_commit: Callable[..., Any]
) -> None:
    dice += [6, 5, 4, 3, 3, 2]  # rival 15 against captain 8 + 2
    decision = claim(in_play, bob)
    with on_commit():
        services.answer(in_play.pk, alice, "contest")
    decision.refresh_from_db()
    assert decision.answered_how == Decision.AnsweredBy.CONTEST
    post = in_play.posts.filter(kind=Post.Kind.SYSTEM).latest("number")
    assert post.summary == {
        "message": "blitz_contest",
        "team": "home",
        "rival": [6, 5, 4],
        "captain": [3, 3, 2],
        "rival_total": 15,
        "captain_total": 10,
        "winner": "rival",
    }
    in_play.refresh_from_db()
    assert services.load_state(in_play).teams["home"].blitz_side == "rival"


def test_ties_are_broken_die_by_die_by_the_engine(
    in_play: Match, alice: User, bob: User, dice: list[int], on_commit: Callable[..., Any]
) -> None:
    dice += [6, 4, 2, 5, 4, 1]  # 12 against 10 + 2: the rival's 6 beats the captain's 5
    assert contest_winner([6, 4, 2], [5, 4, 1]) == "rival"
    claim(in_play, bob)
    with on_commit():
        services.answer(in_play.pk, alice, "contest")
    post = in_play.posts.filter(kind=Post.Kind.SYSTEM).latest("number")
    assert (post.summary["rival_total"], post.summary["captain_total"]) == (12, 12)
    assert post.summary["winner"] == "rival"


def test_the_roll_is_made_once_however_often_the_task_runs(
    in_play: Match, alice: User, bob: User, dice: list[int], on_commit: Callable[..., Any]
) -> None:
    dice += [1, 1, 1, 6, 6, 6]
    decision = claim(in_play, bob)
    with on_commit():
        services.answer(in_play.pk, alice, "contest")
    assert tasks.adjudicate_blitz(decision.pk) is False
    assert in_play.events.filter(type="blitz_contest").count() == 1
    in_play.refresh_from_db()
    assert services.load_state(in_play).dice_used == 6


def test_the_window_closing_contests_the_claim(
    in_play: Match, bob: User, dice: list[int], clock: Clock, on_commit: Callable[..., Any]
) -> None:
    dice += [1, 1, 1, 6, 6, 6]
    decision = claim(in_play, bob)
    clock.advance(hours=League.objects.get().blitz_claim_window_hours, seconds=1)
    with on_commit():
        assert services.expire_deadlines() == 1
    decision.refresh_from_db()
    assert decision.answered_how == Decision.AnsweredBy.CONTEST
    closing, roll = in_play.posts.filter(kind=Post.Kind.SYSTEM).order_by("number")[1:3]
    assert closing.summary["deadline"] == "decision"
    assert closing.summary["choice"] == "contest"
    assert roll.summary["winner"] == "captain"


def test_a_lost_contest_task_is_rolled_by_the_sweep(
    in_play: Match, alice: User, bob: User, dice: list[int], clock: Clock
) -> None:
    dice += [6, 6, 6, 1, 1, 1]
    decision = claim(in_play, bob)
    services.answer(in_play.pk, alice, "contest")  # its task is never run
    decision.refresh_from_db()
    assert decision.answered_at is None and decision.contested_at is not None
    assert services.expire_deadlines() == 0
    clock.advance(minutes=2)
    assert services.expire_deadlines() == 1
    decision.refresh_from_db()
    assert decision.answered_how == Decision.AnsweredBy.CONTEST
    assert in_play.events.filter(type="blitz_contest").count() == 1


def test_fouls_are_one_per_side_per_turn(
    match: Match, alice: User, bob: User, dice: list[int]
) -> None:
    put(
        match,
        [
            player("h1", "K8"),
            player("h2", "L9"),
            player("h7", "K9"),
            player("a1", "L8", state="prone"),
            player("a7", "T3"),
        ],
    )
    dice += [2, 3, 2, 3]  # two armour rolls that hold, no doubles
    services.declare(match.pk, alice, {"player": "h1", "action": "foul", "target": "a1"})
    with pytest.raises(services.MatchError) as refused:
        services.declare(match.pk, alice, {"player": "h2", "action": "foul", "target": "a1"})
    assert refused.value.code == "foul_used"
    services.declare(match.pk, bob, {"player": "h7", "action": "foul", "target": "a1"})
    match.refresh_from_db()
    assert services.load_state(match).teams["home"].fouls_used == {"captain": 1, "rival": 1}
