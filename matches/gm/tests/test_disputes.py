"""Disputes and the GM's rulings through the services: each ruling is an event with the GM's
note, a post in the thread and an entry of the audit log."""

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from matches import services
from matches.gm.tests.conftest import first_roll, play
from matches.models import (
    AuditEntry,
    Decision,
    Dispute,
    Match,
    PlayerMatchRecord,
    Post,
    Sequence,
)
from matches.services import MatchError

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(match: Match, coaches: dict[str, User]) -> Match:
    """A match some 30 declarations and answers in, with rolls to dispute, and no question
    pending (a pending question stops the turn clock, which these tests look at)."""
    rng = random.Random(7)
    play(match, coaches, rng, 30)
    while services.load_state(Match.objects.get(pk=match.pk)).pending is not None:
        play(match, coaches, rng, 1)
    match.refresh_from_db()
    return match


def _dispute(match: Match, user: User, number: int | None = None) -> Dispute:
    return services.raise_dispute(
        match.pk,
        user,
        reason="That dodge ignored a tackle zone.",
        event_number=number or first_roll(match, 10),
    )


def test_a_coach_raises_a_dispute_on_an_event_and_the_thread_shows_it(
    played: Match, bob: User
) -> None:
    number = first_roll(played, 10)
    dispute = _dispute(played, bob, number)
    assert dispute.event is not None and dispute.event.number == number
    assert dispute.is_open and dispute.actor == "home:rival"
    post = Post.objects.get(match=played, summary__message="dispute_raised")
    assert post.author == bob and "tackle zone" in post.html
    assert played.events.filter(type="dispute_raised", data__dispute=dispute.pk).exists()
    assert services.chain_is_intact(played)


def test_a_dispute_may_be_about_a_post(played: Match, carol: User) -> None:
    dispute = services.raise_dispute(played.pk, carol, reason="Out of turn.", post_number=2)
    assert dispute.post is not None and dispute.post.number == 2 and dispute.event is None


@pytest.mark.parametrize("who", ["dave", "gm"])
def test_only_the_coaches_of_the_match_raise_disputes(
    played: Match, who: str, dave: User, gm: User
) -> None:
    with pytest.raises(MatchError) as refused:
        _dispute(played, {"dave": dave, "gm": gm}[who])
    assert refused.value.code == "not_in_match"
    assert not Dispute.objects.exists()


def test_a_dispute_needs_a_reason_and_a_real_event(played: Match, alice: User) -> None:
    with pytest.raises(MatchError, match="Say what is wrong"):
        services.raise_dispute(played.pk, alice, reason="  ", event_number=3)
    with pytest.raises(MatchError) as refused:
        services.raise_dispute(played.pk, alice, reason="Why?", event_number=99999)
    assert refused.value.code == "no_event"


def test_the_gm_dismisses_a_dispute_with_a_note(played: Match, alice: User, gm: User) -> None:
    dispute = _dispute(played, alice)
    version = Match.objects.get(pk=played.pk).version
    state = Match.objects.get(pk=played.pk).state
    event = services.rule_on_dispute(played.pk, gm, dispute.pk, "dismiss", note="The roll stands.")
    dispute.refresh_from_db()
    played.refresh_from_db()
    assert dispute.status == Dispute.Status.DISMISSED and dispute.note == "The roll stands."
    assert event.type == "dismissed" and event.data["dispute"] == dispute.pk
    assert event.post is not None
    assert event.post.author == gm and "The roll stands." in event.post.html
    assert played.state == state and played.version == version + 1
    entry = AuditEntry.objects.get(match=played, action="dismissed")
    assert entry.gm == gm and entry.league == played.league and entry.note == "The roll stands."


def test_a_ruling_is_made_once(played: Match, alice: User, gm: User) -> None:
    dispute = _dispute(played, alice)
    services.rule_on_dispute(played.pk, gm, dispute.pk, "uphold", note="Right.")
    with pytest.raises(MatchError) as refused:
        services.rule_on_dispute(played.pk, gm, dispute.pk, "dismiss")
    assert refused.value.code == "dispute_closed"


