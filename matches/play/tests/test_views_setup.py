"""The kick-off on the page: set-ups placed square by square, checked on posting, the kick."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.models import Match

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def _to_setup(match: Match, cast: dict[str, User]) -> str:
    """Answer the toss (the winner receives) and return the kicking team."""
    winner = match.state["pending"]["to"].partition(":")[0]
    services.answer(match.pk, cast["alice" if winner == "home" else "carol"], "receive")
    return "away" if winner == "home" else "home"


def test_the_kicking_sides_set_up_first_and_a_bad_set_up_is_refused(
    match: Match, clients: dict[str, Client], cast: dict[str, User]
) -> None:
    kicking = _to_setup(match, cast)
    captain = "alice" if kicking == "home" else "carol"
    rival = "bob" if kicking == "home" else "dave"
    prefix, los, back = ("h", "M", "K") if kicking == "home" else ("a", "N", "P")
    page = clients[captain].get(f"/matches/{match.pk}/").content.decode()
    assert 'data-mode="setup"' in page and f'data-testid="reserve-{prefix}1"' in page
    preview = (
        clients[captain]
        .post(
            f"/matches/{match.pk}/preview/",
            {"placements": f"{prefix}1:{los}7", "picked": f"{prefix}2"},
        )
        .content.decode()
    )
    assert 'data-planned="' + prefix + '1"' in preview

    match.refresh_from_db()
    version = match.version
    wrong = {"action": "setup", "placements": f"{prefix}1:{'Z' if kicking == 'home' else 'A'}7"}
    response = clients[captain].post(f"/matches/{match.pk}/declare/", wrong, headers=HX)
    assert "That set-up breaks the rules." in response.content.decode()
    match.refresh_from_db()
    assert match.version == version

    state = services.load_state(match)
    mine = sorted(
        (p for p in state.players.values() if p.team == kicking and p.side == "captain"),
        key=lambda p: p.number or 0,
    )
    squares = [f"{los}6", f"{los}7", f"{los}8", f"{back}6", f"{back}7", f"{back}8"]
    placements = ",".join(f"{p.id}:{sq}" for p, sq in zip(mine, squares, strict=False))
    clients[captain].post(
        f"/matches/{match.pk}/declare/", {"action": "setup", "placements": placements}, headers=HX
    )
    match.refresh_from_db()
    assert services.load_state(match).teams[kicking].posted == {"captain"}
    assert 'data-mode="setup"' in clients[rival].get(f"/matches/{match.pk}/").content.decode()
