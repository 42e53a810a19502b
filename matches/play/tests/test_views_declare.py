"""Declaring from the page: only a coach, only for its side's players, only in its team's
turn; an illegal declaration shows the engine's message and changes nothing."""

from typing import Any

import pytest
from django.test import Client

from matches import services
from matches.models import Match, MatchEvent, Post
from matches.tests.positions import mid_turn, script_dice

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
MOVE_H1 = {"player": "h1", "action": "move", "path": "E5"}


def _snapshot(match: Match) -> tuple[int, dict[str, Any], int, int]:
    match.refresh_from_db()
    return match.version, match.state, Post.objects.count(), MatchEvent.objects.count()


@pytest.mark.parametrize(
    ("role", "status", "moves"),
    [
        ("anonymous", 302, False),
        ("erin", 403, False),
        ("alice", 200, True),
        ("bob", 200, False),  # h1 is on the captain's side
        ("carol", 200, False),  # not her team's turn
        ("gm", 200, False),  # the GM coaches neither team
    ],
)
def test_only_the_coach_of_the_players_side_moves_it(
    match: Match,
    clients: dict[str, Client],
    monkeypatch: pytest.MonkeyPatch,
    role: str,
    status: int,
    moves: bool,
) -> None:
    mid_turn(match)
    script_dice(monkeypatch, [6] * 20)
    before = _snapshot(match)
    response = clients[role].post(f"/matches/{match.pk}/declare/", MOVE_H1, headers=HX)
    assert response.status_code == status
    match.refresh_from_db()
    assert (services.load_state(match).players["h1"].at is not None) is True
    moved = match.state["players"]["h1"]["at"] == "E5"
    assert moved is moves
    if not moves:
        assert _snapshot(match) == before
    if status == 200 and not moves:
        assert response.headers["HX-Retarget"] == "#flash"
        assert 'data-testid="error"' in response.content.decode()


def test_an_illegal_path_shows_the_engines_message_and_a_translated_reason(
    match: Match, clients: dict[str, Client]
) -> None:
    mid_turn(match)
    before = _snapshot(match)
    data = {"player": "h1", "action": "move", "path": "Z15"}
    response = clients["alice"].post(f"/matches/{match.pk}/declare/", data, headers=HX)
    html = response.content.decode()
    assert "That path is not possible." in html
    assert _snapshot(match) == before
    es = clients["alice"].post(
        f"/matches/{match.pk}/declare/", data, headers={**HX, "accept-language": "es"}
    )
    assert "Ese camino no es posible." in es.content.decode()


def test_a_declaration_typed_in_the_notation_is_posted_with_its_text(
    match: Match, clients: dict[str, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    mid_turn(match)
    script_dice(monkeypatch, [6] * 20)
    data = {"notation": "#1 move E5-D5", "text": "Karl drops **back**."}
    response = clients["alice"].post(f"/matches/{match.pk}/declare/", data, headers=HX)
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.state["players"]["h1"]["at"] == "D5"
    post = Post.objects.get(kind=Post.Kind.DECLARATION)
    assert post.declaration == {"player": "h1", "action": "move", "path": ["E5", "D5"]}
    assert "<strong>back</strong>" in post.html
    assert "Karl drops" in response.content.decode()


def test_bad_notation_is_refused_with_the_parsers_message(
    match: Match, clients: dict[str, Client]
) -> None:
    mid_turn(match)
    before = _snapshot(match)
    data = {"notation": "#99 move E5"}
    response = clients["alice"].post(f"/matches/{match.pk}/declare/", data, headers=HX)
    assert "unknown player" in response.content.decode()
    assert _snapshot(match) == before


def test_the_end_of_a_sides_turn_is_a_button_for_each_side_that_still_plays(
    match: Match, clients: dict[str, Client]
) -> None:
    mid_turn(match)
    page = clients["bob"].get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="end_turn-rival"' in page and 'data-testid="claim_blitz-rival"' in page
    clients["bob"].post(
        f"/matches/{match.pk}/declare/", {"action": "end_turn", "side": "rival"}, headers=HX
    )
    match.refresh_from_db()
    assert match.state["teams"]["home"]["ended"] == ["rival"]
    assert 'data-mode="play"' not in clients["bob"].get(f"/matches/{match.pk}/").content.decode()


def test_a_double_click_posts_the_declaration_once(
    match: Match, clients: dict[str, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    mid_turn(match)
    script_dice(monkeypatch, [6] * 20)
    data = {**MOVE_H1, "key": "same-click"}
    for _ in range(2):
        clients["alice"].post(f"/matches/{match.pk}/declare/", data, headers=HX)
    assert Post.objects.filter(kind=Post.Kind.DECLARATION).count() == 1
