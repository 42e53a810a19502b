"""The JSON API: alice captains the home team, bob is its rival coach, carol and dave coach the
away team, gm referees; eve coaches nobody."""

import itertools
import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from bbweb.models import ApiToken
from matches import services
from matches.models import Match, Post
from matches.record.markup import POST_TEXT_MAX
from matches.tests.positions import mid_turn
from rules.engine import Declaration, legal
from rules.engine.actions import ACTIONS
from tools import autoplay

pytestmark = pytest.mark.django_db


@pytest.fixture
def match() -> Match:
    """Just created: the toss winner's captain must choose to kick or receive."""
    return autoplay.demo_match()


def user(name: str) -> User:
    return User.objects.get_or_create(username=name)[0]


def token_client(name: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user(name))}")


def post(client: Client, view: str, match: Match, body: object) -> Any:
    url = reverse(f"api:{view}", args=[match.pk])
    return client.post(url, json.dumps(body), content_type="application/json")


def toss_winner(match: Match) -> str:
    """The username of the captain the first decision is addressed to."""
    to = match.state["pending"]["to"]
    return {"home:captain": "alice", "away:captain": "carol"}[to]


def unchanged(match: Match) -> bool:
    before = (match.version, match.events.count(), match.posts.count())
    match.refresh_from_db()
    return (match.version, match.events.count(), match.posts.count()) == before


# -- reading -----------------------------------------------------------------------------------


def test_anybody_reads_a_public_match_its_state_pending_and_version(
    match: Match, client: Client
) -> None:
    response = client.get(reverse("api:match", args=[match.pk]))
    assert response.status_code == 200
    data = response.json()
    assert data["version"] == match.version
    assert data["status"] == "in_play"
    assert data["you"] == []
    assert data["pending"]["kind"] == "kick_or_receive"
    assert data["pending"]["options"] == ["kick", "receive"]
    assert data["pending"]["deadline_at"]
    assert [e["type"] for e in data["pending"]["events"][:2]] == ["weather", "fans"]
    assert data["state"]["players"]["h1"]["state"] == "reserves"
    assert data["state"]["teams"]["home"]["rerolls"] == 2
    assert data["dice"] == {"commitment": match.dice_commitment, "seed": None}


def test_a_coach_sees_which_sides_it_coaches(match: Match) -> None:
    data = token_client("bob").get(reverse("api:match", args=[match.pk])).json()
    assert data["you"] == ["home:rival"]


def test_a_private_match_is_read_only_by_its_coaches_and_gm(match: Match, client: Client) -> None:
    Match.objects.filter(pk=match.pk).update(is_public=False)
    url = reverse("api:match", args=[match.pk])
    response = client.get(url)
    assert response.status_code == 404
    assert response.json()["error"] == "no_match"
    assert token_client("eve").get(url).status_code == 404
    assert token_client("eve").get(reverse("api:events", args=[match.pk])).status_code == 404
    for name in ("alice", "dave", "gm"):
        assert token_client(name).get(url).status_code == 200


def test_a_missing_match_is_a_404(client: Client) -> None:
    response = client.get(reverse("api:match", args=[999999]))
    assert response.status_code == 404
    assert response.json() == {"error": "no_match", "message": "There is no such match."}


def test_the_events_after_a_number_with_their_hash_chain(match: Match, client: Client) -> None:
    services.answer(match.pk, user(toss_winner(match)), "kick")
    url = reverse("api:events", args=[match.pk])
    events = client.get(url).json()["events"]
    assert [e["number"] for e in events] == list(range(1, match.events.count() + 1))
    assert events[0]["type"] == "match_created"
    assert all(b["prev_hash"] == a["hash"] for a, b in itertools.pairwise(events))
    weather = next(e for e in events if e["type"] == "weather")
    assert len(weather["data"]["faces"]) == 2
    later = client.get(url, {"after": 3}).json()
    assert [e["number"] for e in later["events"]] == [e["number"] for e in events[3:]]
    assert later["more"] is False
    assert client.get(url, {"after": len(events)}).json()["events"] == []
    assert client.get(url, {"after": "x"}).json()["error"] == "malformed"


