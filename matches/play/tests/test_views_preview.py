"""The plan being built on the pitch: the engine's rolls and chances, for the coach only."""

import pytest
from django.test import Client

from matches.models import Match
from matches.tests.positions import mid_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 302), ("erin", 403), ("alice", 200), ("bob", 200), ("carol", 200), ("gm", 200)],
)
def test_only_the_matchs_people_ask_for_a_preview(
    match: Match, clients: dict[str, Client], role: str, status: int
) -> None:
    mid_turn(match)
    data = {"player": "h7", "action": "move", "path": "J8"}
    response = clients[role].post(f"/matches/{match.pk}/preview/", data)
    assert response.status_code == status
    if status == 200:
        shows = 'data-testid="rolls"' in response.content.decode()
        assert shows is (role == "bob")


def test_the_preview_shows_each_squares_roll_and_the_overall_chance(
    match: Match, clients: dict[str, Client]
) -> None:
    mid_turn(match)
    version = match.version
    data = {"player": "h7", "action": "move", "path": "J8,I8"}
    html = clients["bob"].post(f"/matches/{match.pk}/preview/", data).content.decode()
    assert "Dodge" in html and "4+ (+1)" in html
    assert 'data-testid="overall">67%<' in html
    assert 'id="overlay"' in html and 'hx-swap-oob="true"' in html
    assert 'data-mark="J8"' in html and 'data-mark="I8"' in html
    assert 'data-testid="action-move"' in html
    assert 'data-testid="action-blitz"' not in html  # the Blitz is the captain's side's
    match.refresh_from_db()
    assert match.version == version


def test_the_preview_of_a_block_names_the_dice_and_who_chooses(
    match: Match, clients: dict[str, Client]
) -> None:
    mid_turn(match)
    data = {"player": "h1", "action": "block", "target": "a5"}
    html = clients["alice"].post(f"/matches/{match.pk}/preview/", data).content.decode()
    assert "2 dice, attacker chooses" in html
    assert 'data-mark="G5"' in html


def test_the_preview_tells_why_a_plan_is_illegal(match: Match, clients: dict[str, Client]) -> None:
    mid_turn(match)
    data = {"player": "h7", "action": "move", "path": "A1"}
    html = clients["bob"].post(f"/matches/{match.pk}/preview/", data).content.decode()
    assert 'data-testid="problem"' in html
    assert "disabled" in html.split('data-testid="post-declaration"')[0].rsplit("<button", 1)[1]
