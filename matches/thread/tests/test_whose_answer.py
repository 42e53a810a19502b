"""The thread says whose each player is and who answered a question: two teams of linemen
both have a "#1 Lineman 1", and a standing order answering at once is not the coach's say."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.deadlines.tests.conftest import player, put
from matches.models import Match
from matches.tests.positions import mid_turn, script_dice

pytestmark = pytest.mark.django_db


def test_the_thread_names_each_player_with_its_team(
    match: Match, cast: dict[str, User], clients: dict[str, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    mid_turn(match)
    script_dice(monkeypatch, [6, 6, 1, 1])
    services.declare(match.pk, cast["alice"], {"player": "h1", "action": "block", "target": "a5"})
    page = clients["erin"].get(f"/matches/{match.pk}/").content.decode()
    karl, target = match.lineup["h1"], match.lineup["a5"]
    # Each name links to the player's career page; the team follows it.
    assert f'<a href="/players/{karl["pk"]}/">#1 {karl["name"]}</a>' in page
    shown = re.sub(r'<a href="/players/\d+/">(.*?)</a>', r"\1", page)
    assert (
        f"#1 {karl['name']} (Reikland Reavers) Block · "
        f"#{target['number']} {target['name']} ({match.away_team.name})"
    ) in shown


def test_a_standing_orders_answer_says_nobody_was_asked(
    match: Match, cast: dict[str, User], clients: dict[str, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    put(match, [player("h1", "K8"), player("a1", "L8"), player("a7", "T3")])  # one die
    script_dice(monkeypatch, [2, 1, 1])  # Pushed: no reroll wanted, and nobody was asked
    services.declare(match.pk, cast["alice"], {"player": "h1", "action": "block", "target": "a1"})
    page = clients["erin"].get(f"/matches/{match.pk}/").content.decode()
    assert "Reroll? No (answered by the standing orders, without asking)" in page
