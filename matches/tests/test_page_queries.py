"""The match page's database queries do not grow with the thread (no query per post)."""

import json
import random

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bbweb.models import ApiToken
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


def test_a_declaration_through_the_api_reads_the_match_once() -> None:
    """The token (its last use is written once a minute), then one transaction: the match
    locked (with the heads of its thread and chain), then the post, its events and the match
    saved, in one statement on PostgreSQL; the answer is built from the locked row."""
    match = autoplay.demo_match()
    rng = random.Random(3)
    tokens = {coach.pk: ApiToken.issue(coach) for coach in autoplay.coaches(match).values()}
    client = Client()
    declared = plain = 0
    while declared < 8:
        match.refresh_from_db()
        if match.state.get("pending") is not None:
            autoplay.step(match.pk, rng)
            continue
        coach, declaration, side = autoplay.next_declaration(match, rng)
        headers = {"authorization": f"Bearer {tokens[coach.pk]}"}
        client.get(reverse("api:match", args=[match.pk]), headers=headers)  # last use written
        with CaptureQueriesContext(connection) as captured:
            response = client.post(
                reverse("api:declare", args=[match.pk]),
                json.dumps({**declaration, "side": side}),
                content_type="application/json",
                headers=headers,
            )
        assert response.status_code == 201, response.json()
        sql = [q["sql"] for q in captured.captured_queries]
        assert sum('"matches_match"' in q for q in sql) == 2  # locked, then saved
        if not any('"matches_vacation"' in q or '"matches_decision"' in q for q in sql):
            # Neither a new turn's clock nor a question opened: the bare declaration.
            outbox = sum('"bbweb_outboxmessage"' in q for q in sql)  # a task queued
            # The token, the transaction's two ends (savepoints in a test), the lock and the
            # write: one statement on PostgreSQL, three elsewhere.
            writes = 1 if connection.vendor == "postgresql" else 3
            assert len(sql) == 4 + writes + outbox, [q[:60] for q in sql]
            plain += 1
        declared += 1
    assert plain >= 3


@pytest.mark.parametrize("is_public", [True, False])
def test_a_poll_of_an_unchanged_match_reads_only_what_the_access_check_needs(
    client: Client, is_public: bool
) -> None:
    match = autoplay.demo_match()
    Match.objects.filter(pk=match.pk).update(is_public=is_public)
    match.refresh_from_db()
    client.force_login(User.objects.get(username="bob"))
    url = reverse("matches:live", args=[match.pk]) + f"?v={match.version}"
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 204
    sql = [q["sql"] for q in captured.captured_queries]
    [read] = [q for q in sql if '"matches_match"' in q]
    assert '"matches_match"."state"' not in read
    assert '"matches_match"."lineup"' not in read
    assert len(sql) == (1 if is_public else 3)  # a private match needs the session's user
