"""E-mails: your turn, a decision awaits you, 24 h and 2 h warnings, a deadline applied, a
Blitz contest's result; each once, as each coach chose, in each coach's language."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db.models import F

from matches import services
from matches.deadlines.tests.conftest import Clock
from matches.models import Decision, Match, Notice
from matches.notices import emails as notifications

pytestmark = pytest.mark.django_db


def to(*names: str) -> list[list[str]]:
    return [[f"{name}@example.org"] for name in names]


def test_both_coaches_hear_that_their_teams_turn_begins(
    in_play: Match, alice: User, bob: User, on_commit: Callable[..., Any]
) -> None:
    services.declare(in_play.pk, alice, {"action": "end_turn"}, side="captain")
    with on_commit():
        services.declare(in_play.pk, bob, {"action": "end_turn"}, side="rival")
    assert sorted(m.to for m in mail.outbox) == to("carol", "dave")
    assert "your team's turn" in mail.outbox[0].subject


def test_the_coach_a_decision_awaits_hears_of_it_in_its_language(
    in_play: Match, alice: User, dice: list[int], on_commit: Callable[..., Any]
) -> None:
    services.save_preferences(alice, language="es")
    dice += [1]
    with on_commit():
        services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    [message] = mail.outbox
    assert message.to == ["alice@example.org"]
    assert "te espera una decisión" in message.subject


def test_a_coach_who_turned_a_kind_off_is_not_sent_it(
    in_play: Match, alice: User, dice: list[int], on_commit: Callable[..., Any]
) -> None:
    services.save_preferences(alice, email_decision=False)
    dice += [1]
    with on_commit():
        services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    assert mail.outbox == []


def test_the_warnings_go_out_24_and_2_hours_before_once_each(
    in_play: Match, clock: Clock, on_commit: Callable[..., Any]
) -> None:
    clock.advance(hours=23)
    with on_commit():
        assert services.sweep().warnings == 0
    clock.advance(hours=2)
    with on_commit():
        assert services.sweep().warnings == 1
        assert services.sweep().warnings == 0
    assert sorted(m.to for m in mail.outbox) == to("alice", "bob")
    clock.advance(hours=21, minutes=30)
    with on_commit():
        assert services.sweep().warnings == 1
        assert services.sweep().warnings == 0
    assert len(mail.outbox) == 4
    assert Notice.objects.filter(kind="warning").count() == 4


def test_a_short_deadline_gets_no_24_hour_warning(
    in_play: Match, alice: User, dice: list[int], clock: Clock, on_commit: Callable[..., Any]
) -> None:
    dice += [1, 4, 4]
    with on_commit():
        services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    clock.advance(hours=1)
    with on_commit():
        assert services.sweep().warnings == 0
    clock.advance(hours=9, minutes=30)
    with on_commit():
        assert services.sweep().warnings == 1
    assert [m.to for m in mail.outbox] == to("alice", "alice")


def test_the_absent_coach_hears_that_a_deadline_was_applied(
    in_play: Match, clock: Clock, on_commit: Callable[..., Any]
) -> None:
    clock.advance(hours=49)
    with on_commit():
        services.expire_deadlines()
    passed = [m for m in mail.outbox if "deadline passed" in m.subject]
    assert sorted(m.to for m in passed) == to("alice", "bob")


def test_both_coaches_hear_the_result_of_a_blitz_contest(
    in_play: Match, alice: User, bob: User, dice: list[int], on_commit: Callable[..., Any]
) -> None:
    dice += [6, 5, 4, 3, 3, 2]
    services.declare(in_play.pk, bob, {"action": "claim_blitz"})
    mail.outbox.clear()
    with on_commit():
        services.answer(in_play.pk, alice, "contest")
    assert sorted(m.to for m in mail.outbox) == to("alice", "bob")
    assert "6 5 4 = 15" in mail.outbox[0].body
    assert "3 3 2 + 2 = 10" in mail.outbox[0].body


def test_a_notice_is_never_sent_twice(in_play: Match) -> None:
    from matches.notices import emails as notifications

    assert notifications.send("turn", in_play.pk, ["home:captain"], "k", {}) == 1
    assert notifications.send("turn", in_play.pk, ["home:captain"], "k", {}) == 0
    assert len(mail.outbox) == 1


def test_a_warning_in_one_match_does_not_silence_the_same_turn_in_another(
    in_play: Match,
    reavers: Any,
    raiders: Any,
    gm: User,
    clock: Clock,
    on_commit: Callable[..., Any],
) -> None:
    from matches.deadlines.tests.conftest import STANDARD, put

    second = put(services.create_match(home=reavers, away=raiders, gm=gm), STANDARD)
    clock.advance(hours=25)
    with on_commit():
        assert services.sweep().warnings == 2
    assert sorted(m.to for m in mail.outbox) == to("alice", "alice", "bob", "bob")
    assert {n.match_id for n in Notice.objects.filter(kind="warning")} == {in_play.pk, second.pk}


def test_a_decision_warning_is_keyed_by_its_match(
    in_play: Match, alice: User, dice: list[int], clock: Clock, on_commit: Callable[..., Any]
) -> None:
    dice += [1]
    with on_commit():
        services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    clock.advance(hours=10, minutes=30)
    with on_commit():
        assert services.sweep().warnings == 1
    keys = set(Notice.objects.filter(kind="warning").values_list("key", flat=True))
    assert keys and all(key.startswith(f"warning:{in_play.pk}:") for key in keys)


def _age(decision: Decision, **delta: float) -> None:
    """The decision as if asked ``delta`` ago."""
    Decision.objects.filter(pk=decision.pk).update(created_at=F("created_at") - timedelta(**delta))


def test_a_decision_answered_on_the_page_within_minutes_gets_no_mail(
    in_play: Match, alice: User, dice: list[int]
) -> None:
    dice += [1] + [3] * 10  # a failed dodge, then whatever its answer rolls
    services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    decision = in_play.decisions.get(answered_at__isnull=True)
    wait = notifications.decision_awaits(decision.pk)
    assert wait is not None and wait <= notifications.DECISION_QUIET
    assert mail.outbox == []  # too early: the task comes back later
    services.answer(in_play.pk, alice, decision.options[-1])
    _age(decision, minutes=5)
    assert notifications.decision_awaits(decision.pk) is None
    assert mail.outbox == []  # answered in the meantime: no mail at all


def test_a_decision_left_unanswered_is_mailed_once_it_has_waited(
    in_play: Match, alice: User, dice: list[int]
) -> None:
    dice += [1]
    services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    decision = in_play.decisions.get(answered_at__isnull=True)
    _age(decision, minutes=4)
    assert notifications.decision_awaits(decision.pk) is None
    [message] = mail.outbox
    assert message.to == ["alice@example.org"]
    assert ".." not in message.body


def test_a_deadline_warning_reads_as_one_sentence_without_a_double_period(
    in_play: Match, alice: User
) -> None:
    notifications.send("warning", in_play.pk, ["home:captain"], "warning:test", {})
    [message] = mail.outbox
    assert "If nobody acts before" in message.body
    assert ".." not in message.body
