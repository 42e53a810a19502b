"""A team turn through the page's endpoints: a dodge, a team reroll the rival asks for and
the captain approves, a block with a choice of die, and a turnover."""

import pytest
from django.test import Client

from matches import services
from matches.models import Match
from matches.tests.positions import mid_turn, script_dice
from rules.engine import MatchState

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def load_state(match: Match) -> MatchState:
    match.refresh_from_db()
    return services.load_state(match)


def _declare(client: Client, match: Match, **data: str) -> str:
    response = client.post(f"/matches/{match.pk}/declare/", data, headers=HX)
    assert response.status_code == 200
    return response.content.decode()


def _answer(client: Client, match: Match, choice: str) -> str:
    response = client.post(f"/matches/{match.pk}/answer/", {"choice": choice}, headers=HX)
    assert response.status_code == 200
    return response.content.decode()


def test_a_turn_with_a_dodge_a_rerolls_approval_a_block_and_a_turnover(
    match: Match, clients: dict[str, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    mid_turn(match)
    script_dice(monkeypatch)
    alice, bob, carol = clients["alice"], clients["bob"], clients["carol"]

    page = _declare(bob, match, player="h7", action="move", path="J8")
    assert "Reroll?" in page and 'data-testid="choice-team"' in page
    assert 'data-testid="decision"' not in carol.get(f"/matches/{match.pk}/").content.decode()
    page = _answer(bob, match, '"team"')
    assert 'data-testid="choice-approve"' not in page  # it is the captain's to approve
    page = alice.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="choice-approve"' in page
    _answer(alice, match, '"approve"')
    state = load_state(match)
    assert state.players["h7"].at is not None and state.teams["home"].reroll_used

    page = _declare(alice, match, player="h1", action="block", target="a5")
    assert "Defender down" in page and "Pushed" in page
    page = _answer(alice, match, "6")
    assert 'data-choice-square="H5"' in page
    page = _answer(alice, match, '"H5"')
    _answer(alice, match, "false")
    assert load_state(match).players["a5"].state == "prone"

    page = _declare(bob, match, player="h10", action="move", path="N10")
    state = load_state(match)
    assert state.active == "away" and state.players["h10"].state == "prone"
    page = carol.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-mode="play"' in page
    assert "Turnover!" in page
