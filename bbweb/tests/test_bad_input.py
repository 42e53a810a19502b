"""Text the database cannot store (a NUL character, a lone surrogate, bytes that are not UTF-8)
is refused with a 400 that says so, wherever it comes (a form, a query, a JSON body, a path, a
cookie, a token), before any view: nothing is stored. Each case sends the same request with
clean text too, which is stored, so the refusal is the text's and not the request's."""

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from bbweb.models import ApiToken
from matches.live import services as live_services
from matches.live.models import LiveMatch
from matches.models import Match
from matches.tests.positions import mid_turn
from teams.models import Player, Team
from teams.tests.conftest import starting_plan
from teams.tests.test_create_team import form_data
from tools import autoplay

pytestmark = pytest.mark.django_db

NUL = "\x00"
SURROGATE = "\ud800"
# What a form sends for U+D800 encoded as if it could be (invalid UTF-8: ED A0 80), and for
# bytes that are no UTF-8 at all.
PERCENT_SURROGATE = "%ED%A0%80"
PERCENT_LATIN1 = "%E9"


def rows() -> dict[str, int]:
    """Every table's row count."""
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def refused_as_text(response: Any) -> None:
    assert response.status_code == 400
    if response["Content-Type"].startswith("application/json"):
        body = response.json()
        assert body["error"] == "bad_text"
        assert "cannot be stored" in body["message"]
    else:
        assert response["Content-Type"].startswith("text/html")
        assert "cannot be stored" in response.content.decode()


def stores_nothing(send: Callable[[], Any]) -> None:
    before = rows()
    refused_as_text(send())
    assert rows() == before


@pytest.fixture
def match() -> Match:
    return autoplay.demo_match()


def coach(match: Match, name: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=name))
    return client


def bearer(name: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(User.objects.get(username=name))}")


def api_post(client: Client, view: str, match: Match, body: str) -> Any:
    url = reverse(f"api:{view}", args=[match.pk])
    return client.post(url, body, content_type="application/json")


def urlencoded(client: Client, url: str, body: str) -> Any:
    return client.post(url, body, content_type="application/x-www-form-urlencoded")


# -- the JSON API ---------------------------------------------------------------------------------


def _decision(key: str) -> str:
    """The toss winner's choice, as JSON text (the key's escapes written by hand)."""
    return '{"kind": "kick_or_receive", "choice": "kick", "idempotency_key": "' + key + '"}'


def _toss_winner(match: Match) -> str:
    return {"home:captain": "alice", "away:captain": "carol"}[match.state["pending"]["to"]]


@pytest.mark.parametrize("key", ["a\\u0000b", "\\ud800", "x\\udfffy"])
def test_a_decisions_idempotency_key_with_a_nul_or_lone_surrogate_is_refused(
    match: Match, key: str
) -> None:
    client = bearer(_toss_winner(match))
    stores_nothing(lambda: api_post(client, "decide", match, _decision(key)))
    assert api_post(client, "decide", match, _decision("clean")).status_code == 201


@pytest.mark.parametrize("escape", ["\\u0000", "\\ud800"])
@pytest.mark.parametrize("field", ["text", "idempotency_key", "side", "player"])
def test_a_declaration_with_a_nul_or_lone_surrogate_in_any_field_is_refused(
    match: Match, field: str, escape: str
) -> None:
    mid_turn(match)
    client = bearer("bob")
    body = {"player": "h7", "action": "move", "path": ["K9"], "text": "go", "side": "home:rival"}
    body["idempotency_key"] = "k1"
    bad = json.dumps(body).replace(f'"{body[field]}"', f'"{body[field]}{escape}"')
    assert escape in bad
    stores_nothing(lambda: api_post(client, "declare", match, bad))
    assert api_post(client, "declare", match, json.dumps(body)).status_code == 201


