"""A bot reading a match again sends the ETag it got: 304 and no body while the match is as it
was; the match itself once anything is written to it, or for another reader."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from matches.api.tests.test_api import match, token_client, toss_winner  # noqa: F401
from matches.models import Match

pytestmark = pytest.mark.django_db


def test_an_unchanged_match_is_a_304_with_no_body(match: Match) -> None:  # noqa: F811
    alice = token_client("alice")
    url = reverse("api:match", args=[match.pk])
    first = alice.get(url)
    assert first.status_code == 200 and first["ETag"]
    again = alice.get(url, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


def test_a_write_to_the_match_brings_the_match_again(match: Match) -> None:  # noqa: F811
    captain = token_client(toss_winner(match))
    url = reverse("api:match", args=[match.pk])
    etag = captain.get(url)["ETag"]
    body = {"kind": "kick_or_receive", "choice": "kick"}
    answered = captain.post(
        reverse("api:decide", args=[match.pk]), json.dumps(body), content_type="application/json"
    )
    assert answered.status_code == 201
    after = captain.get(url, headers={"if-none-match": etag})
    assert after.status_code == 200
    assert after.json()["version"] == Match.objects.get(pk=match.pk).version
    assert after["ETag"] != etag


def test_another_reader_does_not_share_a_coachs_etag(match: Match, client: Client) -> None:  # noqa: F811
    url = reverse("api:match", args=[match.pk])
    etag = token_client("bob").get(url)["ETag"]
    response = client.get(url, headers={"if-none-match": etag})
    assert response.status_code == 200
    assert response.json()["you"] == []
