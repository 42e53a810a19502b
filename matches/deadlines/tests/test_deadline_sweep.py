"""The beat sweep applies each expired deadline once, through services, as a system post.
Time travels with the ``clock`` fixture (the services' clock, stopped)."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from matches import services
from matches.deadlines.tests.conftest import Clock, player, put
from matches.models import Decision, Match, Post
from matches.tasks import sweep_deadlines
from teams.models import League

pytestmark = pytest.mark.django_db


def last_system_post(match: Match) -> Post:
    return match.posts.filter(kind=Post.Kind.SYSTEM).latest("number")


def test_the_sweep_of_an_empty_table_applies_nothing() -> None:
    assert sweep_deadlines() == 0


def test_a_turn_deadline_in_the_future_is_left_alone(in_play: Match, clock: Clock) -> None:
    clock.advance(hours=47)
    assert services.expire_deadlines() == 0
    in_play.refresh_from_db()
    assert services.load_state(in_play).active == "home"


def test_a_missed_team_turn_ends_for_both_sides_once(in_play: Match, clock: Clock) -> None:
    clock.advance(hours=48, seconds=1)
    assert services.expire_deadlines() == 1
    assert services.expire_deadlines() == 0
    in_play.refresh_from_db()
    state = services.load_state(in_play)
    assert (state.active, state.turn["away"]) == ("away", 3)
    post = last_system_post(in_play)
    assert post.summary["message"] == "deadline_passed"
    assert post.summary["deadline"] == "turn"
    assert post.summary["sides"] == ["captain", "rival"]
    assert list(post.events.values_list("type", flat=True)[:2]) == ["declaration", "end_side"]
    assert services.chain_is_intact(in_play)


def test_the_next_teams_clock_starts_when_the_missed_turn_ends(
    in_play: Match, clock: Clock
) -> None:
    now = clock.advance(hours=49)
    services.expire_deadlines()
    in_play.refresh_from_db()
    assert in_play.turn_deadline_at == now + timedelta(
        hours=League.objects.get().turn_deadline_hours
    )
    clock.advance(hours=48, seconds=1)
    assert services.expire_deadlines() == 1
    in_play.refresh_from_db()
    assert services.load_state(in_play).active == "home"


def test_only_the_side_that_has_not_ended_is_ended_by_the_deadline(
    in_play: Match, alice: User, clock: Clock
) -> None:
    services.declare(in_play.pk, alice, {"action": "end_turn"}, side="captain")
    clock.advance(hours=49)
    services.expire_deadlines()
    assert last_system_post(in_play).summary["sides"] == ["rival"]
    in_play.refresh_from_db()
    assert services.load_state(in_play).active == "away"


def test_an_unanswered_reroll_takes_none(
    in_play: Match, alice: User, dice: list[int], clock: Clock
) -> None:
    dice += [1, 4, 4]  # the dodge fails; armour 4+4 holds
    outcome = services.declare(
        in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]}
    )
    assert outcome.decision is not None and outcome.decision.kind == "reroll"
    clock.advance(hours=11)
    assert services.expire_deadlines() == 0
    clock.advance(hours=1, seconds=1)
    assert services.expire_deadlines() == 1
    decision = Decision.objects.get(pk=outcome.decision.pk)
    assert (decision.answer, decision.answered_how) == ("none", "default")
    in_play.refresh_from_db()
    state = services.load_state(in_play)
    assert state.pending is None
    assert state.players["h1"].state == "prone"
    assert last_system_post(in_play).summary == {
        "message": "deadline_passed",
        "deadline": "decision",
        "kind": "reroll",
        "to": "home:captain",
        "choice": "none",
    }


def test_a_rivals_reroll_request_is_approved_when_the_captain_is_silent(
    in_play: Match, bob: User, dice: list[int], clock: Clock
) -> None:
    dice += [1, 6]  # the dodge fails; the reroll succeeds
    services.declare(in_play.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    outcome = services.answer(in_play.pk, bob, "team")
    assert outcome.decision is not None and outcome.decision.kind == "reroll_approval"
    clock.advance(hours=13)
    services.expire_deadlines()
    in_play.refresh_from_db()
    state = services.load_state(in_play)
    assert state.pending is None
    assert state.players["h7"].state == "standing"
    assert state.teams["home"].rerolls == 1


def test_a_league_may_refuse_the_silent_captains_approval(
    in_play: Match, bob: User, dice: list[int], league: League, clock: Clock
) -> None:
    league.reroll_approval_default = League.RerollApproval.REFUSE
    league.save()
    dice += [1, 4, 4]
    services.declare(in_play.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    services.answer(in_play.pk, bob, "team")
    clock.advance(hours=13)
    services.expire_deadlines()
    assert Decision.objects.get(kind="reroll_approval").answer == "deny"
    in_play.refresh_from_db()
    assert services.load_state(in_play).teams["home"].rerolls == 2


def test_an_unanswered_block_die_is_the_best_for_the_coach_who_chooses(
    match: Match, alice: User, dice: list[int], clock: Clock
) -> None:
    put(
        match,
        [player("h1", "K8"), player("a1", "L8", st=4), player("a7", "T3")],
        teams={"home": {"rerolls": 0}},
    )
    dice += [1, 6] + [6] * 8  # attacker down or defender down; then armour, injury, ...
    outcome = services.declare(match.pk, alice, {"player": "h1", "action": "block", "target": "a1"})
    assert outcome.decision is not None
    assert (outcome.decision.kind, outcome.decision.to) == ("block_die", "away:captain")
    clock.advance(hours=13)
    services.expire_deadlines()
    assert Decision.objects.get(pk=outcome.decision.pk).answer == 1


def test_the_turn_clock_stops_while_a_decision_is_pending(
    in_play: Match, alice: User, bob: User, dice: list[int], clock: Clock
) -> None:
    assert in_play.turn_deadline_at is not None
    left = in_play.turn_deadline_at - clock()
    dice += [1, 4, 4]
    services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    in_play.refresh_from_db()
    assert in_play.turn_deadline_at is None
    assert in_play.turn_time_left == left
    clock.advance(hours=11)  # the decision's clock runs; the turn's does not
    assert services.expire_turns(clock()) == 0
    services.answer(in_play.pk, alice, "none")
    in_play.refresh_from_db()
    assert in_play.turn_time_left is None
    assert in_play.turn_deadline_at == clock() + left


def test_a_sweep_applies_a_decision_and_later_the_turn_it_paused(
    in_play: Match, bob: User, dice: list[int], clock: Clock
) -> None:
    dice += [1, 6]  # the dodge fails, the approved reroll succeeds: no turnover
    services.declare(in_play.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    services.answer(in_play.pk, bob, "team")
    clock.advance(hours=13)
    assert services.expire_deadlines() == 1
    in_play.refresh_from_db()
    assert in_play.turn_deadline_at == clock() + timedelta(hours=48)
    clock.advance(hours=48, seconds=1)
    assert services.expire_deadlines() == 1
    in_play.refresh_from_db()
    assert services.load_state(in_play).active == "away"


def test_a_finished_match_has_no_deadline_swept(in_play: Match, clock: Clock) -> None:
    Match.objects.filter(pk=in_play.pk).update(status=Match.Status.FINISHED)
    clock.advance(days=5)
    assert services.expire_deadlines() == 0


def test_apply_default_answers_once(in_play: Match, alice: User, dice: list[int]) -> None:
    dice += [1, 4, 4]
    outcome = services.declare(
        in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]}
    )
    assert outcome.decision is not None
    assert services.apply_default(in_play.pk, outcome.decision.pk) is not None
    assert services.apply_default(in_play.pk, outcome.decision.pk) is None


def test_the_sweep_task_reports_what_it_applied(in_play: Match, clock: Clock) -> None:
    clock.advance(hours=49)
    assert sweep_deadlines() == 1