def test_a_declaration_with_a_nul_in_a_key_or_deep_in_a_list_is_refused(match: Match) -> None:
    mid_turn(match)
    client = bearer("bob")
    deep = '{"player": "h7", "action": "move", "path": [[["K9\\u0000"]]]}'
    stores_nothing(lambda: api_post(client, "declare", match, deep))
    key = '{"player": "h7", "action": "move", "path": ["K9"], "no\\u0000te": 1}'
    stores_nothing(lambda: api_post(client, "declare", match, key))


def test_the_api_refuses_a_json_body_whatever_its_content_type(match: Match) -> None:
    client = bearer(_toss_winner(match))
    url = reverse("api:decide", args=[match.pk])
    body = _decision("\\u0000")
    stores_nothing(lambda: client.post(url, body, content_type="text/plain"))


def test_an_api_token_with_a_nul_is_refused_as_text_not_checked(match: Match) -> None:
    client = Client(HTTP_AUTHORIZATION="Bearer bbw_\x00abc")
    stores_nothing(lambda: client.get(reverse("api:match", args=[match.pk])))


def test_a_nul_in_the_query_of_an_api_read_is_refused_in_json(match: Match) -> None:
    response = Client().get(reverse("api:events", args=[match.pk]), {"after": "1\x00"})
    refused_as_text(response)
    assert response["Content-Type"] == "application/json"


# -- the site's forms -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["hello" + NUL, NUL])
def test_a_post_with_a_nul_is_refused_and_not_stored(match: Match, text: str) -> None:
    client = coach(match, "alice")
    url = reverse("matches:write", args=[match.pk])
    stores_nothing(lambda: client.post(url, {"kind": "ooc", "text": text, "key": "p1"}))
    before = match.posts.count()
    client.post(url, {"kind": "ooc", "text": "hello", "key": "p1"})
    assert match.posts.count() == before + 1


@pytest.mark.parametrize("encoded", [PERCENT_SURROGATE, PERCENT_LATIN1, "%00"])
def test_a_post_form_urlencoded_with_a_surrogate_nul_or_not_utf8_is_refused(
    match: Match, encoded: str
) -> None:
    client = coach(match, "alice")
    url = reverse("matches:write", args=[match.pk])
    stores_nothing(lambda: urlencoded(client, url, f"kind=ooc&text=hi{encoded}&key=p2"))
    before = match.posts.count()
    urlencoded(client, url, "kind=ooc&text=hi%C3%A9&key=p2")  # é, proper UTF-8
    assert match.posts.filter(text="hié").count() == 1 and match.posts.count() == before + 1


def test_a_post_in_a_multipart_form_with_bytes_not_utf8_is_refused(match: Match) -> None:
    client = coach(match, "alice")
    url = reverse("matches:write", args=[match.pk])

    def multipart(text: bytes) -> Any:
        body = b"".join(
            b'--B\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (name, value)
            for name, value in ((b"kind", b"ooc"), (b"key", b"p3"), (b"text", text))
        )
        return client.post(url, body + b"--B--\r\n", content_type="multipart/form-data; boundary=B")

    stores_nothing(lambda: multipart(b"hi \xed\xa0\x80"))
    stores_nothing(lambda: multipart(b"hi \x00"))
    before = match.posts.count()
    assert multipart("hi \ufffd é".encode()).status_code == 302  # a real U+FFFD is text
    assert match.posts.count() == before + 1


def test_a_players_new_name_with_a_nul_or_surrogate_is_refused(match: Match) -> None:
    client = coach(match, "alice")
    player = Player.objects.filter(team=match.home_team, side="captain").first()
    assert player is not None
    url = reverse("teams:rename", args=[player.team_id, player.pk])
    stores_nothing(lambda: client.post(url, {"name": "Karl" + NUL}))
    stores_nothing(lambda: urlencoded(client, url, f"name=Karl{PERCENT_SURROGATE}"))
    player.refresh_from_db()
    assert player.name != "Karl"
    client.post(url, {"name": "Karl"})
    player.refresh_from_db()
    assert player.name == "Karl"


