"""The thread after a ruling: the posts a rewind or a re-roll took back are marked undone and
linked to the ruling's post, which says in words what it undid and why."""

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services
from matches.gm.tests.conftest import first_roll, play
from matches.models import Match, Post


@pytest.fixture
def played(match: Match, coaches: dict[str, User]) -> Match:
    rng = random.Random(7)
    play(match, coaches, rng, 30)
    while services.load_state(Match.objects.get(pk=match.pk)).pending is not None:
        play(match, coaches, rng, 1)
    match.refresh_from_db()
    return match


def _page(match: Match, user: User, language: str = "en", name: str = "matches:detail") -> str:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client.get(reverse(name, args=[match.pk])).content.decode()


def _disputes_page(match: Match, user: User) -> str:
    """Where a dispute is raised against one of the latest rolls and the GM rules it."""
    return _page(match, user, name="gm:match_disputes")


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


def test_the_gm_reads_which_posts_and_dice_a_rewind_would_replace_before_ruling(
    played: Match, alice: User, gm: User
) -> None:
    number = first_roll(played, 10)
    roll_post = played.events.get(number=number).post
    assert roll_post is not None
    dispute = services.raise_dispute(
        played.pk, alice, reason="The dodge ignored a tackle zone.", event_number=number
    )
    preview = services.rewind_preview(played, number)
    assert preview is not None and preview.rolls
    html = _page(played, gm)  # the GM rules from the match page
    assert f'data-testid="rewind-warning-{dispute.pk}"' in html
    assert "A rewind is, in effect, a new roll" in html
    assert f"on the roll post #{roll_post.number} · " in html
    # Nothing was undone by reading it.
    assert not played.posts.filter(undone_by__isnull=False).exists()
    # A coach sees the dispute, not the GM's warning.
    assert "rewind-warning" not in _disputes_page(played, alice)


def test_the_roll_to_dispute_is_named_by_its_post_and_its_players_name(
    played: Match, alice: User
) -> None:
    html = _disputes_page(played, alice)
    lineup = played.lineup
    assert "post #" in html
    named = [f"#{facts['number']} {facts['name']}" for facts in lineup.values()]
    assert any(name in html for name in named)
    assert "needs " not in html