def test_another_gm_cannot_rule(played: Match, alice: User, otto: User) -> None:
    dispute = _dispute(played, alice)
    with pytest.raises(MatchError) as refused:
        services.rule_on_dispute(played.pk, otto, dispute.pk, "dismiss")
    assert refused.value.code == "not_gm"
    dispute.refresh_from_db()
    assert dispute.is_open


def test_a_rewind_takes_back_the_events_and_keeps_them_in_the_record(
    played: Match, alice: User, gm: User
) -> None:
    number = first_roll(played, 10)
    total = played.events.count()
    dispute = _dispute(played, alice, number)
    event = services.rule_on_dispute(played.pk, gm, dispute.pk, "rewind", note="Back we go.")
    played.refresh_from_db()
    acting = played.events.get(number=event.data["to"])
    assert acting.type == "declaration" and acting.number <= number
    assert played.events.count() == total + 2  # the dispute and the rewind: nothing deleted
    assert number in event.data["undone"]
    assert played.events.get(type="dispute_raised").number not in event.data["undone"]
    assert played.state == services.fold(played).to_json(compact=True)
    assert played.state["dice_used"] >= max(e.data.get("dice_to", 0) for e in played.events.all())
    assert not Decision.objects.filter(match=played, answered_at__isnull=True).exists()
    assert services.chain_is_intact(played)


def test_a_rewind_withdraws_the_pending_question(
    played: Match, coaches: dict[str, User], gm: User
) -> None:
    rng = random.Random(11)
    for _ in range(200):
        played.refresh_from_db()
        if played.state.get("pending"):
            break
        play(played, coaches, rng, 1)
    assert played.state.get("pending"), "no question came up"
    dispute = _dispute(played, coaches["home:captain"])
    services.rule_on_dispute(played.pk, gm, dispute.pk, "rewind")
    played.refresh_from_db()
    assert played.state["pending"] is None
    assert Decision.objects.filter(match=played, answer="withdrawn").exists()


def test_a_granted_reroll_reads_a_new_part_of_the_stream(
    played: Match, carol: User, gm: User
) -> None:
    number = first_roll(played, 10)
    seen = max(e.data.get("dice_to", 0) for e in played.events.all())
    dispute = _dispute(played, carol, number)
    event = services.rule_on_dispute(played.pk, gm, dispute.pk, "grant_reroll", note="Fair.")
    played.refresh_from_db()
    assert event.type == "granted_reroll" and event.data["of_event"] == number
    assert event.data["new_from"] >= seen
    disputed = played.events.get(number=number)
    redone = played.events.filter(post=event.post, type=disputed.type).first()
    assert redone is not None
    assert played.state == services.fold(played).to_json(compact=True)


def test_a_reroll_is_only_for_rolls(played: Match, carol: User, gm: User) -> None:
    dispute = services.raise_dispute(played.pk, carol, reason="No.", event_number=1)
    with pytest.raises(MatchError) as refused:
        services.rule_on_dispute(played.pk, gm, dispute.pk, "grant_reroll")
    assert refused.value.code == "not_a_roll"


def _on_pitch(match: Match) -> tuple[str, str]:
    state = match.state
    carrier = state["ball"]["carrier"]
    for pid, p in state["players"].items():
        if p.get("at") and pid != carrier and p.get("state", "standing") == "standing":
            return pid, p["at"]
    raise AssertionError("nobody on the pitch")


def _settled(match: Match, coaches: dict[str, User]) -> None:
    """Play on until no question is pending and players are on the pitch."""
    rng = random.Random(5)
    for _ in range(100):
        match.refresh_from_db()
        on = [p for p in match.state["players"].values() if p.get("at")]
        if match.state["pending"] is None and on and match.state["phase"] == "play":
            return
        play(match, coaches, rng, 1)
    raise AssertionError("the match never settled")


