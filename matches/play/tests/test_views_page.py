"""Reading the match page: who sees it, what each reader is offered, the seed once over, the
reader's language."""

import pytest
from django.test import Client

from matches.models import Match
from matches.tests.positions import mid_turn

pytestmark = pytest.mark.django_db


def _page(client: Client, match: Match) -> str:
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("role", ["anonymous", "erin", "alice", "bob", "carol", "gm"])
def test_everybody_reads_a_public_match(
    match: Match, clients: dict[str, Client], role: str
) -> None:
    page = _page(clients[role], match)
    assert 'id="pitch"' in page and "Reikland Reavers" in page and 'id="thread"' in page


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 302), ("erin", 404), ("alice", 200), ("bob", 200), ("carol", 200), ("gm", 200)],
)
def test_a_private_match_is_read_by_its_coaches_and_gm_only(
    match: Match, clients: dict[str, Client], role: str, status: int
) -> None:
    Match.objects.filter(pk=match.pk).update(is_public=False)
    assert clients[role].get(f"/matches/{match.pk}/").status_code == status


@pytest.mark.parametrize(
    ("role", "offered"),
    [
        ("anonymous", set()),
        ("erin", set()),
        ("alice", {"h1", "h2"}),
        ("bob", {"h7", "h10"}),
        ("carol", set()),
        ("gm", set()),
    ],
)
def test_each_coach_is_offered_only_its_sides_players_in_its_teams_turn(
    match: Match, clients: dict[str, Client], role: str, offered: set[str]
) -> None:
    mid_turn(match)
    page = _page(clients[role], match)
    can_act = {pid for pid in ("h1", "h2", "h7", "h10", "a5", "a10") if _can_act(page, pid)}
    assert can_act == offered
    assert ('data-mode="play"' in page) == bool(offered)


def _can_act(page: str, pid: str) -> bool:
    start = page.index(f'data-testid="token-{pid}"')
    tag_start = page.rindex("<g ", 0, start)
    return "can-act" in page[tag_start:start]


def test_the_page_shows_the_markers_the_dugouts_and_who_is_awaited(
    match: Match, clients: dict[str, Client]
) -> None:
    mid_turn(match)
    page = _page(clients["erin"], match)
    assert 'data-testid="score-home">0<' in page
    assert 'data-testid="rerolls-away">3<' in page
    assert "Waiting for Reikland Reavers (captain) (alice) to play its turn" in page
    assert "Waiting for Reikland Reavers (rival) (bob) to play its turn" in page
    assert "#4 Anna Vogel" in page  # in the reserves
    assert 'data-testid="token-h7"' in page and "side-rival" in page


def test_the_seed_is_shown_only_once_the_match_is_finished(
    match: Match, clients: dict[str, Client]
) -> None:
    assert match.dice_seed not in _page(clients["erin"], match)
    assert match.dice_commitment in _page(clients["erin"], match)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    assert f'data-testid="seed">{match.dice_seed}<' in _page(clients["erin"], match)


def test_the_page_reads_in_spanish_for_a_spanish_reader(
    match: Match, clients: dict[str, Client]
) -> None:
    mid_turn(match)
    page = clients["alice"].get(f"/matches/{match.pk}/", headers={"accept-language": "es"})
    html = page.content.decode()
    assert '<html lang="es">' in html
    assert "Mostrar zonas de placaje" in html
    assert "Clima: Día perfecto" in html and "Segundas oportunidades" in html
    assert "Se espera a Reikland Reavers (capitán) (alice) para jugar su turno" in html
    assert ">Partidos</a>" in html  # the navigation
    assert 'data-testid="action-move"' not in html  # nothing chosen yet
    assert "Pulsa uno de tus jugadores" in html
