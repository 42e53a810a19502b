"""An id past the database's integer range is a 404 on every page and API path: every URL
pattern of the URLconf that takes an id, walked from the resolver (no list kept by hand), asked
with 2**63 and 10**20 by GET and POST, anonymously and logged in. The suite runs on SQLite by
default and on PostgreSQL when DATABASE_URL names one (CI), so both databases are walked.

And an unknown live token is a 404 whatever its characters."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

from bbweb.converters import ID_MAX, IdConverter
from matches.live import services as live_services
from matches.live.models import LiveMatch
from tools import autoplay

pytestmark = pytest.mark.django_db

PAST_THE_RANGE = [ID_MAX + 1, 10**20]
_ARGUMENT = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")


def _walk(
    patterns: list[Any], prefix: str = "", converters: dict[str, Any] | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    for pattern in patterns:
        found = {**(converters or {}), **getattr(pattern.pattern, "converters", {})}
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, route, found)
        elif isinstance(pattern, URLPattern):
            yield route, found


def routes_with_ids() -> list[str]:
    """Every route whose path takes a number, in the URLconf's order, each once."""
    routes = {
        route: None
        for route, converters in _walk(get_resolver().url_patterns)
        if any(isinstance(c, IntConverter | IdConverter) for c in converters.values())
    }
    return list(routes)


def url_for(route: str, number: int) -> str:
    def argument(found: re.Match[str]) -> str:
        return str(number) if found["converter"] in ("id", "int") else "x"

    return "/" + _ARGUMENT.sub(argument, route)


def test_every_route_that_takes_a_number_takes_it_as_an_id() -> None:
    """Django's ``int`` has no upper bound: a route that uses it hands the view a key the
    database cannot compare (use ``<id:...>``, bbweb/converters.py)."""
    walked = list(_walk(get_resolver().url_patterns))
    plain = [r for r, found in walked if any(type(c) is IntConverter for c in found.values())]
    assert not plain
    assert len(routes_with_ids()) >= 50


@pytest.fixture
def clients() -> dict[str, Client]:
    match = autoplay.demo_match()
    signed_in = Client()
    signed_in.force_login(match.home_team.captain)
    gm = Client()
    gm.force_login(User.objects.get(username="gm"))
    return {"anonymous": Client(), "captain": signed_in, "gm": gm}


@pytest.mark.parametrize("number", PAST_THE_RANGE)
def test_an_id_past_the_integer_range_is_a_404_on_every_route(
    clients: dict[str, Client], number: int
) -> None:
    answers = {
        (who, method, url): getattr(client, method)(url).status_code
        for url in (url_for(route, number) for route in routes_with_ids())
        for who, client in clients.items()
        for method in ("get", "post")
    }
    assert answers and not {key: status for key, status in answers.items() if status != 404}, (
        connection.vendor
    )


def test_the_largest_id_no_row_has_is_a_404_for_a_signed_in_coach(
    clients: dict[str, Client],
) -> None:
    """The key the database takes, where a page compiles its query once (bbweb/compiled.py):
    asked by the method the route takes (a GET, or a POST where a GET is a 405; the API's
    with a body it takes, whose match is then looked for)."""
    client = clients["captain"]
    body = '{"kind": "kick_or_receive", "choice": "kick", "player": "h1", "action": "end_turn"}'
    answers = {}
    for url in (url_for(route, ID_MAX) for route in routes_with_ids()):
        status = client.get(url).status_code
        if status == 405:
            status = client.post(url, body, "application/json").status_code
        answers[url] = status
    assert not {url: status for url, status in answers.items() if status != 404}


def test_an_api_id_past_the_range_is_a_json_404(clients: dict[str, Client]) -> None:
    response = clients["anonymous"].post(f"/api/matches/{10**20}/decide", "{}", "application/json")
    assert response.status_code == 404
    assert response.json()["error"] == "no_route"


# -- the live companion's phone links -------------------------------------------------------------


@pytest.fixture
def live() -> LiveMatch:
    match = autoplay.demo_match()
    league = match.home_team.league
    assert league is not None
    return live_services.start_live_match(match.gm, league, match.home_team, match.away_team)


@pytest.mark.parametrize(
    "token",
    ["é", "%C3%A9", "%F0%9F%98%80", "\U0001f600", "abc%E9", "%ED%A0%80", "tok%20en", "ñandú"],
)
def test_an_unknown_live_token_is_a_404_whatever_its_characters(
    live: LiveMatch, token: str
) -> None:
    url = f"/live/{live.pk}/phone/{token}/"
    assert Client().get(url).status_code == 404
    assert Client().post(url, {"throw": "rock", "key": "k"}).status_code == 404
    assert LiveMatch.objects.get(pk=live.pk).version == live.version


def test_a_known_live_token_opens_its_phone_page(live: LiveMatch) -> None:
    token = next(iter(live.state["players"].values()))["token"]
    assert Client().get(f"/live/{live.pk}/phone/{token}/").status_code == 200


def test_the_live_service_tells_no_player_for_a_token_past_ascii(live: LiveMatch) -> None:
    assert live_services.player_of(live.state, "é\U0001f600") is None
