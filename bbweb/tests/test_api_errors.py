"""Every error under /api/ is the API's JSON, ``{"error": code, "message": text}`` with
``application/json``, whatever answers it: the API's views, the router, Django's own 400, 403 and
413, or a server error. The site's pages keep their HTML errors."""

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.test import Client, override_settings
from django.urls import reverse

from bbweb.models import ApiToken
from matches.api import views as api
from matches.models import Match
from tools import autoplay

pytestmark = pytest.mark.django_db


@pytest.fixture
def match() -> Match:
    return autoplay.demo_match()


def api_error(response: Any, status: int, code: str) -> dict[str, str]:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body: dict[str, str] = response.json()
    assert body["error"] == code
    assert body["message"]
    return body


def test_an_unknown_api_address_is_a_json_404(db: None) -> None:
    api_error(Client().get("/api/nothing/here"), 404, "no_route")


def test_an_unknown_match_is_the_apis_own_json_404(db: None) -> None:
    api_error(Client().get(reverse("api:match", args=[987654])), 404, "no_match")


def test_a_wrong_method_is_a_json_405_naming_the_method(match: Match) -> None:
    response = Client().get(reverse("api:declare", args=[match.pk]))
    api_error(response, 405, "method_not_allowed")
    assert response["Allow"] == "POST"


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_an_oversized_body_is_a_json_413_and_changes_nothing(match: Match) -> None:
    version, posts = match.version, match.posts.count()
    client = Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(match.home_team.captain)}")
    body = '{"text": "' + "x" * 2000 + '"}'
    response = client.post(
        reverse("api:declare", args=[match.pk]), body, content_type="application/json"
    )
    api_error(response, 413, "too_large")
    match.refresh_from_db()
    assert (match.version, match.posts.count()) == (version, posts)


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_an_oversized_form_on_a_page_is_an_html_413(match: Match) -> None:
    client = Client()
    client.force_login(match.home_team.captain)
    response = client.post(
        reverse("matches:write", args=[match.pk]), {"kind": "ooc", "text": "x" * 2000}
    )
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert "too large" in response.content.decode()


@override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=10)
def test_too_many_query_fields_are_a_json_400(match: Match) -> None:
    query = "&".join(f"f{i}=1" for i in range(20))
    response = Client().get(reverse("api:match", args=[match.pk]) + "?" + query)
    api_error(response, 400, "bad_request")


def test_a_host_not_allowed_is_a_json_400(match: Match) -> None:
    response = Client().get(reverse("api:match", args=[match.pk]), HTTP_HOST="evil.example")
    api_error(response, 400, "bad_request")


def test_a_database_error_is_a_json_500(match: Match, monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(*args: object) -> Match:
        raise DatabaseError("the database went away")

    monkeypatch.setattr(api, "readable_match", fails)
    response = Client(raise_request_exception=False).get(reverse("api:match", args=[match.pk]))
    body = api_error(response, 500, "server_error")
    assert "went away" not in body["message"]  # nothing of the server's insides


def test_a_permission_refused_by_django_is_a_json_403(
    match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuses(*args: object) -> Match:
        raise PermissionDenied

    monkeypatch.setattr(api, "readable_match", refuses)
    api_error(Client().get(reverse("api:match", args=[match.pk])), 403, "forbidden")


def test_too_many_bad_tokens_are_a_json_429_with_retry_after(db: None) -> None:
    client = Client(HTTP_AUTHORIZATION="Bearer bbw_wrong")
    url = reverse("api:match", args=[1])
    statuses = [client.get(url).status_code for _ in range(25)]
    assert statuses[0] == 401 and statuses[-1] == 429
    response = client.get(url)
    api_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0


def test_errors_of_the_sites_pages_stay_html(db: None) -> None:
    response = Client().get(f"/matches/{2**63}/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_json_download_past_the_id_range_is_a_json_404(db: None) -> None:
    """A match's export is in the API's description, though not under /api/."""
    api_error(Client().get(f"/matches/{10**20}/export.json"), 404, "no_route")
    api_error(Client().get(f"/teams/{2**63}/export.json"), 404, "no_route")
