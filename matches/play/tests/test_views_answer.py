"""Pending decisions appear only to the coach who must answer (and, to read, the GM)."""

import pytest
from django.test import Client

from matches.models import Match

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("role", "buttons", "sees"),
    [
        ("anonymous", False, False),
        ("erin", False, False),
        ("alice", True, True),  # the toss winner's captain (home won it in this match)
        ("bob", False, False),
        ("carol", False, False),
        ("gm", False, True),
    ],
)
def test_the_kick_or_receive_question_goes_to_the_toss_winners_captain_only(
    match: Match, clients: dict[str, Client], role: str, buttons: bool, sees: bool
) -> None:
    match.state["pending"]["to"] = "home:captain"
    match.save()
    page = clients[role].get(f"/matches/{match.pk}/").content.decode()
    assert ('data-testid="choice-receive"' in page) is buttons
    assert ('data-testid="decision"' in page) is sees


@pytest.mark.parametrize(
    ("role", "status", "answered"),
    [
        ("anonymous", 302, False),
        ("erin", 403, False),
        ("alice", 200, True),
        ("bob", 200, False),
        ("carol", 200, False),
        ("gm", 200, False),
    ],
)
def test_only_the_addressee_answers(
    match: Match, clients: dict[str, Client], role: str, status: int, answered: bool
) -> None:
    match.state["pending"]["to"] = "home:captain"
    match.save()
    response = clients[role].post(
        f"/matches/{match.pk}/answer/", {"choice": '"receive"'}, headers=HX
    )
    assert response.status_code == status
    match.refresh_from_db()
    assert (
        match.state["pending"] is None or match.state["pending"]["kind"] != "kick_or_receive"
    ) is answered
    if status == 200 and not answered:
        assert "This decision is not yours to take." in response.content.decode()


def test_a_choice_that_is_not_an_option_changes_nothing(
    match: Match, clients: dict[str, Client]
) -> None:
    match.state["pending"]["to"] = "home:captain"
    match.save()
    version = match.version
    response = clients["alice"].post(
        f"/matches/{match.pk}/answer/", {"choice": '"dance"'}, headers=HX
    )
    assert "That is not one of the options." in response.content.decode()
    match.refresh_from_db()
    assert match.version == version
