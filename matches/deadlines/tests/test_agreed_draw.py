"""The agreed draw of seed 000: a tie at full time asks each team's captain (home first), with
the decision deadline; two yeses end the match drawn, a no or silence means sudden-death
overtime, as the beat sweep applies it."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from matches import services
from matches.deadlines.tests.conftest import STANDARD, Clock, put
from matches.models import Decision, Match
from matches.record.season import season
from teams.models import League

pytestmark = pytest.mark.django_db


def _full_time_tied(match: Match, alice: User, bob: User) -> Decision:
    """The last team turn of the second half, 1-1: both home sides end it."""
    put(match, STANDARD, half=2, turn={"home": 8, "away": 8}, score={"home": 1, "away": 1})
    services.declare(match.pk, alice, {"action": "end_turn"}, side="captain")
    outcome = services.declare(match.pk, bob, {"action": "end_turn"}, side="rival")
    assert outcome.decision is not None
    return outcome.decision


def _overtime_begins(match: Match, alice: User) -> None:
    """The overtime's coin toss was asked for: home won it and receives."""
    match.refresh_from_db()
    pending = services.load_state(match).pending
    assert pending is not None and (pending.kind, pending.to) == ("kick_or_receive", "home:captain")
    services.answer(match.pk, alice, "receive")
    match.refresh_from_db()
    state = services.load_state(match)
    assert state.half == 3 and state.phase == "setup" and state.result is None


def test_a_tie_at_full_time_asks_the_home_captain_with_the_decision_deadline(
    in_play: Match, alice: User, bob: User, dice: list[int], clock: Clock
) -> None:
    asked = _full_time_tied(in_play, alice, bob)
    assert (asked.kind, asked.to, asked.default) == ("agree_draw", "home:captain", False)
    assert in_play.league is not None
    hours = in_play.league.decision_deadline_hours
    assert asked.deadline_at == clock.at + timedelta(hours=hours)


def test_silence_means_no_draw_and_sudden_death_overtime(
    in_play: Match, alice: User, bob: User, dice: list[int], clock: Clock
) -> None:
    dice += [5]  # the overtime's coin toss: home wins it
    _full_time_tied(in_play, alice, bob)
    clock.advance(hours=13)
    assert services.sweep().decisions == 1
    assert Decision.objects.get(kind="agree_draw").answer is False
    _overtime_begins(in_play, alice)
    assert in_play.events.filter(type="draw_declined", data__team="home").exists()


def test_one_yes_and_the_other_captains_silence_is_overtime(
    in_play: Match, alice: User, bob: User, carol: User, dice: list[int], clock: Clock
) -> None:
    dice += [5]
    _full_time_tied(in_play, alice, bob)
    outcome = services.answer(in_play.pk, alice, True)
    assert outcome.decision is not None
    assert (outcome.decision.kind, outcome.decision.to) == ("agree_draw", "away:captain")
    clock.advance(hours=13)
    services.expire_deadlines()
    _overtime_begins(in_play, alice)
    assert in_play.events.filter(type="draw_declined", data__team="away").exists()


def test_two_yeses_end_the_match_drawn_and_the_standings_count_a_draw(
    in_play: Match, alice: User, bob: User, carol: User, dave: User, dice: list[int], league: League
) -> None:
    _full_time_tied(in_play, alice, bob)
    with pytest.raises(services.MatchError):
        services.answer(in_play.pk, bob, True)  # only the captain answers
    services.answer(in_play.pk, alice, True)
    with pytest.raises(services.MatchError):
        services.answer(in_play.pk, dave, True)
    services.answer(in_play.pk, carol, True)
    in_play.refresh_from_db()
    state = services.load_state(in_play)
    assert state.result == {"winner": None, "score": {"home": 1, "away": 1}, "by": "agreed_draw"}
    assert in_play.status == Match.Status.POST_MATCH
    assert in_play.events.filter(type="draw_agreed").exists()
    rows = {row.team.name: row for row in season(league).table}
    assert all((row.drawn, row.points) == (1, league.points_draw) for row in rows.values())
