"""Catch-up: the match page marks what is new since the reader's last visit (how many posts,
a link to the first unseen, that post marked), and links the replay to the reader's last
action. The visit is one small write per opening of the page; the polls write nothing."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match, MatchEvent, Visit
from matches.tests.replays import recorded_position, walk_and_score

pytestmark = pytest.mark.django_db


def _page(client: Client, match: Match) -> str:
    response = client.get(reverse("matches:detail", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_first_visit_marks_nothing_and_notes_the_last_post(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    recorded_position(match)
    page = _page(clients["carol"], match)
    assert 'data-testid="catch-up"' not in page
    assert 'data-testid="unseen-mark"' not in page
    latest = match.posts.order_by("-number").values_list("number", flat=True).first()
    assert Visit.objects.get(user=cast["carol"], match=match).seen_post == latest


def test_the_posts_of_others_since_the_last_visit_are_counted_and_the_first_marked(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    recorded_position(match)
    _page(clients["carol"], match)
    seen = Visit.objects.get(user=cast["carol"], match=match).seen_post
    walk_and_score(match, cast)
    new = list(match.posts.filter(number__gt=seen).order_by("number"))
    page = _page(clients["carol"], match)
    assert f"{len(new)} new posts since your last visit" in page
    assert f'href="#post-{new[0].number}" data-testid="catch-up-link"' in page
    marked = re.search(r'class="post [^"]* unseen" id="post-(\d+)"', page)
    assert marked is not None and int(marked.group(1)) == new[0].number
    # seen now: the next visit marks nothing
    assert 'data-testid="catch-up"' not in _page(clients["carol"], match)


def test_a_coachs_own_posts_are_not_new_to_them(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    recorded_position(match)
    _page(clients["bob"], match)
    services.declare(match.pk, cast["bob"], {"action": "move", "player": "h7", "path": ["J8"]})
    assert 'data-testid="catch-up"' not in _page(clients["bob"], match)
    services.declare(
        match.pk, cast["alice"], {"action": "move", "player": "h1", "path": ["Y8", "Z8"]}
    )
    found = services.record_visit(match, cast["bob"])
    assert found.new >= 1 and found.first is not None
    assert match.posts.get(number=found.first).author == cast["alice"]


def test_the_polls_write_no_visit_and_an_unchanged_thread_writes_none(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    recorded_position(match)
    _page(clients["carol"], match)
    visit = Visit.objects.get(user=cast["carol"], match=match)
    walk_and_score(match, cast)
    response = clients["carol"].get(reverse("matches:live", args=[match.pk]) + "?v=0")
    assert response.status_code == 200
    assert Visit.objects.get(pk=visit.pk).seen_post == visit.seen_post
    services.record_visit(match, cast["carol"])
    after = Visit.objects.get(pk=visit.pk).seen_post
    assert after > visit.seen_post
    services.record_visit(match, cast["carol"])
    assert Visit.objects.get(pk=visit.pk).seen_post == after
    assert Visit.objects.filter(user=cast["carol"]).count() == 1


def test_the_replay_can_start_at_the_readers_last_action(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    recorded_position(match)
    walk_and_score(match, cast)
    walked = MatchEvent.objects.get(match=match, type="declaration", post__author=cast["bob"])
    replay = reverse("matches:replay", args=[match.pk])
    page = _page(clients["bob"], match)
    assert f'href="{replay}#event-{walked.number}" data-testid="replay-from-mine"' in page
    assert 'data-testid="replay-from-mine"' not in _page(clients["carol"], match)
    assert 'data-testid="replay-from-mine"' not in _page(clients["anonymous"], match)


def test_a_first_unseen_post_on_an_earlier_page_is_linked_through_that_page(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    recorded_position(match)
    _page(clients["carol"], match)
    for number in range(45):
        services.write_post(match.pk, cast["alice"], kind="ooc", text=f"Talk {number}")
    page = _page(clients["carol"], match)
    first = match.posts.filter(author=cast["alice"]).order_by("number").first()
    assert first is not None
    assert "45 new posts since your last visit" in page
    assert f'href="?before={first.number + 40}#post-{first.number}"' in page