# -- writing with a token ----------------------------------------------------------------------


def test_the_toss_winner_decides_with_a_token_and_a_retry_is_applied_once(match: Match) -> None:
    winner = token_client(toss_winner(match))
    body = {"kind": "kick_or_receive", "choice": "receive", "idempotency_key": "toss-1"}
    first = post(winner, "decide", match, body)
    assert first.status_code == 201, first.json()
    assert first.json()["replayed"] is False
    assert first.json()["match"]["pending"] is None
    assert first.json()["match"]["state"]["phase"] == "setup"
    events = match.events.count()
    again = post(winner, "decide", match, body)
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert again.json()["post"] == first.json()["post"]
    assert match.events.count() == events
    assert Post.objects.filter(match=match, idempotency_key="toss-1").count() == 1


def test_a_decision_of_another_kind_is_a_conflict_and_changes_nothing(match: Match) -> None:
    response = post(
        token_client(toss_winner(match)), "decide", match, {"kind": "reroll", "choice": "team"}
    )
    assert response.status_code == 409
    assert response.json()["error"] == "wrong_decision"
    assert unchanged(match)


def test_only_the_captain_it_is_addressed_to_decides(match: Match) -> None:
    loser = "carol" if toss_winner(match) == "alice" else "alice"
    rival = "bob" if toss_winner(match) == "alice" else "dave"
    for name, code in ((loser, "not_captain"), (rival, "not_captain"), ("eve", "not_captain")):
        response = post(
            token_client(name), "decide", match, {"kind": "kick_or_receive", "choice": "kick"}
        )
        assert (response.status_code, response.json()["error"]) == (403, code)
    assert unchanged(match)


def test_a_declaration_while_a_decision_is_pending_is_a_conflict(match: Match) -> None:
    response = post(token_client("alice"), "declare", match, {"player": None, "action": "end_turn"})
    assert response.status_code == 409
    assert response.json()["error"] == "decision_pending"
    assert unchanged(match)


def test_a_declaration_sets_up_a_side_and_a_stale_version_is_refused(match: Match) -> None:
    post(
        token_client(toss_winner(match)),
        "decide",
        match,
        {"kind": "kick_or_receive", "choice": "receive"},
    )
    match.refresh_from_db()
    kicking = match.state["kicking"]
    captain = token_client("alice" if kicking == "home" else "carol")
    prefix = kicking[0]
    placements = {f"{prefix}1": "M7" if kicking == "home" else "N7"}
    stale = post(
        captain,
        "declare",
        match,
        {"action": "setup", "placements": placements, "version": match.version - 1},
    )
    assert stale.status_code == 409
    assert stale.json()["error"] == "version_conflict"
    assert unchanged(match)
    done = post(
        captain,
        "declare",
        match,
        {"action": "setup", "placements": placements, "side": "captain", "version": match.version},
    )
    assert done.status_code == 201, done.json()
    assert done.json()["match"]["version"] == match.version + 1
    assert done.json()["match"]["state"]["players"][f"{prefix}1"]["at"] == placements[f"{prefix}1"]


