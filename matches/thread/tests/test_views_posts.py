"""Text in the thread: Markdown sanitised, @mentions highlighted and mailed, a short edit
window for the author."""

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import timezone

from bbweb import outbox
from bbweb.celery import app as celery_app
from matches import services
from matches.models import Match, Post
from matches.notices import emails as notifications
from matches.record.markup import POST_TEXT_MAX
from rules.engine.randomplay import choose

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("role", "status", "posted"),
    [
        ("anonymous", 302, False),
        ("erin", 403, False),
        ("alice", 200, True),
        ("bob", 200, True),
        ("carol", 200, True),
        ("gm", 200, True),
    ],
)
def test_the_matchs_coaches_and_gm_write_in_the_thread(
    match: Match, clients: dict[str, Client], role: str, status: int, posted: bool
) -> None:
    data = {"kind": "ooc", "text": "Good luck!", "key": "k1"}
    response = clients[role].post(f"/matches/{match.pk}/posts/", data, headers=HX)
    assert response.status_code == status
    assert Post.objects.filter(kind="ooc").exists() is posted
    if posted:
        assert 'id="post-form"' in response.content.decode()  # a fresh form, out of band


def test_no_script_survives_in_a_post(match: Match, clients: dict[str, Client]) -> None:
    text = "<script>alert(1)</script> [x](javascript:alert(2)) <img src=x onerror=alert(3)> **ok**"
    clients["alice"].post(f"/matches/{match.pk}/posts/", {"kind": "ic", "text": text}, headers=HX)
    page = clients["erin"].get(f"/matches/{match.pk}/").content.decode()
    thread = page.split('id="thread"')[1]
    assert "<script>alert" not in thread and 'href="javascript:' not in thread
    assert "<img" not in thread and "<strong>ok</strong>" in thread