def test_the_gm_corrects_a_player_state_and_square(
    played: Match, coaches: dict[str, User], alice: User, gm: User
) -> None:
    _settled(played, coaches)
    pid, _at = _on_pitch(played)
    free = next(
        sq
        for sq in ("A1", "B1", "C1", "A15", "Z1", "Z15")
        if sq not in {p.get("at") for p in played.state["players"].values()}
    )
    dispute = _dispute(played, alice)
    deadline = Match.objects.get(pk=played.pk).turn_deadline_at
    event = services.rule_on_dispute(
        played.pk,
        gm,
        dispute.pk,
        "correct",
        player=pid,
        changes={"state": "prone", "at": free},
        note="He fell there.",
    )
    played.refresh_from_db()
    assert event.type == "correction"
    assert played.turn_deadline_at == deadline  # a correction gives no extra time
    player = played.state["players"][pid]
    assert (player["state"], player["at"]) == ("prone", free)
    assert played.state == services.fold(played).to_json(compact=True)


def test_an_impossible_correction_is_refused(
    played: Match, coaches: dict[str, User], alice: User, gm: User
) -> None:
    _settled(played, coaches)
    pid, _at = _on_pitch(played)
    other = next(p["at"] for q, p in played.state["players"].items() if p.get("at") and q != pid)
    dispute = _dispute(played, alice)
    with pytest.raises(MatchError) as refused:
        services.rule_on_dispute(
            played.pk, gm, dispute.pk, "correct", player=pid, changes={"at": other}
        )
    assert refused.value.code == "correction_illegal"
    dispute.refresh_from_db()
    assert dispute.is_open


def test_the_gm_extends_the_deadline(played: Match, alice: User, gm: User) -> None:
    before = played.turn_deadline_at
    assert before is not None
    dispute = _dispute(played, alice)
    services.rule_on_dispute(played.pk, gm, dispute.pk, "extend_deadline", hours=24)
    played.refresh_from_db()
    assert played.turn_deadline_at == before + timedelta(hours=24)


def test_a_paused_match_takes_no_declarations_and_its_clock_stands_still(
    played: Match, coaches: dict[str, User], alice: User, gm: User
) -> None:
    dispute = _dispute(played, alice)
    deadline = played.turn_deadline_at
    services.rule_on_dispute(played.pk, gm, dispute.pk, "pause", note="Holidays.")
    played.refresh_from_db()
    assert played.paused
    with pytest.raises(MatchError) as refused:
        play(played, coaches, random.Random(1), 1)
    assert refused.value.code in ("paused",)
    Match.objects.filter(pk=played.pk).update(clock_stopped_at=timezone.now() - timedelta(hours=5))
    services.resume_match(played.pk, gm)
    played.refresh_from_db()
    assert not played.paused and played.clock_stopped_at is None
    assert played.turn_deadline_at - deadline >= timedelta(hours=5)
    play(played, coaches, random.Random(1), 1)


def test_the_gm_locks_a_disputed_match_until_the_ruling(
    played: Match, coaches: dict[str, User], alice: User, gm: User
) -> None:
    with pytest.raises(MatchError) as refused:
        services.lock_match(played.pk, gm)
    assert refused.value.code == "no_open_dispute"
    dispute = _dispute(played, alice)
    services.lock_match(played.pk, gm, note="Until I look at it.")
    with pytest.raises(MatchError) as refused:
        play(played, coaches, random.Random(1), 1)
    assert refused.value.code == "locked"
    services.rule_on_dispute(played.pk, gm, dispute.pk, "dismiss")
    played.refresh_from_db()
    assert not played.locked
    assert played.events.filter(type="unlocked").exists()


