"""The forum export page: a turn of a real thread and the report as BBCode and Markdown, in
the reader's language, with a coach's BBCode kept inside its quote."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.models import Match
from matches.tests.positions import mid_turn, script_dice
from matches.thread.forum_export import ZERO_WIDTH_SPACE

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(match: Match, cast: dict[str, User], monkeypatch: pytest.MonkeyPatch) -> Match:
    mid_turn(match)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.IN_PLAY)
    script_dice(monkeypatch, [6] * 20)
    services.declare(
        match.pk,
        cast["bob"],
        {"player": "h7", "action": "move", "path": ["J8"]},
        text="Run! [/quote][url=https://evil.example]x[/url]",
    )
    return match


def test_the_latest_turn_is_offered_by_default_with_its_dice(
    played: Match, clients: dict[str, Client]
) -> None:
    page = clients["erin"].get(f"/matches/{played.pk}/forum/").content.decode()
    assert "turn 1 of Reikland Reavers" in page
    assert "[quote=&quot;bob&quot;]" in page
    assert "Dodge" in page and "[6]" in page
    assert f"[{ZERO_WIDTH_SPACE}/quote][{ZERO_WIDTH_SPACE}url=https://evil.example]" in page
    assert "&gt; **#" in page  # the Markdown quote, escaped in the page's HTML


def test_a_turn_is_chosen_by_its_key_and_a_wrong_key_is_not_found(
    played: Match, clients: dict[str, Client]
) -> None:
    url = f"/matches/{played.pk}/forum/"
    assert clients["erin"].get(url, {"turn": "1-1-home"}).status_code == 200
    assert clients["erin"].get(url, {"turn": "9-9-home"}).status_code == 404
    assert clients["erin"].get(url, {"turn": "nonsense"}).status_code == 404


def test_the_report_is_in_the_reader_s_language(played: Match, clients: dict[str, Client]) -> None:
    url = f"/matches/{played.pk}/forum/"
    english = clients["erin"].get(url, {"part": "report"}).content.decode()
    assert "Reikland Reavers 0 - 0 Orcland Raiders" in english and "Receipt: " in english
    spanish = (
        clients["erin"]
        .get(url, {"part": "report"}, headers={"accept-language": "es"})
        .content.decode()
    )
    assert "Recibo" in spanish or "recibo" in spanish
