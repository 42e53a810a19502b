"""The thread after a ruling: the posts a rewind or a re-roll took back are marked undone and
linked to the ruling's post, which says in words what it undid and why."""

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match, Post
from matches.tests.gm.conftest import first_roll, play


@pytest.fixture
def played(match: Match, coaches: dict[str, User]) -> Match:
    rng = random.Random(7)
    play(match, coaches, rng, 30)
    while services.load_state(Match.objects.get(pk=match.pk)).pending is not None:
        play(match, coaches, rng, 1)
    match.refresh_from_db()
    return match


def _page(match: Match, user: User, language: str = "en") -> str:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client.get(reverse("matches:detail", args=[match.pk])).content.decode()


def _rule(match: Match, alice: User, gm: User, ruling: str, note: str) -> Post:
    number = first_roll(match, 10)
    dispute = services.raise_dispute(
        match.pk, alice, reason="The dodge ignored a tackle zone.", event_number=number
    )
    event = services.rule_on_dispute(match.pk, gm, dispute.pk, ruling, note=note)
    assert event.post is not None
    return event.post


def test_a_rewind_marks_the_posts_it_undid_and_says_what_it_undid(
    played: Match, alice: User, gm: User
) -> None:
    ruling = _rule(played, alice, gm, "rewind", "Back to before the dodge.")
    undone = list(played.posts.filter(undone_by=ruling).order_by("number"))
    assert undone and all(p.number < ruling.number for p in undone)
    assert ruling.summary["undone_posts"] == [p.number for p in undone]
    first, last = undone[0].number, undone[-1].number
    assert played.posts.filter(number__lt=first, undone_by__isnull=False).count() == 0

    html = _page(played, alice)
    assert f'data-testid="undone-{first}"' in html
    assert f'data-testid="undone-{last}"' in html
    assert f'href="#post-{ruling.number}"' in html
    assert "Ruling on the dispute raised by alice: the GM rewinds the match" in html
    assert "Play goes on with new dice" in html
    assert "Back to before the dodge." in html
    assert f"#{first}" in html and "Undone: post" in html
    assert '<p class="headline">rewind</p>' not in html

    spanish = _page(played, alice, "es")
    assert "Deshecho por la resolución del Máster" in spanish


def test_a_granted_reroll_marks_the_roll_it_replaced(played: Match, alice: User, gm: User) -> None:
    ruling = _rule(played, alice, gm, "grant_reroll", "Roll it again.")
    replaced = played.posts.filter(undone_by=ruling)
    assert replaced.exists()
    html = _page(played, alice)
    assert "the GM grants a re-roll of the roll in post #" in html
    assert "Replaced: post" in html


def test_a_second_rewind_leaves_the_posts_the_first_one_undid_alone(
    played: Match, alice: User, gm: User, coaches: dict[str, User]
) -> None:
    first = _rule(played, alice, gm, "rewind", "Once.")
    marked = set(played.posts.filter(undone_by=first).values_list("pk", flat=True))
    play(played, coaches, random.Random(3), 8)
    second = _rule(played, alice, gm, "rewind", "Twice.")
    assert set(played.posts.filter(undone_by=first).values_list("pk", flat=True)) == marked
    assert not marked & set(played.posts.filter(undone_by=second).values_list("pk", flat=True))
