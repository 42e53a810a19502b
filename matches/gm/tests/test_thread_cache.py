"""The posts' cached fragments after a GM's ruling: a ruling that changes the game (a rewind)
has every post of the page rendered again; one that does not (a dismissal) leaves the cache
alone. Each language keeps its own fragments."""

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services
from matches.gm.tests.conftest import first_roll, play
from matches.models import Match
from matches.thread import page as thread

pytestmark = pytest.mark.django_db


@pytest.fixture
def fragments_rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The languages of the post fragments rendered, one entry per fragment."""
    rendered: list[str] = []
    render = thread.render_to_string  # type: ignore[attr-defined]

    def counting(template: str, context: dict[str, Any]) -> str:
        html = render(template, context)
        rendered.append(html)
        return html

    monkeypatch.setattr(thread, "render_to_string", counting)
    return rendered


def page(client: Client, match: Match) -> str:
    response = client.get(reverse("matches:detail", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_rewind_renders_the_posts_again_and_a_dismissal_does_not(
    match: Match,
    coaches: dict[str, User],
    alice: User,
    gm: User,
    fragments_rendered: list[str],
) -> None:
    play(match, coaches, random.Random(3), 15)
    reader = Client()
    page(reader, match)
    page(reader, match)
    shown = match.posts.count()
    fragments_rendered.clear()
    roll = first_roll(match)
    dismissed = services.raise_dispute(match.pk, alice, reason="Hm.", event_number=roll)
    services.rule_on_dispute(match.pk, gm, dismissed.pk, "dismiss", note="It stands.")
    page(reader, match)
    assert len(fragments_rendered) == 2  # only the dispute's post and the ruling's are new

    fragments_rendered.clear()
    disputed = services.raise_dispute(
        match.pk, alice, reason="A tackle zone was missed.", event_number=first_roll(match)
    )
    services.rule_on_dispute(match.pk, gm, disputed.pk, "rewind", note="Back we go.")
    shown_now = page(reader, match)
    assert len(fragments_rendered) == min(shown + 4, thread.PAGE_SIZE)
    assert "Back we go." in shown_now


def test_each_language_renders_and_keeps_its_own_fragments(
    match: Match, fragments_rendered: list[str]
) -> None:
    english, spanish = (
        Client(headers={"accept-language": "en"}),
        Client(headers={"accept-language": "es"}),
    )
    page(english, match)
    in_english = len(fragments_rendered)
    assert in_english == match.posts.count()
    assert "el servidor" in page(spanish, match)
    assert len(fragments_rendered) == 2 * in_english
    assert "el servidor" not in page(english, match)
    assert len(fragments_rendered) == 2 * in_english  # both languages now come from the cache
