"""Smaller parts of the match page: a pass thrown to a square, the first text of an edited
post, the links to the pre- and post-match pages, and the GM closing the match."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.models import Match, Post
from matches.tests.positions import mid_turn

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def with_ball(match: Match, pid: str = "h1") -> None:
    mid_turn(match)
    match.refresh_from_db()
    state: dict[str, Any] = match.state
    state["ball"] = {"at": state["players"][pid]["at"], "carrier": pid}
    match.save()


def test_a_pass_to_an_empty_square_is_previewed_and_posted(
    match: Match, clients: dict[str, Client]
) -> None:
    with_ball(match)
    data = {"player": "h1", "action": "pass", "target": "J5"}
    html = clients["alice"].post(f"/matches/{match.pk}/preview/", data).content.decode()
    assert "Target: J5" in html and 'data-mark="J5"' in html
    assert 'data-testid="post-declaration"' in html and 'data-testid="problem"' not in html
    assert "out of a step's reach" in html  # how to throw to a square by clicking
    response = clients["alice"].post(f"/matches/{match.pk}/declare/", {**data, "key": "p1"})
    assert response.status_code == 302
    post = Post.objects.get(match=match, kind="declaration")
    assert post.declaration is not None and post.declaration["target"] == "J5"


@pytest.mark.parametrize("role", ["anonymous", "erin", "alice", "carol"])
def test_everybody_who_reads_the_thread_sees_the_first_text_of_an_edited_post(
    match: Match, cast: dict[str, User], clients: dict[str, Client], role: str
) -> None:
    post = services.write_post(match.pk, cast["bob"], kind="ooc", text="We *win* today")
    services.edit_post(post.pk, cast["bob"], text="We might win today")
    page = clients[role].get(f"/matches/{match.pk}/").content.decode()
    article = page[page.index(f'id="post-{post.number}"') :]
    article = article[: article.index("</article>")]
    assert "edited" in article and "We might win today" in article
    assert f'data-testid="original-{post.number}"' in article
    assert "<summary>Original text</summary>" in article and "We <em>win</em> today" in article


def test_a_post_never_edited_has_no_original_text(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    services.write_post(match.pk, cast["bob"], kind="ooc", text="Hello")
    assert "Original text" not in clients["erin"].get(f"/matches/{match.pk}/").content.decode()


@pytest.mark.parametrize(
    ("status", "link"),
    [
        ("pre_match", 'data-testid="prematch-link"'),
        ("post_match", 'data-testid="postmatch-link"'),
    ],
)
@pytest.mark.parametrize("role", ["anonymous", "erin", "alice", "gm"])
def test_the_page_links_to_the_sequence_page_of_the_matchs_phase(
    match: Match, clients: dict[str, Client], status: str, link: str, role: str
) -> None:
    Match.objects.filter(pk=match.pk).update(status=status)
    page = clients[role].get(f"/matches/{match.pk}/").content.decode()
    assert link in page
    step = "prematch" if status == "pre_match" else "postmatch"
    assert f'href="/matches/{match.pk}/{step}/"' in page


def test_no_sequence_link_while_playing(match: Match, clients: dict[str, Client]) -> None:
    page = clients["gm"].get(f"/matches/{match.pk}/").content.decode()
    assert "prematch-link" not in page and "postmatch-link" not in page
    assert "close-match" not in page


def test_a_finished_match_links_both_halves_of_its_sequence_and_no_close_button(
    match: Match, clients: dict[str, Client]
) -> None:
    Match.objects.filter(pk=match.pk).update(status="finished")
    page = clients["gm"].get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/prematch/" data-testid="prematch-link"' in page
    assert f'href="/matches/{match.pk}/postmatch/" data-testid="postmatch-link"' in page
    assert "close-match" not in page


@pytest.mark.parametrize(
    ("role", "button"),
    [("anonymous", False), ("erin", False), ("alice", False), ("carol", False), ("gm", True)],
)
def test_only_the_gm_is_offered_to_close_the_match_after_the_final_whistle(
    match: Match, clients: dict[str, Client], role: str, button: bool
) -> None:
    Match.objects.filter(pk=match.pk).update(status="post_match")
    page = clients[role].get(f"/matches/{match.pk}/").content.decode()
    assert ('data-testid="close-match"' in page) is button


@pytest.mark.parametrize(
    ("role", "status", "closed"),
    [
        ("anonymous", 302, False),
        ("erin", 403, False),
        ("alice", 200, False),  # refused by the service: not the GM
        ("carol", 200, False),
        ("gm", 200, True),
    ],
)
def test_only_the_gm_closes_the_match_and_the_seed_is_then_shown(
    match: Match, clients: dict[str, Client], role: str, status: int, closed: bool
) -> None:
    Match.objects.filter(pk=match.pk).update(status="post_match")
    response = clients[role].post(f"/matches/{match.pk}/close/", headers=HX)
    assert response.status_code == status
    match.refresh_from_db()
    assert (match.status == "finished") is closed
    if closed:
        assert 'data-testid="close-match"' not in response.content.decode()
        page = clients["erin"].get(f"/matches/{match.pk}/").content.decode()
        assert 'data-testid="seed"' in page and match.dice_seed in page
    elif status == 200:
        assert 'data-testid="error"' in response.content.decode()


def test_the_gm_cannot_close_a_match_still_in_play(
    match: Match, clients: dict[str, Client]
) -> None:
    response = clients["gm"].post(f"/matches/{match.pk}/close/", headers=HX)
    assert 'data-testid="error"' in response.content.decode()
    match.refresh_from_db()
    assert match.status == "in_play"


def test_a_poll_keeps_the_typed_declaration_box_and_a_declaration_clears_it(
    match: Match, clients: dict[str, Client]
) -> None:
    # The box is preserved by htmx through swaps (hx-preserve); pitch.js empties it after a post.
    mid_turn(match)
    live = clients["alice"].get(f"/matches/{match.pk}/live/", headers=HX).content.decode()
    assert 'id="typed" hx-preserve="true"' in live


def test_the_new_words_of_the_page_speak_spanish(
    match: Match, cast: dict[str, User], clients: dict[str, Client]
) -> None:
    for _ in range(45):
        services.write_post(match.pk, cast["bob"], kind="ooc", text="¡Vamos!")
    Match.objects.filter(pk=match.pk).update(status="post_match")
    page = clients["gm"].get(f"/matches/{match.pk}/", headers={"accept-language": "es"})
    html = page.content.decode()
    assert "Mensajes anteriores" in html and "Cerrar el partido" in html
    assert "Después del partido" in html
