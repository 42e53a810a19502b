"""The match page's database queries do not grow with the thread (no query per post)."""

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bbweb.models import ApiToken
from matches import services
from matches.models import Match
from matches.tests.dice import use_dice
from matches.verification import receipts
from rules.engine import FairDice
from tools import autoplay

pytestmark = pytest.mark.django_db


def page_queries(client: Client, match: Match, rng: random.Random) -> int:
    """The queries of the page with no decision pending (a pending one may cost its own),
    read a second time: its thread comes from the cache. The first reader of a new version
    pays two queries more, the posts and the events of those new to the cache
    (test_a_new_version_costs_two_queries_however_many_posts_are_new)."""
    _no_question_pending(match, rng)
    url = reverse("matches:detail", args=[match.pk])
    assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def _no_question_pending(match: Match, rng: random.Random) -> None:
    """Play on until no question is pending: the page reads an open question's row only when
    one is (matches.models.open_decision)."""
    match.refresh_from_db()
    while match.state.get("pending") is not None:
        autoplay.step(match.pk, rng)
        match.refresh_from_db()


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

    _no_question_pending(match, rng)
    both()  # sessions, caches
    few = both()
    autoplay.fill(match.pk, 50, rng, chat_share=0.5)
    _no_question_pending(match, rng)
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


def test_a_new_version_costs_two_queries_however_many_posts_are_new(client: Client) -> None:
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
        # and the record's receipt its own, however many posts (matches.verification.receipts),
        # and the disputes' summary one, rendered once per version for all its readers, and the
        # reader's catch-up three: the new posts counted, the visit noted, their last action
        # read for this version (matches.services.visits)
        assert len(queries) == cached + 2 + receipts.RECEIPT_QUERIES + 1 + 3, new_posts
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200  # the next reader: thread and receipt cached
        assert len(queries) == cached, new_posts


def _write_through_the_api(
    client: Client, view: str, match: Match, body: dict[str, Any], token: str
) -> tuple[list[str], bool]:
    """The statements of one write through the API (its token's last use written before), and
    whether the match then waits for an answer."""
    headers = {"authorization": f"Bearer {token}"}
    client.get(reverse("api:match", args=[match.pk]), headers=headers)
    with CaptureQueriesContext(connection) as captured:
        response = client.post(
            reverse(view, args=[match.pk]),
            json.dumps(body),
            content_type="application/json",
            headers=headers,
        )
    assert response.status_code == 201, response.json()
    sql = [q["sql"] for q in captured.captured_queries]
    # The league's webhooks are read once per write, however many events it announces
    # (matches/services/hooks.py); the rest is the write's own.
    hook_reads = [q for q in sql if '"matches_leaguehook"' in q]
    assert len(hook_reads) <= 1, hook_reads
    sql = [q for q in sql if q not in hook_reads]
    assert sum('"matches_match"' in q for q in sql) == 2  # locked, then saved
    return sql, response.json()["match"]["pending"] is not None


def _assert_standing_answers(recorded: list[str], write: str, asked: bool) -> None:
    """What PostgreSQL ran between the lock and the match's own write: nothing, or a question a
    standing order answered at once, recorded (rarely two). The write asks the question the
    match now waits for, if any."""
    assert len(recorded) <= 2, [q[:60] for q in recorded]
    assert all('INSERT INTO "matches_decision"' in q for q in recorded), recorded
    assert write.startswith("WITH ") and '"matches_match"' in write, write[:60]
    assert ('INSERT INTO "matches_decision"' in write) == asked


def test_a_declaration_through_the_api_reads_the_match_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The token (its last use is written once a minute), then one transaction: the match
    locked (with the heads of its thread and chain), then the post, its events, its tasks and
    the match saved, in one statement on PostgreSQL; the answer is built from the locked row."""
    # The same dice every run (a match's own depend on its id): with new ones, 24 declarations
    # could all pass without a question.
    use_dice(monkeypatch, lambda match: FairDice(bytes(range(3, 35)), "page queries"))
    match = autoplay.demo_match()
    rng = random.Random(3)
    tokens = {coach.pk: ApiToken.issue(coach) for coach in autoplay.coaches(match).values()}
    client = Client()
    declared = plain = 0
    while declared < 24:
        match.refresh_from_db()
        if match.state.get("pending") is not None:
            autoplay.step(match.pk, rng)
            continue
        coach, declaration, side = autoplay.next_declaration(match, rng)
        sql, asked = _write_through_the_api(
            client, "api:declare", match, {**declaration, "side": side}, tokens[coach.pk]
        )
        # The token, the transaction's two ends (savepoints in a test), the lock (which reads
        # the coaches' vacations and whether anybody gave standing orders with the row) and the
        # writes. On PostgreSQL one statement writes the post, its events or the question it
        # asks, the tasks queued and the match (after the record of a question a standing order
        # answered). Elsewhere the post, its events or question and the match go one by one,
        # and so does each task.
        if connection.vendor == "postgresql":
            *recorded, write = sql[3:-1]
            _assert_standing_answers(recorded, write, asked)
        else:
            outbox = sum("bbweb_outboxmessage" in q for q in sql)
            questions = sum(q.startswith('INSERT INTO "matches_decision"') for q in sql)
            standing = questions - asked  # each recorded with its answer's post
            assert len(sql) == 7 + outbox + 2 * standing, [q[:60] for q in sql]
        plain += not asked
        declared += 1
    assert 3 <= plain < declared  # both kinds were seen


def test_an_answer_through_the_api_reads_the_match_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The token, then one transaction: the match locked (with the post that asked the open
    question), then one statement on PostgreSQL: the open decisions closed, the answer's
    post, the events or the new question, the tasks and the match."""
    use_dice(monkeypatch, lambda match: FairDice(bytes(range(3, 35)), "page queries"))
    match = autoplay.demo_match()
    rng = random.Random(3)
    coaches = autoplay.coaches(match)
    tokens = {coach.pk: ApiToken.issue(coach) for coach in coaches.values()}
    client = Client()
    answered = 0
    while answered < 8:
        match.refresh_from_db()
        pending = match.state.get("pending")
        if pending is None:
            autoplay.step(match.pk, rng)
            continue
        body = {"kind": pending["kind"], "choice": rng.choice(pending["options"])}
        token = tokens[coaches[pending["to"]].pk]
        sql, asked = _write_through_the_api(client, "api:decide", match, body, token)
        if connection.vendor == "postgresql":
            # The token, the transaction's two ends (savepoints in a test), the lock and the
            # write, which closes the decision answered.
            *recorded, write = sql[3:-1]
            assert write.startswith("WITH answered AS (UPDATE"), write[:60]
            _assert_standing_answers(recorded, write, asked)
        else:
            assert sum(q.startswith('INSERT INTO "matches_decision"') for q in sql) == asked
        # The decision answered is closed; the one it asked, written by the same statement,
        # stays open.
        assert match.decisions.filter(answered_at__isnull=True).count() == asked
        answered += 1


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