def test_the_gm_awards_the_match(played: Match, carol: User, gm: User) -> None:
    dispute = _dispute(played, carol)
    services.rule_on_dispute(
        played.pk, gm, dispute.pk, "award", winner="away", score={"home": 0, "away": 2}
    )
    played.refresh_from_db()
    assert played.status == Match.Status.POST_MATCH
    assert played.state["phase"] == "finished"
    assert played.state["result"] == {
        "winner": "away",
        "score": {"home": 0, "away": 2},
        "by": "award",
    }
    assert played.state == services.fold(played).to_json(compact=True)
    # The awarded result leads to the post-match sequence as a played one does.
    results = dict(played.team_records.values_list("key", "result"))
    assert results == {"home": "loss", "away": "win"}
    assert Sequence.objects.get(match=played).step == Sequence.Step.AWARDS
    assert PlayerMatchRecord.objects.filter(match=played).count() == len(played.lineup)


def test_the_gm_ends_a_match_as_it_stands_then_closes_it(played: Match, gm: User) -> None:
    services.end_match(played.pk, gm, note="Time is up.")
    played.refresh_from_db()
    assert played.status == Match.Status.POST_MATCH
    assert played.state["result"]["by"] == "gm"
    assert played.revealed_seed is None
    assert Sequence.objects.get(match=played).step == Sequence.Step.AWARDS
    services.end_match(played.pk, gm)
    played.refresh_from_db()
    assert played.status == Match.Status.FINISHED and played.revealed_seed


def test_no_ruling_changes_a_closed_match(played: Match, alice: User, gm: User) -> None:
    dispute = _dispute(played, alice)
    Match.objects.filter(pk=played.pk).update(status=Match.Status.FINISHED)
    with pytest.raises(MatchError) as refused:
        services.rule_on_dispute(played.pk, gm, dispute.pk, "rewind")
    assert refused.value.code == "match_over"


def test_a_substitute_coaches_the_side_of_an_absent_coach(
    played: Match, bob: User, dave: User, gm: User
) -> None:
    services.replace_coach(played.pk, gm, "home:rival", "dave", note="bob is away.")
    played.refresh_from_db()
    assert services.actors_for(played, dave) == ["home:rival"]
    assert services.actors_for(played, bob) == []
    with pytest.raises(MatchError) as refused:
        services.replace_coach(played.pk, gm, "away:rival", "alice")
    assert refused.value.code == "conflict"


def test_the_gm_sets_the_deadline(played: Match, gm: User) -> None:
    when = timezone.now() + timedelta(days=3)
    services.set_deadline(played.pk, gm, when)
    played.refresh_from_db()
    assert played.turn_deadline_at == when
    with pytest.raises(MatchError):
        services.set_deadline(played.pk, gm, timezone.now() - timedelta(hours=1))


def test_every_gm_action_is_in_the_audit_log(played: Match, alice: User, gm: User) -> None:
    dispute = _dispute(played, alice)
    services.lock_match(played.pk, gm)
    services.rule_on_dispute(played.pk, gm, dispute.pk, "uphold", note="Yes.")
    services.pause_match(played.pk, gm)
    services.resume_match(played.pk, gm)
    services.extend_deadline(played.pk, gm, 2)
    actions = list(AuditEntry.objects.filter(match=played).values_list("action", flat=True))
    assert sorted(actions) == sorted(
        ["locked", "upheld", "unlocked", "paused", "resumed", "deadline_extended"]
    )


def test_the_sweep_leaves_a_paused_match_alone(match: Match, gm: User) -> None:
    services.pause_match(match.pk, gm, note="waiting for a ruling")
    Match.objects.filter(pk=match.pk).update(turn_deadline_at=timezone.now() - timedelta(hours=1))
    Decision.objects.filter(match=match).update(deadline_at=timezone.now() - timedelta(hours=1))
    before = Match.objects.get(pk=match.pk).version
    services.sweep()
    assert Match.objects.get(pk=match.pk).version == before
