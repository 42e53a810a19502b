"""A coach pauses its own deadlines for some days a season; every match it plays is told."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from matches import services
from matches.deadlines.tests.conftest import Clock
from matches.models import Match, Post
from matches.services import MatchError
from teams.models import League

pytestmark = pytest.mark.django_db


def test_a_vacation_pushes_back_the_turn_of_the_coachs_team(
    in_play: Match, bob: User, league: League, clock: Clock
) -> None:
    before = in_play.turn_deadline_at
    assert before is not None
    services.take_vacation(bob, league, 3)
    in_play.refresh_from_db()
    assert in_play.turn_deadline_at == before + timedelta(days=3)
    clock.advance(hours=49)
    assert services.expire_deadlines() == 0


def test_a_vacation_is_announced_in_the_thread(in_play: Match, bob: User, league: League) -> None:
    vacation = services.take_vacation(bob, league, 2)
    post = in_play.posts.filter(kind=Post.Kind.SYSTEM).latest("number")
    assert post.summary == {
        "message": "vacation",
        "user": "bob",
        "until": vacation.ends_at.isoformat(),
    }


def test_a_vacation_of_the_other_team_leaves_this_turn_alone(
    in_play: Match, dave: User, league: League
) -> None:
    before = in_play.turn_deadline_at
    assert before is not None
    services.take_vacation(dave, league, 3)
    in_play.refresh_from_db()
    assert in_play.turn_deadline_at == before


def test_a_decision_of_the_coach_on_vacation_waits(
    in_play: Match, alice: User, carol: User, league: League, dice: list[int], clock: Clock
) -> None:
    dice += [1, 4, 4]
    decision = services.declare(
        in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]}
    ).decision
    assert decision is not None
    services.take_vacation(carol, league, 1)  # not carol's decision: unchanged
    services.take_vacation(alice, league, 1)
    decision.refresh_from_db()
    assert decision.deadline_at == clock() + timedelta(hours=12, days=1)


def test_a_deadline_set_during_a_vacation_counts_from_its_end(
    in_play: Match, alice: User, league: League, dice: list[int], clock: Clock
) -> None:
    vacation = services.take_vacation(alice, league, 2)
    dice += [1, 4, 4]
    decision = services.declare(
        in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]}
    ).decision
    assert decision is not None
    assert decision.deadline_at == vacation.ends_at + timedelta(hours=12)


def test_vacation_days_are_limited_per_season(bob: User, league: League) -> None:
    league.vacation_days = 5
    league.save()
    services.take_vacation(bob, league, 3)
    with pytest.raises(MatchError) as refused:
        services.take_vacation(bob, league, 3)
    assert refused.value.code == "no_vacation_left"
    second = services.take_vacation(bob, league, 2)
    assert services.vacation_days_left(bob, league, second.season) == 0


def test_a_second_vacation_follows_the_first(bob: User, league: League) -> None:
    first = services.take_vacation(bob, league, 2)
    second = services.take_vacation(bob, league, 1)
    assert second.starts_at == first.ends_at
