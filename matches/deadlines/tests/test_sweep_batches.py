"""The sweep applies its deadlines in batches: one transaction and a few queries for many
matches, the same posts, events, decisions and e-mails as one deadline at a time, and a match
that fails holds back none of the others."""

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from matches import services
from matches.deadlines.tests.conftest import STANDARD, Clock, player, put
from matches.models import Decision, Match, Post
from matches.services import buffer, core, deadlines
from matches.tests.dice import use_dice
from rules.engine import ScriptedDice
from teams.models import League, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_match(reavers: Team, raiders: Team, gm: User, league: League) -> Callable[[], Match]:
    """Another match between the Reavers and the Raiders: the coin toss awaits its answer."""
    return lambda: services.create_match(home=reavers, away=raiders, gm=gm, league=league)


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> dict[int, list[int]]:
    """Dice faces fixed per match (the others roll their own fair dice)."""
    faces: dict[int, list[int]] = {}
    fair = core.dice_for
    use_dice(
        monkeypatch,
        lambda match: ScriptedDice(faces[match.pk]) if match.pk in faces else fair(match),
    )
    return faces


def deadline_posts(match: Match) -> list[Post]:
    return list(match.posts.filter(summary__message="deadline_passed").order_by("number"))


def numbered_from_one(numbers: list[int]) -> bool:
    return numbers == list(range(1, len(numbers) + 1))


def test_a_batch_of_expired_turns_and_decisions_applies_each_once(
    new_match: Callable[[], Match], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deadlines, "SWEEP_BATCH", 4)
    batches: list[list[str]] = []
    together = deadlines.expire_together

    def spy(matches: list[tuple[int, Any]], now: Any) -> tuple[int, int]:
        batches.append(sorted({"decision" if due.decisions else "turn" for _pk, due in matches}))
        return together(matches, now)

    monkeypatch.setattr(deadlines, "expire_together", spy)
    turns = [put(new_match(), STANDARD) for _ in range(5)]
    tosses = [new_match() for _ in range(5)]
    clock.advance(hours=49)
    assert services.sweep() == services.SweepReport(decisions=5, turns=5, warnings=0)
    assert ["decision", "turn"] in batches, "a batch held both kinds"
    assert services.expire_deadlines() == 0
    for match in turns:
        match.refresh_from_db()
        assert [p.summary["deadline"] for p in deadline_posts(match)] == ["turn"]
        assert services.load_state(match).active == "away"
        assert match.turn_deadline_at == clock() + timedelta(hours=48)
    for match in tosses:
        match.refresh_from_db()
        [post] = deadline_posts(match)
        assert post.summary["kind"] == "kick_or_receive"
        assert match.decisions.get().answered_how == Decision.AnsweredBy.DEFAULT
        assert services.load_state(match).pending is None
        assert services.fold(match).to_json(compact=True) == match.state
    for match in turns + tosses:
        assert services.chain_is_intact(match)
        assert numbered_from_one(list(match.events.values_list("number", flat=True)))
        assert numbered_from_one(list(match.posts.values_list("number", flat=True)))