def test_a_new_teams_name_with_a_nul_is_refused(db: None) -> None:
    alice = User.objects.create_user("alice")
    client = Client()
    client.force_login(alice)
    data = form_data(starting_plan("human"), name="Nul" + NUL + "Team")
    stores_nothing(lambda: client.post(reverse("teams:create"), data))
    client.post(reverse("teams:create"), {**data, "name": "Clean Team"})
    assert Team.objects.filter(name="Clean Team", captain=alice).exists()


@pytest.mark.parametrize("field", ["username", "email", "password1"])
def test_a_sign_up_with_a_nul_in_any_field_is_refused(db: None, field: str) -> None:
    data = {
        "username": "newcoach",
        "email": "new@example.org",
        "password1": "a long enough secret 42",
        "password2": "a long enough secret 42",
    }
    stores_nothing(lambda: Client().post(reverse("signup"), {**data, field: data[field] + NUL}))
    assert Client().post(reverse("signup"), data).status_code == 302
    assert User.objects.filter(username="newcoach").exists()


@pytest.mark.parametrize("encoded", ["%00", PERCENT_SURROGATE])
def test_a_login_with_a_nul_or_surrogate_in_the_username_is_refused(db: None, encoded: str) -> None:
    User.objects.create_user("alice", password="a long enough secret 42")
    body = f"login=alice{encoded}&password=a+long+enough+secret+42"
    stores_nothing(lambda: urlencoded(Client(), reverse("login"), body))
    clean = "login=alice&password=a+long+enough+secret+42"
    assert urlencoded(Client(), reverse("login"), clean).status_code == 302


# -- paths, queries and cookies -------------------------------------------------------------------


def test_a_nul_or_bytes_not_utf8_in_a_query_string_are_refused(db: None) -> None:
    refused_as_text(Client().get("/?q=%00"))
    refused_as_text(Client().get("/?" + PERCENT_SURROGATE + "=1"))
    refused_as_text(Client().get("/matches/?q=" + PERCENT_LATIN1))
    assert Client().get("/?q=%C3%A9").status_code == 200


def test_a_nul_in_a_path_is_refused(match: Match) -> None:
    refused_as_text(Client().get("/accounts/verify/abc%00def/"))
    refused_as_text(Client().get("/api/matches/1%00"))


def test_a_session_cookie_with_a_nul_is_refused_before_the_session_is_read(db: None) -> None:
    cookie = 'sessionid="\\000abcdefghijklmnop"'  # a quoted cookie's octal escape: a NUL
    stores_nothing(lambda: Client().get("/", HTTP_COOKIE=cookie))


def test_a_live_phone_token_with_a_nul_is_refused(match: Match) -> None:
    league = match.home_team.league
    assert league is not None
    live = live_services.start_live_match(match.gm, league, match.home_team, match.away_team)
    stores_nothing(lambda: Client().post(f"/live/{live.pk}/phone/abc%00/", {"throw": "rock"}))
    assert LiveMatch.objects.get(pk=live.pk).version == live.version


# -- the refusal's page ---------------------------------------------------------------------------


def test_the_refusal_page_speaks_the_visitors_language(match: Match) -> None:
    client = coach(match, "alice")
    url = reverse("matches:write", args=[match.pk])
    response = client.post(url, {"kind": "ooc", "text": NUL}, headers={"accept-language": "es"})
    assert response.status_code == 400
    page = response.content.decode()
    assert '<html lang="es">' in page
    assert "no se puede guardar" in page


def test_a_lone_surrogate_is_refused_in_the_json_apis_language_too(match: Match) -> None:
    client = bearer(_toss_winner(match))
    response = client.post(
        reverse("api:decide", args=[match.pk]),
        _decision("\\ud800"),
        content_type="application/json",
        headers={"accept-language": "fr"},
    )
    assert response.status_code == 400
    assert response.json()["error"] == "bad_text"
    assert "ne peut pas être enregistré" in response.json()["message"]
