"""The forum's format after a GM's rewind: each turn listed once, and a turn's posts those
that stand, not the ones the rewind took back beside the ones played again."""

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.gm.tests.conftest import first_roll, play
from matches.models import Match
from matches.thread import forum_facts

pytestmark = pytest.mark.django_db


def test_a_rewound_turn_is_listed_once_and_told_once(
    match: Match, coaches: dict[str, User], alice: User, gm: User
) -> None:
    rng = random.Random(11)
    play(match, coaches, rng, 40)
    dispute = services.raise_dispute(
        match.pk, alice, reason="A tackle zone was missed.", event_number=first_roll(match, 30)
    )
    services.rule_on_dispute(match.pk, gm, dispute.pk, "rewind", note="Back to before it.")
    play(match, coaches, rng, 10)
    match.refresh_from_db()

    titles = [title for _key, title in forum_facts.turns(match)]
    assert len(titles) == len(set(titles))
    undone = set(match.posts.filter(undone_by__isnull=False).values_list("number", flat=True))
    assert undone
    for key, _title in forum_facts.turns(match):
        shown = forum_facts.turn(match, key, "https://bbweb.example/matches/1/")
        assert shown is not None
        assert not {post.number for post in shown.posts} & undone


def test_the_forum_page_offers_each_turn_once(
    match: Match, coaches: dict[str, User], gm: User
) -> None:
    play(match, coaches, random.Random(11), 20)
    client = Client()
    client.force_login(gm)
    page = client.get(f"/matches/{match.pk}/forum/").content.decode()
    assert page.count("Half 1: set-up and kick-off</") == 1