def test_a_private_match_refuses_an_outsiders_writes_as_if_it_did_not_exist(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(is_public=False)
    eve = token_client("eve")
    decision = {"kind": "kick_or_receive", "choice": "kick", "idempotency_key": "k"}
    for view, body in (
        ("decide", decision),
        ("decide", {**decision, "version": 0}),
        ("declare", {"player": None, "action": "end_turn"}),
        ("declare", {"action": "dance"}),
    ):
        response = post(eve, view, match, body)
        assert response.status_code == 404, (view, body)
        assert response.json() == {"error": "no_match", "message": "There is no such match."}
    assert unchanged(match)
    response = post(token_client(toss_winner(match)), "decide", match, decision)
    assert response.status_code == 201


def test_the_answer_to_a_write_is_the_match_as_it_is_then_read(match: Match) -> None:
    winner = token_client(toss_winner(match))
    body = {"kind": "kick_or_receive", "choice": "receive", "idempotency_key": "toss"}
    written = post(winner, "decide", match, body).json()["match"]
    assert written == winner.get(reverse("api:match", args=[match.pk])).json()
    assert post(winner, "decide", match, body).json()["match"] == written
    rng = random.Random(4)
    match.refresh_from_db()
    while not match.state.get("pending"):  # until a declaration opens a decision
        coach, declaration, side = autoplay.next_declaration(match, rng)
        client = token_client(coach.username)
        response = post(client, "declare", match, {**declaration, "side": side})
        assert response.status_code == 201, response.json()
        written = response.json()["match"]
        assert written == client.get(reverse("api:match", args=[match.pk])).json()
        match.refresh_from_db()
    assert written["pending"]["deadline_at"]


def test_malformed_requests_are_400s_and_change_nothing(match: Match) -> None:
    alice = token_client("alice")
    url = reverse("api:declare", args=[match.pk])
    response = alice.post(url, "not json", content_type="application/json")
    assert (response.status_code, response.json()["error"]) == (400, "malformed")
    assert post(alice, "declare", match, {"action": "dance"}).json()["error"] == "malformed"
    assert post(alice, "declare", match, ["end_turn"]).json()["error"] == "malformed"
    assert post(alice, "decide", match, {"kind": "kick_or_receive"}).status_code == 400
    long_key = {"kind": "kick_or_receive", "choice": "kick", "idempotency_key": "k" * 65}
    assert post(alice, "decide", match, long_key).json()["error"] == "malformed"
    assert post(alice, "decide", match, {**long_key, "version": "1"}).status_code == 400
    assert alice.get(url).status_code == 405
    assert unchanged(match)


def test_a_bad_token_is_refused_and_an_anonymous_post_too(match: Match, client: Client) -> None:
    for header in ("Bearer nope", "Basic YWxpY2U6eA==", "Bearer "):
        response = Client(HTTP_AUTHORIZATION=header).get(reverse("api:match", args=[match.pk]))
        assert (response.status_code, response.json()["error"]) == (401, "bad_token")
    response = post(client, "decide", match, {"kind": "kick_or_receive", "choice": "kick"})
    assert (response.status_code, response.json()["error"]) == (401, "not_authenticated")
    assert unchanged(match)


# -- writing with the session: CSRF applies --------------------------------------------------


def test_a_session_post_needs_the_csrf_token_a_token_post_does_not(match: Match) -> None:
    winner = user(toss_winner(match))
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(winner)
    body = {"kind": "kick_or_receive", "choice": "kick"}
    refused = post(browser, "decide", match, body)
    assert (refused.status_code, refused.json()["error"]) == (403, "csrf_failed")
    assert unchanged(match)
    browser.get(reverse("profile"))  # any page sets the CSRF cookie
    csrf = browser.cookies["csrftoken"].value
    url = reverse("api:decide", args=[match.pk])
    accepted = browser.post(
        url, json.dumps(body), content_type="application/json", headers={"X-CSRFToken": csrf}
    )
    assert accepted.status_code == 201


def test_a_token_request_needs_no_csrf_token(match: Match) -> None:
    bot = Client(
        enforce_csrf_checks=True,
        HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user(toss_winner(match)))}",
    )
    response = post(bot, "decide", match, {"kind": "kick_or_receive", "choice": "kick"})
    assert response.status_code == 201