def test_a_default_that_restarts_a_spent_turn_clock_ends_the_turn_in_the_same_sweep(
    in_play: Match, bob: User, dice: list[int], clock: Clock
) -> None:
    dice += [1, 6]  # the dodge fails, the approved reroll succeeds: no turnover
    services.declare(in_play.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    services.answer(in_play.pk, bob, "team")
    Match.objects.filter(pk=in_play.pk).update(turn_time_left=timedelta(0))
    clock.advance(hours=13)
    assert services.sweep() == services.SweepReport(decisions=1, turns=1, warnings=0)
    assert [p.summary["deadline"] for p in deadline_posts(in_play)] == ["decision", "turn"]
    in_play.refresh_from_db()
    assert services.load_state(in_play).active == "away"
    assert services.chain_is_intact(in_play)


def record(matches: list[Match]) -> dict[int, dict[str, Any]]:
    """Everything a deadline writes, by match, without the ids and creation times."""
    out: dict[int, dict[str, Any]] = {}
    for match in matches:
        match.refresh_from_db()
        numbers: dict[int | None, int] = dict(match.posts.values_list("pk", "number"))
        out[match.pk] = {
            "match": (
                match.state,
                match.version,
                match.status,
                match.turn_deadline_at,
                match.turn_time_left,
                match.turn_warnings_sent,
            ),
            "posts": list(
                match.posts.order_by("number").values_list(
                    "number",
                    "kind",
                    "author_id",
                    "actor",
                    "half",
                    "turn",
                    "team",
                    "declaration",
                    "text",
                    "html",
                    "summary",
                    "idempotency_key",
                )
            ),
            "events": [
                (
                    e.number,
                    e.type,
                    e.data,
                    e.half,
                    e.turn,
                    numbers.get(e.post_id),
                    e.prev_hash,
                    e.hash,
                )
                for e in match.events.order_by("number")
            ],
            "decisions": [
                (
                    d.kind,
                    d.to,
                    d.options,
                    d.default,
                    d.preview,
                    d.deadline_at,
                    d.answered_at,
                    d.answer,
                    d.answered_by_id,
                    d.answered_how,
                    d.contested_at,
                    d.warnings_sent,
                    numbers.get(d.post_id),
                )
                for d in match.decisions.order_by("created_at", "pk")
            ],
        }
    return out


def test_a_batch_writes_what_the_deadlines_applied_one_at_a_time_write(
    new_match: Callable[[], Match],
    alice: User,
    bob: User,
    dave: User,
    league: League,
    scripted: dict[int, list[int]],
    clock: Clock,
    on_commit: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    both_sides = put(new_match(), STANDARD)
    rival_only = put(new_match(), STANDARD)
    services.declare(rival_only.pk, alice, {"action": "end_turn"}, side="captain")
    toss = new_match()
    reroll = put(new_match(), STANDARD)
    scripted[reroll.pk] = [1, 4, 4]  # the dodge fails; armour holds
    services.declare(reroll.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    approval = put(new_match(), STANDARD)
    scripted[approval.pk] = [1, 6]  # the dodge fails; the approved reroll succeeds
    services.declare(approval.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    services.answer(approval.pk, bob, "team")
    block = put(
        new_match(),
        [player("h1", "K8"), player("a1", "L8", st=4), player("a7", "T3")],
        teams={"home": {"rerolls": 0}},
    )
    scripted[block.pk] = [2, 6] + [6] * 8  # the defender's default, pushed: then the push
    services.declare(block.pk, alice, {"player": "h1", "action": "block", "target": "a1"})
    services.set_standing_orders(block.pk, alice, reroll_gfi=True)
    claim = put(new_match(), STANDARD)
    scripted[claim.pk] = [1, 1, 1, 6, 6, 6]
    services.declare(claim.pk, bob, {"action": "claim_blitz"})
    spent = put(new_match(), STANDARD)
    scripted[spent.pk] = [1, 6]
    services.declare(spent.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    services.answer(spent.pk, bob, "team")
    Match.objects.filter(pk=spent.pk).update(turn_time_left=timedelta(0))
    services.take_vacation(dave, league, 3)  # the away team's next turn counts from its end
    matches = [both_sides, rival_only, toss, reroll, approval, block, claim, spent]
    clock.advance(hours=49)
    mail.outbox.clear()

    def sweep() -> tuple[dict[int, dict[str, Any]], list[tuple[Any, ...]]]:
        with on_commit():
            assert services.sweep() == services.SweepReport(decisions=6, turns=3, warnings=0)
        sent = sorted((tuple(m.to), m.subject, m.body) for m in mail.outbox)
        mail.outbox.clear()
        return record(matches), sent

    with monkeypatch.context() as patch, caplog.at_level(logging.WARNING):
        patch.setattr(buffer.Batch, "flush", lambda batch: _fail())
        with transaction.atomic():
            one_at_a_time = sweep()
            transaction.set_rollback(True)
    assert "applying them one by one" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        in_a_batch = sweep()
    assert caplog.text == ""
    assert in_a_batch == one_at_a_time
    records, sent = in_a_batch
    kinds = [d[0] for d in records[block.pk]["decisions"]]
    assert kinds[0] == "block_die" and kinds[1] in ("push", "follow_up")
    assert any("a decision awaits you" in subject for _to, subject, _body in sent)
    assert any("the Blitz contest" in subject for _to, subject, _body in sent)


def _fail() -> Any:
    raise DatabaseError("the batch's writes failed")


def test_a_match_that_fails_holds_back_none_of_the_others(
    new_match: Callable[[], Match], clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    matches = [put(new_match(), STANDARD) for _ in range(3)] + [new_match() for _ in range(2)]
    broken = matches[1]
    Match.objects.filter(pk=broken.pk).update(state={"players": "nonsense"})
    clock.advance(hours=49)
    with caplog.at_level(logging.WARNING):
        assert services.expire_deadlines() == 4
    assert f"the deadlines of match {broken.pk} could not be applied" in caplog.text
    for match in matches:
        assert len(deadline_posts(match)) == (0 if match == broken else 1)
    assert services.expire_deadlines() == 0  # the broken match is tried again, alone


def test_a_match_the_batch_cannot_hold_is_applied_alone_within_it(
    new_match: Callable[[], Match],
    bob: User,
    scripted: dict[int, list[int]],
    clock: Clock,
    on_commit: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    claim = put(new_match(), STANDARD)
    scripted[claim.pk] = [6, 6, 6, 1, 1, 1]
    services.declare(claim.pk, bob, {"action": "claim_blitz"})
    others = [put(new_match(), STANDARD) for _ in range(2)]
    clock.advance(hours=49)
    with caplog.at_level(logging.WARNING), on_commit():
        assert services.expire_deadlines() == 3
    assert caplog.text == ""
    decision = claim.decisions.get()
    assert decision.answered_how == Decision.AnsweredBy.CONTEST
    assert claim.posts.get(summary__message="blitz_contest").summary["winner"] == "rival"
    assert all(len(deadline_posts(match)) == 1 for match in [claim, *others])


def test_the_queries_of_a_batch_do_not_grow_with_its_size(
    new_match: Callable[[], Match], clock: Clock
) -> None:
    def sweep_of(n: int) -> int:
        for _ in range(n):
            put(new_match(), STANDARD)
            new_match()
        clock.advance(hours=49)
        with CaptureQueriesContext(connection) as queries:
            assert services.expire_deadlines() == 2 * n
        Match.objects.update(status=Match.Status.FINISHED)  # no deadline of theirs comes back
        return len(queries)

    assert sweep_of(2) == sweep_of(8)


def test_a_buffered_match_neither_writes_nor_reads_back_the_rows_it_buffers(
    in_play: Match, alice: User
) -> None:
    batch = buffer.Batch([Match.objects.get(pk=in_play.pk)], core.now())
    match = batch.matches[in_play.pk]
    for refused in (
        lambda: Match.objects.filter(pk=match.pk).update(version=99),
        lambda: Post.objects.filter(match=match).first(),
        lambda: User.objects.filter(pk=alice.pk).update(first_name="Alice"),
    ):
        with pytest.raises(buffer.Unbuffered), batch.buffering(match):
            refused()
    assert batch.done == []
    with batch.buffering(match):
        assert User.objects.filter(pk=alice.pk).first() == alice  # other tables: read freely
    assert len(batch.done) == 1
    in_play.refresh_from_db()  # the transaction is still usable, and nothing was written
    assert in_play.version == match.version
    assert User.objects.get(pk=alice.pk).first_name == ""


def test_a_sweep_that_would_pass_its_time_budget_stops_between_batches_and_the_next_goes_on(
    match: Match,
    reavers: Team,
    raiders: Team,
    gm: User,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    matches = [put(match, STANDARD)] + [
        put(services.create_match(home=reavers, away=raiders, gm=gm), STANDARD) for _ in range(2)
    ]
    clock.advance(hours=49)
    seconds = [0.0]
    real = deadlines.expire_batch

    def slow_batch(*args: Any) -> Any:
        seconds[0] += 10  # each batch takes ten seconds
        return real(*args)

    monkeypatch.setattr(deadlines, "SWEEP_BATCH", 1)
    monkeypatch.setattr(deadlines, "expire_batch", slow_batch)
    report = services.sweep(budget=services.Budget(25, clock=lambda: seconds[0]))
    assert (report.turns, report.stopped) == (2, True)  # a third batch would end at 30 s
    assert services.sweep(budget=services.Budget(25, clock=lambda: seconds[0])).turns == 1
    assert not Match.objects.filter(pk__in=[m.pk for m in matches], turn_deadline_at__lte=clock.at)
