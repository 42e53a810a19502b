"""The heads of the thread and of the hash chain kept on the match row: after every kind of
write (declarations, answers, chat, a dispute and its rewind, deadlines applied by the sweep)
they are the last post's number and the last event's number and hash."""

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db.models import Max

from matches import services
from matches.gm.tests.conftest import first_roll, play
from matches.models import Decision, Match, Post
from matches.services import core

pytestmark = pytest.mark.django_db


def assert_heads_are_the_last_rows(match: Match) -> None:
    match.refresh_from_db()
    last_event = match.events.order_by("-number").first()
    assert last_event is not None
    assert match.last_post_number == match.posts.aggregate(last=Max("number"))["last"]
    assert (match.last_event_number, match.last_event_hash) == (last_event.number, last_event.hash)
    assert services.chain_is_intact(match)


def play_until_a_question(match: Match, coaches: dict[str, User], rng: random.Random) -> None:
    for _ in range(200):
        if services.load_state(Match.objects.get(pk=match.pk)).pending is not None:
            return
        play(match, coaches, rng, 1)
    pytest.fail("no question came up in 200 posts")


def test_a_new_match_starts_with_the_heads_of_its_first_rows(match: Match) -> None:
    assert match.last_post_number == 1
    assert_heads_are_the_last_rows(match)


def test_the_heads_follow_every_kind_of_write(
    match: Match, coaches: dict[str, User], alice: User, carol: User, gm: User
) -> None:
    rng = random.Random(11)
    play(match, coaches, rng, 20)
    assert_heads_are_the_last_rows(match)

    services.write_post(match.pk, carol, kind=Post.Kind.OUT_OF_CHARACTER, text="Nice *block*.")
    dispute = services.raise_dispute(
        match.pk, alice, reason="A tackle zone was missed.", event_number=first_roll(match, 10)
    )
    services.rule_on_dispute(match.pk, gm, dispute.pk, "rewind", note="Back to before it.")
    assert_heads_are_the_last_rows(match)

    play_until_a_question(match, coaches, rng)
    past = core.now() - timedelta(minutes=1)
    Decision.objects.filter(match=match, answered_at__isnull=True).update(deadline_at=past)
    assert services.expire_deadlines(core.now()) >= 1
    while services.load_state(Match.objects.get(pk=match.pk)).pending is not None:
        play(match, coaches, rng, 1)
    Match.objects.filter(pk=match.pk).update(turn_deadline_at=past)
    assert services.expire_deadlines(core.now()) >= 1
    # A deadline in play passes the turn; one at a set-up or a kick posts the default instead.
    expired = ["deadline_passed", "default_setup", "default_kick"]
    assert match.posts.filter(summary__message__in=expired).count() >= 2
    assert_heads_are_the_last_rows(match)

    play(match, coaches, rng, 10)  # the next writes number on from the heads
    assert_heads_are_the_last_rows(match)


def assert_a_question_is_open_only_while_the_state_awaits_it(match: Match) -> None:
    """What the match page counts on to skip the question's query when nothing is pending."""
    match.refresh_from_db()
    open_rows = match.decisions.filter(answered_at__isnull=True).count()
    assert open_rows == (1 if match.state.get("pending") else 0), match.state.get("pending")


def test_a_question_is_open_only_while_the_state_awaits_its_answer(
    match: Match, coaches: dict[str, User], alice: User, gm: User
) -> None:
    rng = random.Random(5)
    play_until_a_question(match, coaches, rng)
    past = core.now() - timedelta(minutes=1)
    Decision.objects.filter(match=match, answered_at__isnull=True).update(deadline_at=past)
    assert services.expire_deadlines(core.now()) >= 1  # the sweep answers with the default
    assert_a_question_is_open_only_while_the_state_awaits_it(match)
    asked = 0
    for _ in range(60):  # declarations, and answers by the coaches
        play(match, coaches, rng, 1)
        assert_a_question_is_open_only_while_the_state_awaits_it(match)
        asked += match.state.get("pending") is not None
    assert asked, "no question came up in 60 posts"
    dispute = services.raise_dispute(
        match.pk, alice, reason="That roll.", event_number=first_roll(match, 10)
    )
    services.rule_on_dispute(match.pk, gm, dispute.pk, "rewind", note="Back to before it.")
    assert_a_question_is_open_only_while_the_state_awaits_it(match)
