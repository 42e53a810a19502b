"""A missed set-up deadline does not stall the match: the beat sweep posts each missing
side's default set-up (its coach's last set-up, else the engine's), under a system post that
says it is a default, and play goes on to the kick-off (a missed kick goes to the centre of
the receiving half)."""

import pytest
from django.contrib.auth.models import User

from matches import services
from matches.deadlines.tests.conftest import Clock
from matches.models import Match, Post
from matches.tasks import sweep_deadlines
from rules.engine import Declaration, legal
from rules.engine.board import parse_square
from rules.engine.lineup import default_setup, setups_awaited
from rules.engine.randomplay import formation
from rules.engine.ruleset import ruleset_for

pytestmark = pytest.mark.django_db


def _awaited(match: Match) -> list[tuple[str, str]]:
    match.refresh_from_db()
    state = services.load_state(match)
    return setups_awaited(state, ruleset_for(state).sides())


def _toss_answered(match: Match, alice: User, carol: User) -> None:
    """The coin toss's winner chooses to receive."""
    pending = services.load_state(match).pending
    assert pending is not None and pending.kind == "kick_or_receive"
    services.answer(match.pk, alice if pending.to == "home:captain" else carol, "receive")
    match.refresh_from_db()


def test_a_missed_set_up_is_posted_by_default_and_the_kick_off_follows(
    match: Match, alice: User, carol: User, clock: Clock
) -> None:
    _toss_answered(match, alice, carol)
    kicking = services.load_state(match).kicking
    assert [team for team, _side in _awaited(match)] == [kicking, kicking]
    clock.advance(hours=49)
    assert services.sweep().turns == 1
    post = match.posts.filter(kind=Post.Kind.SYSTEM).latest("number")
    assert post.summary["message"] == "default_setup"
    assert post.summary["default"] is True
    assert (post.summary["team"], post.summary["sides"]) == (kicking, ["captain", "rival"])
    receiving = "home" if kicking == "away" else "away"
    assert [team for team, _side in _awaited(match)] == [receiving, receiving]
    assert match.turn_deadline_at is not None and match.turn_deadline_at > clock.at
    clock.advance(hours=49)
    sweep_deadlines.delay()  # the beat's own task
    match.refresh_from_db()
    state = services.load_state(match)
    assert state.phase == "kickoff"
    for team in ("home", "away"):
        assert sum(1 for p in state.players.values() if p.team == team and p.at) == 11
    clock.advance(hours=49)  # nor does a missed kick: the ball goes to the receiving half
    assert services.sweep().turns == 1
    post = match.posts.filter(kind=Post.Kind.SYSTEM).latest("number")
    assert (post.summary["message"], post.summary["team"]) == ("default_kick", kicking)
    match.refresh_from_db()
    state = services.load_state(match)
    if state.pending is None:
        assert state.phase != "kickoff"
        assert match.events.filter(type="declaration", data__declaration__action="kick").exists()
        assert services.fold(match).to_json() == state.to_json()  # the record holds the defaults
    else:
        # A kick-off that asks a question first (a High Kick's catcher) records the kick once it
        # is answered; the question has a deadline of its own, so the match does not stall.
        open_questions = match.decisions.filter(answered_at=None, deadline_at__isnull=False)
        assert open_questions.exists()


def test_only_the_side_that_missed_its_set_up_gets_the_default(
    match: Match, alice: User, carol: User, clock: Clock
) -> None:
    _toss_answered(match, alice, carol)
    state = services.load_state(match)
    team = state.kicking
    coach = alice if team == "home" else carol
    mine = default_setup(state, team, "captain", ruleset_for(state).sides())
    assert legal(state, f"{team}:captain", mine) is None
    services.declare(
        match.pk, coach, Declaration(None, "setup", placements=mine.placements).to_json()
    )
    assert _awaited(match) == [(team, "rival")]
    clock.advance(hours=49)
    assert services.expire_deadlines() == 1
    post = match.posts.filter(kind=Post.Kind.SYSTEM).latest("number")
    assert post.summary["sides"] == ["rival"]
    match.refresh_from_db()
    state = services.load_state(match)
    assert sum(1 for p in state.players.values() if p.team == team and p.at) == 11
    assert {pid for pid, _sq in mine.placements} <= {
        p.id for p in state.players.values() if p.at is not None
    }


def test_a_coach_who_set_up_before_is_set_up_by_default_as_then(
    match: Match, alice: User, bob: User, carol: User, dave: User, clock: Clock
) -> None:
    _toss_answered(match, alice, carol)
    drive_start = dict(match.state)
    state = services.load_state(match)
    team = state.kicking
    rival = bob if team == "home" else dave
    saved = {
        pid: sq for pid, sq in formation(state, team).items() if state.players[pid].side == "rival"
    }
    services.declare(match.pk, rival, {"action": "setup", "placements": saved})
    match.refresh_from_db()
    match.state = drive_start  # a later drive: the same team sets up again
    match.save()
    clock.advance(hours=49)
    assert services.expire_deadlines() == 1
    match.refresh_from_db()
    placed = {
        pid: p.at for pid, p in services.load_state(match).players.items() if p.at is not None
    }
    assert {pid: parse_square(sq) for pid, sq in saved.items()}.items() <= placed.items()
    assert sum(1 for pid in placed if pid.startswith(team[0])) == 11
