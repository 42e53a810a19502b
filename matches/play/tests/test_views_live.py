"""Polling: 204 while nothing changed, the live part of the page once something did."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", ["anonymous", "erin", "alice", "bob", "carol", "gm"])
def test_polling_answers_204_while_the_version_is_unchanged(
    match: Match, clients: dict[str, Client], role: str
) -> None:
    response = clients[role].get(f"/matches/{match.pk}/live/?v={match.version}")
    assert response.status_code == 204
    assert response.content == b""


@pytest.mark.parametrize("role", ["anonymous", "erin", "alice", "bob", "carol", "gm"])
def test_polling_brings_the_news_once_something_happened(
    match: Match, clients: dict[str, Client], cast: dict[str, User], role: str
) -> None:
    old = match.version
    winner = "alice" if match.state["pending"]["to"] == "home:captain" else "carol"
    services.answer(match.pk, cast[winner], "receive")
    response = clients[role].get(f"/matches/{match.pk}/live/?v={old}")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live"')
    match.refresh_from_db()
    assert f"?v={match.version}" in html


def test_polling_a_private_match_is_refused_to_outsiders(
    match: Match, clients: dict[str, Client]
) -> None:
    Match.objects.filter(pk=match.pk).update(is_public=False)
    assert clients["anonymous"].get(f"/matches/{match.pk}/live/?v=0").status_code == 403
    assert clients["erin"].get(f"/matches/{match.pk}/live/?v=0").status_code == 404
    assert clients["bob"].get(f"/matches/{match.pk}/live/?v=0").status_code == 200


def test_polling_a_private_match_unchanged_answers_its_readers_only(
    match: Match, clients: dict[str, Client]
) -> None:
    Match.objects.filter(pk=match.pk).update(is_public=False)
    url = f"/matches/{match.pk}/live/?v={match.version}"
    for role in ("alice", "bob", "carol", "gm"):
        assert clients[role].get(url).status_code == 204, role
    assert clients["erin"].get(url).status_code == 404
    assert clients["anonymous"].get(url).status_code == 403


def test_the_news_leave_out_the_pitchs_squares_which_the_page_keeps(
    match: Match, clients: dict[str, Client], cast: dict[str, User]
) -> None:
    page = clients["erin"].get(f"/matches/{match.pk}/").content.decode()
    assert page.count('<rect class="cell ') == 26 * 15
    old = match.version
    winner = "alice" if match.state["pending"]["to"] == "home:captain" else "carol"
    services.answer(match.pk, cast[winner], "receive")
    news = clients["erin"].get(f"/matches/{match.pk}/live/?v={old}").content.decode()
    assert '<g id="pitch-grid" hx-preserve="true"></g>' in news  # htmx keeps the page's own
    assert 'class="cell ' not in news and len(news) < len(page) / 2