@pytest.mark.parametrize("depth", [5_000, 100_000])
@pytest.mark.parametrize("view", ["declare", "decide"])
def test_json_nested_thousands_deep_is_a_malformed_body_not_a_server_error(
    match: Match, view: str, depth: int
) -> None:
    deep = '{"a":' * depth + "1" + "}" * depth
    url = reverse(f"api:{view}", args=[match.pk])
    response = token_client("alice").post(url, deep, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == "malformed"


def test_the_api_refuses_a_post_text_over_the_cap(match: Match) -> None:
    body = {"type": "pass", "player": "h1", "text": "x" * (POST_TEXT_MAX + 1)}
    response = post(token_client("alice"), "declare", match, body)
    assert response.status_code == 400 and response.json()["error"] == "too_long"
    assert unchanged(match)


@pytest.mark.parametrize(
    "url", ["/api/matches/-1", "/api/matches/abc", "/api/matches/1/nope", "/api/nothing"]
)
def test_an_unknown_api_address_is_a_json_404(match: Match, client: Client, url: str) -> None:
    for response in (client.get(url), client.post(url, "{}", content_type="application/json")):
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"] == "no_route"


@pytest.mark.parametrize(
    ("view", "allowed"), [("match", "GET"), ("events", "GET"), ("declare", "POST")]
)
def test_a_wrong_method_is_a_json_405_that_names_the_allowed_one(
    match: Match, client: Client, view: str, allowed: str
) -> None:
    url = reverse(f"api:{view}", args=[match.pk])
    response = client.delete(url)
    assert response.status_code == 405 and response["Allow"] == allowed
    assert response.json()["error"] == "method_not_allowed"
    schema = client.put(reverse("api:openapi"))
    assert schema.status_code == 405 and schema["Allow"] == "GET"
    assert schema.json()["error"] == "method_not_allowed"


@pytest.mark.parametrize("after", ["-1", "x", "1.5"])
def test_events_after_must_be_zero_or_more(match: Match, client: Client, after: str) -> None:
    response = client.get(reverse("api:events", args=[match.pk]), {"after": after})
    assert response.status_code == 400 and response.json()["error"] == "malformed"


def test_the_schema_lists_the_actions_the_engine_accepts(client: Client) -> None:
    declare = client.get(reverse("api:openapi")).json()["components"]["schemas"]["Declare"]
    assert set(declare["properties"]["action"]["enum"]) == set(ACTIONS)
    assert declare["properties"]["text"]["maxLength"] == POST_TEXT_MAX


# -- options -----------------------------------------------------------------------------------


def options(name: str, match: Match, **query: str) -> Any:
    return token_client(name).get(reverse("api:options", args=[match.pk]), query)


def test_a_coach_lists_his_sides_players_and_their_actions(match: Match) -> None:
    mid_turn(match)  # h7 (bob's blitzer) on K8 in the tackle zone of a10 on L8
    response = options("bob", match)
    assert response.status_code == 200
    data = response.json()
    assert data["actor"] == "home:rival"
    assert "h7" in data["players"] and "h1" not in data["players"]  # h1 is alice's
    assert data["players"]["h7"][:2] == ["move", "block"]
    assert "end_turn" in data["team"]


def test_a_players_squares_come_with_their_safest_path_and_its_chance(match: Match) -> None:
    state = mid_turn(match)
    data = options("bob", match, player="h7").json()["player"]
    squares = {s["square"]: s for s in data["squares"]}
    assert squares["K8"] == {"square": "K8", "chance": 1.0, "path": []}
    # leaving a10's zone: a dodge; J8 has no opposing zone (AG 3: 3+ at +1)
    assert squares["J8"]["path"] == ["J8"] and squares["J8"]["chance"] == round(4 / 6, 4)
    assert [t["player"] for t in data["block"]] == ["a10"]
    assert data["block"][0]["dice"] >= 1
    far = data["squares"][-1]
    declaration = Declaration("h7", "move", tuple(far["path"]))
    assert legal(state, "home:rival", declaration) is None
    response = post(
        token_client("bob"),
        "declare",
        match,
        {"player": "h7", "action": "move", "path": far["path"]},
    )
    assert response.status_code == 201


def test_options_are_refused_to_whoever_does_not_play_now(match: Match) -> None:
    mid_turn(match)
    assert options("carol", match).json()["error"] == "not_your_turn"
    assert options("carol", match).status_code == 409
    assert options("eve", match).status_code == 403
    assert options("bob", match, player="h1").json()["error"] == "not_your_player"