def test_a_mention_is_highlighted_and_mailed_to_the_coach_named(
    match: Match,
    clients: dict[str, Client],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # settings are read before the root conftest asks for eager tasks: ask the app directly
    eager = celery_app.conf.task_always_eager
    celery_app.conf.update(task_always_eager=True)
    text = "@carol your orcs smell. @nobody cares. `@dave` is code."
    try:
        with django_capture_on_commit_callbacks(execute=True):
            clients["alice"].post(f"/matches/{match.pk}/posts/", {"kind": "ic", "text": text})
        outbox.relay()  # what beat runs every few seconds
    finally:
        celery_app.conf.update(task_always_eager=eager)
    page = clients["erin"].get(f"/matches/{match.pk}/").content.decode()
    assert '<span class="mention">@carol</span>' in page
    assert '<span class="mention">@nobody' not in page and "<code>@dave</code>" in page
    mentions = [m for m in mail.outbox if "mentioned you" in m.subject]
    assert [m.to for m in mentions] == [["carol@bbweb.local"]]  # the relay also sent the
    assert "alice" in mentions[0].subject  # decision notice the fixture's match queued
    # The outbox may send a task twice (a relay that died before marking it sent): the second
    # run of the mention's finds its notice and mails nobody again.
    sent = len(mail.outbox)
    notifications.mentioned(match.posts.get(text=text).pk)
    assert len(mail.outbox) == sent


@pytest.mark.parametrize(
    ("role", "status", "edited"),
    [
        ("anonymous", 302, False),
        ("erin", 403, False),
        ("alice", 200, True),
        ("bob", 200, False),
        ("carol", 200, False),
        ("gm", 200, False),
    ],
)
def test_only_the_author_edits_a_post(
    match: Match,
    clients: dict[str, Client],
    cast: dict[str, User],
    role: str,
    status: int,
    edited: bool,
) -> None:
    post = services.write_post(match.pk, cast["alice"], kind="ic", text="Frist!")
    response = clients[role].post(
        f"/matches/{match.pk}/posts/{post.number}/edit/", {"text": "First!"}, headers=HX
    )
    assert response.status_code == status
    post.refresh_from_db()
    assert (post.text == "First!") is edited
    if edited:
        assert post.summary["original"] == "Frist!"
        assert "<em>edited</em>" in clients["erin"].get(f"/matches/{match.pk}/").content.decode()


def test_the_edit_window_closes_after_fifteen_minutes(match: Match, cast: dict[str, User]) -> None:
    post = services.write_post(match.pk, cast["alice"], kind="ic", text="Frist!")
    Post.objects.filter(pk=post.pk).update(created_at=timezone.now() - timedelta(minutes=16))
    with pytest.raises(services.MatchError) as refused:
        services.edit_post(post.pk, cast["alice"], text="First!")
    assert refused.value.code == "edit_window"


def test_a_decision_or_a_system_post_has_no_text_to_edit(
    match: Match, cast: dict[str, User]
) -> None:
    post = services.answer(match.pk, cast[_toss_winner(match)], "receive").post
    with pytest.raises(services.MatchError) as refused:
        services.edit_post(post.pk, cast[_toss_winner(match)], text="I meant kick")
    assert refused.value.code == "not_editable"


def _toss_winner(match: Match) -> str:
    return "alice" if match.state["pending"]["to"] == "home:captain" else "carol"


def test_a_declaration_posted_without_text_gets_none_through_the_edit_endpoint(
    match: Match, clients: dict[str, Client], cast: dict[str, User]
) -> None:
    winner = _toss_winner(match)
    services.answer(match.pk, cast[winner], "receive")
    match.refresh_from_db()
    state = services.load_state(match)
    actor, decl = choose(state, random.Random(1), whole=True)
    coach = next(n for n, u in cast.items() if str(actor) in services.actors_for(match, u))
    post = services.declare(match.pk, cast[coach], decl.to_json(), side=actor.side).post
    assert post.text == ""
    response = clients[coach].post(
        f"/matches/{match.pk}/posts/{post.number}/edit/", {"text": "Look at this!"}, headers=HX
    )
    post.refresh_from_db()
    assert post.text == "" and response.status_code in (200, 400)


def test_a_post_longer_than_the_documented_cap_is_refused_with_a_clear_message(
    match: Match, clients: dict[str, Client]
) -> None:
    too_long = "x" * (POST_TEXT_MAX + 1)
    response = clients["alice"].post(
        f"/matches/{match.pk}/posts/", {"kind": "ooc", "text": too_long}, headers=HX
    )
    assert not Post.objects.filter(kind="ooc").exists()
    assert "at most 20000 characters" in response.content.decode()
    data = {"kind": "ooc", "text": "x" * POST_TEXT_MAX}
    clients["alice"].post(f"/matches/{match.pk}/posts/", data, headers=HX)
    assert Post.objects.filter(kind="ooc").exists()


def test_the_thread_is_shared_by_its_readers_but_an_authors_edit_form_is_their_own(
    match: Match, cast: dict[str, User]
) -> None:
    """The thread's HTML is kept per version for every reader who may edit none of its posts;
    the author's copy carries an edit form whose CSRF token their own browser can post."""
    post = services.write_post(match.pk, cast["alice"], kind="ic", text="Frist!")
    url = f"/matches/{match.pk}/"
    readers = {name: Client(enforce_csrf_checks=True) for name in ("alice", "bob", "erin")}
    for name, reader in readers.items():
        reader.force_login(cast[name])
    pages = {name: reader.get(url).content.decode() for name, reader in readers.items()}
    edit_form = f'action="/matches/{match.pk}/posts/{post.number}/edit/"'
    assert edit_form in pages["alice"]
    assert edit_form not in pages["bob"] and edit_form not in pages["erin"]
    assert "Frist!" in pages["bob"] and "Frist!" in pages["erin"]
    # a second browser of alice's gets a copy whose token is good for that browser's secret
    other_browser = Client(enforce_csrf_checks=True)
    other_browser.force_login(cast["alice"])
    for browser in (readers["alice"], other_browser):
        page = browser.get(url).content.decode()
        form = page[page.index(edit_form) :]
        token = form.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
        response = browser.post(
            f"/matches/{match.pk}/posts/{post.number}/edit/",
            {"text": "First!", "csrfmiddlewaretoken": token},
            headers=HX,
        )
        assert response.status_code == 200
    post.refresh_from_db()
    assert post.text == "First!"
