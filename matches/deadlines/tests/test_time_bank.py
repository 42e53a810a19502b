"""The time bank, a league's clock beside fixed deadlines: each side of each team has a bank for
the match and an increment per turn of its team; a bank runs only while its side must act,
stands during a vacation (within the coach's yearly allowance), and when it runs out the
league's setting decides: the defaults, or the GM rules."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.utils import formats, timezone

from matches import services
from matches.deadlines.tests.conftest import STANDARD, Clock, put
from matches.models import CoachPreferences, Match, Post
from matches.services import MatchError, banks
from matches.services.clocks import start_turn_clock
from teams.models import League

pytestmark = pytest.mark.django_db

HOUR = 3600.0


@pytest.fixture
def banked(match: Match, league: League, clock: Clock) -> Match:
    """Home's turn 3 in a league with the time bank (72 h a side, 12 h more a turn), its
    clock just started: both home banks run."""
    league.clock = League.Clock.BANK
    league.bank_hours = 72
    league.bank_increment_hours = 12
    league.save()
    put(match, STANDARD)
    start_turn_clock(match, services.load_state(match))
    match.save()
    return match


def left(match: Match, actor: str, at: datetime) -> float:
    match.refresh_from_db()
    return banks.Banks.of(match).left_at(actor, at)


def running(match: Match) -> set[str]:
    match.refresh_from_db()
    return set(banks.Banks.of(match).since)


def test_every_side_starts_with_the_bank_and_its_team_gains_the_increment_each_turn(
    banked: Match, alice: User, bob: User, clock: Clock
) -> None:
    now = clock()
    assert left(banked, "home:captain", now) == 84 * HOUR  # 72 h and this turn's 12 h
    assert left(banked, "away:captain", now) == 72 * HOUR
    assert running(banked) == {"home:captain", "home:rival"}
    assert banked.turn_deadline_at == now + timedelta(hours=84)
    clock.advance(hours=5)
    services.declare(banked.pk, alice, {"action": "end_turn"}, side="captain")
    clock.advance(hours=2)
    services.declare(banked.pk, bob, {"action": "end_turn"}, side="rival")
    now = clock()
    assert left(banked, "home:captain", now) == 79 * HOUR
    assert left(banked, "home:rival", now) == 77 * HOUR  # ran 2 h longer than alice's
    assert left(banked, "away:captain", now) == 84 * HOUR  # the away turn's increment
    assert running(banked) == {"away:captain", "away:rival"}
    assert banked.turn_deadline_at == now + timedelta(hours=84)


def test_a_decision_runs_only_its_own_sides_bank(
    banked: Match, alice: User, dice: list[int], clock: Clock
) -> None:
    clock.advance(hours=1)
    dice += [1, 4, 4]  # the dodge fails: alice is asked whether to reroll it
    decision = services.declare(
        banked.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]}
    ).decision
    assert decision is not None and decision.to == "home:captain"
    assert running(banked) == {"home:captain"}
    assert banked.turn_deadline_at is None
    assert decision.deadline_at == clock() + timedelta(hours=83)
    clock.advance(hours=3)
    assert left(banked, "home:rival", clock()) == 83 * HOUR  # bob's stood during alice's question
    services.answer(banked.pk, alice, "none")  # no reroll: Karl falls, a turnover
    now = clock()
    assert left(banked, "home:captain", now) == 80 * HOUR
    assert left(banked, "home:rival", now) == 83 * HOUR
    assert running(banked) == {"away:captain", "away:rival"}
    assert banked.turn_deadline_at == now + timedelta(hours=84)


def test_a_vacation_stops_the_coachs_bank_and_no_other(
    banked: Match, bob: User, league: League, clock: Clock
) -> None:
    services.take_vacation(bob, league, 2)
    clock.advance(days=1)
    now = clock()
    assert left(banked, "home:rival", now) == 84 * HOUR
    assert left(banked, "home:captain", now) == 60 * HOUR
    assert banked.turn_deadline_at == now + timedelta(hours=60)
    clock.advance(days=2)
    assert left(banked, "home:rival", clock()) == 60 * HOUR  # back for a day: it ran a day


def test_a_bank_started_during_a_vacation_waits_for_its_end(
    banked: Match, carol: User, alice: User, bob: User, league: League, clock: Clock
) -> None:
    vacation = services.take_vacation(carol, league, 3)
    services.declare(banked.pk, alice, {"action": "end_turn"}, side="captain")
    services.declare(banked.pk, bob, {"action": "end_turn"}, side="rival")
    clock.advance(days=2)
    assert left(banked, "away:captain", clock()) == 84 * HOUR
    assert left(banked, "away:rival", clock()) == 36 * HOUR
    banked.refresh_from_db()
    assert banked.turn_deadline_at == vacation.ends_at - timedelta(days=3) + timedelta(hours=84)


def test_the_vacation_allowance_is_each_coachs_for_a_calendar_year(
    bob: User, dave: User, league: League
) -> None:
    assert league.vacation_days == 7
    december = datetime(2026, 12, 20, 12, tzinfo=UTC)
    services.take_vacation(bob, league, 5, now=december)
    with pytest.raises(MatchError) as refused:
        services.take_vacation(bob, league, 3, now=december)
    assert refused.value.code == "no_vacation_left"
    services.take_vacation(dave, league, 7, now=december)  # another coach's allowance
    january = december + timedelta(days=15)
    services.take_vacation(bob, league, 7, now=january)
    assert services.vacation_days_left(bob, league, 2027) == 0


def test_a_bank_run_out_ends_only_its_own_sides_part_of_the_turn(
    banked: Match, clock: Clock
) -> None:
    now = clock()
    banked.banks = banked.banks | {
        "left": banked.banks["left"] | {"home:captain": 1 * HOUR, "home:rival": 10 * HOUR}
    }
    banked.turn_deadline_at = now + timedelta(hours=1)
    banked.save()
    clock.advance(hours=2)
    assert services.expire_deadlines() == 1
    banked.refresh_from_db()
    state = services.load_state(banked)
    assert state.active == "home" and state.teams["home"].ended == {"captain"}
    post = banked.posts.filter(kind=Post.Kind.SYSTEM).latest("number")
    assert post.summary["message"] == "deadline_passed" and post.summary["sides"] == ["captain"]
    assert left(banked, "home:captain", clock()) == 0
    assert running(banked) == {"home:rival"}
    assert banked.turn_deadline_at == now + timedelta(hours=10)


def test_a_bank_run_out_with_the_defaults_default_a_decision(
    banked: Match, alice: User, dice: list[int], clock: Clock
) -> None:
    dice += [1, 4, 4]
    decision = services.declare(
        banked.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]}
    ).decision
    assert decision is not None
    clock.advance(hours=85)
    assert services.expire_deadlines() == 1
    decision.refresh_from_db()
    assert decision.answered_how == "default"
    assert left(banked, "home:captain", clock()) == 0


def test_a_bank_run_out_pauses_the_match_for_the_gm_when_the_league_says_so(
    banked: Match, league: League, gm: User, clock: Clock
) -> None:
    league.bank_run_out = League.BankRunOut.GM
    league.save()
    clock.advance(hours=85)
    assert services.expire_deadlines() == 1
    banked.refresh_from_db()
    assert banked.paused
    state = services.load_state(banked)
    assert state.active == "home" and not state.teams["home"].ended  # nothing defaulted
    post = banked.posts.filter(kind=Post.Kind.SYSTEM).latest("number")
    assert post.summary == {"message": "bank_ran_out", "actors": ["home:captain", "home:rival"]}
    clock.advance(hours=5)
    assert services.expire_deadlines() == 0  # the match waits for the GM


def test_the_gm_is_mailed_in_their_language_when_a_bank_run_out_waits_for_them(
    banked: Match, league: League, gm: User, clock: Clock, on_commit: Callable[..., Any]
) -> None:
    league.bank_run_out = League.BankRunOut.GM
    league.save()
    gm.email = "gm@example.org"
    gm.save()
    # A GM who turned every coach's notice off and wants a digest still hears of a duty.
    CoachPreferences.objects.create(
        user=gm, language="es", email_turn=False, email_applied=False, digest_kinds=["applied"]
    )
    assert banked.gm_id == gm.pk
    clock.advance(hours=85)
    with on_commit():
        assert services.expire_deadlines() == 1
    [message] = [m for m in mail.outbox if m.to == ["gm@example.org"]]
    assert "espera tu decisión" in message.subject
    assert "Reikland Reavers" in message.body and f"/matches/{banked.pk}/" in message.body
    assert "List-Unsubscribe" not in message.extra_headers  # the office's duty, not a choice
    with on_commit():
        clock.advance(hours=5)
        services.expire_deadlines()
    assert len([m for m in mail.outbox if m.to == ["gm@example.org"]]) == 1


def test_each_side_is_reminded_before_its_own_bank_runs_out_and_not_once_its_part_is_done(
    banked: Match, alice: User, bob: User, clock: Clock, on_commit: Callable[..., Any]
) -> None:
    services.save_preferences(alice, reminder_hours=[72, 24])
    services.save_preferences(bob, reminder_hours=[72, 24])
    began = clock()
    clock.advance(hours=5)
    services.declare(banked.pk, alice, {"action": "end_turn"}, side="captain")
    # bob's bank has run since the turn began: 84 h in all, 71 h left after 13 h
    clock.advance(hours=8)
    with on_commit():
        services.sweep()
    heard = [str(m.subject) for m in mail.outbox if m.to == ["bob@example.org"]]
    assert heard == [f"bbweb: your deadline in {banked} is 72 hours away"]
    clock.advance(hours=48)  # 23 h left
    with on_commit():
        services.sweep()
        services.sweep()
    heard = [str(m.subject) for m in mail.outbox if m.to == ["bob@example.org"]]
    assert heard[1:] == [f"bbweb: your deadline in {banked} is 24 hours away"]
    runs_out = formats.date_format(
        timezone.localtime(began + timedelta(hours=84)), "DATETIME_FORMAT"
    )
    assert runs_out in mail.outbox[-1].body
    # alice ended her part of the turn: her bank stands, and no reminder of it comes
    assert [m for m in mail.outbox if m.to == ["alice@example.org"]] == []


def test_a_decisions_bank_run_out_waits_for_the_gm_when_the_league_says_so(
    banked: Match, league: League, alice: User, dice: list[int], clock: Clock
) -> None:
    league.bank_run_out = League.BankRunOut.GM
    league.save()
    dice += [1, 4, 4]
    decision = services.declare(
        banked.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]}
    ).decision
    assert decision is not None
    clock.advance(hours=85)
    assert services.expire_deadlines() == 1
    decision.refresh_from_db()
    banked.refresh_from_db()
    assert decision.answered_at is None and banked.paused


def test_the_gms_pause_stops_every_bank(
    banked: Match, gm: User, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timezone, "now", clock)  # the GM's controls read the real clock
    services.pause_match(banked.pk, gm)
    clock.advance(hours=10)
    services.resume_match(banked.pk, gm)
    assert left(banked, "home:captain", clock()) == 84 * HOUR


def test_a_league_with_fixed_deadlines_keeps_no_banks(in_play: Match) -> None:
    assert in_play.banks == {}
    assert not services.uses_bank(in_play)


def test_the_gm_gives_time_back_after_a_bank_ran_out_and_play_goes_on(
    banked: Match, league: League, gm: User, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timezone, "now", clock)  # the GM's controls read the real clock
    league.bank_run_out = League.BankRunOut.GM
    league.save()
    clock.advance(hours=85)
    services.expire_deadlines()
    clock.advance(hours=3)  # the GM reads the post: the match stays paused meanwhile
    services.extend_deadline(banked.pk, gm, 10)
    services.resume_match(banked.pk, gm)
    now = clock()
    assert left(banked, "home:captain", now) == 10 * HOUR
    assert running(banked) == {"home:captain", "home:rival"}
    assert banked.turn_deadline_at == now + timedelta(hours=10)
    assert services.expire_deadlines() == 0
