"""The match page's database queries do not grow with the thread (no query per post)."""

import random

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import autoplay, receipts, services
from matches.models import Match

pytestmark = pytest.mark.django_db


def page_queries(client: Client, match: Match, rng: random.Random) -> int:
    """The queries of the page with no decision pending (a pending one may cost its own),
    once its posts are cached: the first reader of new posts pays one query more, for their
    events (test_a_post_not_yet_cached_costs_one_query_however_many_there_are)."""
    match.refresh_from_db()
    while match.state.get("pending") is not None:
        autoplay.step(match.pk, rng)
        match.refresh_from_db()
    url = reverse("matches:detail", args=[match.pk])
    assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("viewer", ["alice", "gm", None])
def test_the_match_page_takes_as_many_queries_with_60_posts_as_with_10(
    client: Client, viewer: str | None
) -> None:
    match = autoplay.demo_match()
    rng = random.Random(5)
    autoplay.fill(match.pk, 10 - match.posts.count(), rng, chat_share=0.3)
    if viewer is not None:
        client.force_login(User.objects.get(username=viewer))
    client.get(reverse("matches:detail", args=[match.pk]))  # sessions, caches
    few = page_queries(client, match, rng)
    autoplay.fill(match.pk, 50, rng, chat_share=0.3)
    many = page_queries(client, match, rng)
    assert match.posts.count() >= 60
    assert match.events.count() > 100
    assert many == few


def test_the_earlier_pages_and_the_poll_take_as_many_queries_with_60_posts_as_with_10(
    client: Client,
) -> None:
    match = autoplay.demo_match()
    rng = random.Random(7)
    autoplay.fill(match.pk, 10 - match.posts.count(), rng, chat_share=0.5)
    client.force_login(User.objects.get(username="alice"))

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    def both() -> tuple[int, int]:
        last = match.posts.count()
        thread = reverse("matches:thread", args=[match.pk]) + f"?before={last}"
        live = reverse("matches:live", args=[match.pk]) + "?since=1"
        return queries(thread), queries(live)

    both()  # sessions, caches
    few = both()
    autoplay.fill(match.pk, 50, rng, chat_share=0.5)
    both()  # the new posts' fragments are cached by their first reader
    assert both() == few


def test_declaring_takes_as_many_queries_whatever_the_number_of_events() -> None:
    match = autoplay.demo_match()
    rng = random.Random(3)
    counts: dict[int, int] = {}
    while len(counts) < 3:
        match.refresh_from_db()
        if match.state.get("pending") is not None:
            autoplay.step(match.pk, rng)
            continue
        user, declaration, side = autoplay.next_declaration(match, rng)
        before = match.events.count()
        turn = (match.state.get("active"), match.state.get("turn"), match.state.get("phase"))
        with CaptureQueriesContext(connection) as captured:
            services.declare(match.pk, user, declaration, side=side)
        match.refresh_from_db()
        same_turn = turn == (
            match.state.get("active"),
            match.state.get("turn"),
            match.state.get("phase"),
        )
        # A new team turn starts the clock (the coaches' vacations are read): compare within one.
        if match.state.get("pending") is None and same_turn:
            counts[match.events.count() - before] = len(captured)
    assert len(set(counts.values())) == 1, counts


def test_a_post_not_yet_cached_costs_one_query_however_many_there_are(client: Client) -> None:
    match = autoplay.demo_match()
    rng = random.Random(9)
    autoplay.fill(match.pk, 30, rng, chat_share=0.5)
    client.force_login(User.objects.get(username="alice"))
    cached = page_queries(client, match, rng)
    url = reverse("matches:detail", args=[match.pk])
    for new_posts in (1, 25):
        autoplay.fill(match.pk, new_posts, rng, chat_share=1.0)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        # and the record's receipt its own, however many posts (matches.receipts)
        assert len(queries) == cached + 1 + receipts.RECEIPT_QUERIES, new_posts
