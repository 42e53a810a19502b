"""The HTTP benchmark's floor (tools/bench_urls.py) is mounted only by its own settings."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import Resolver404, resolve

from bbweb.models import ApiToken, OutboxMessage


def test_the_production_urlconf_has_no_floor() -> None:
    with pytest.raises(Resolver404):
        resolve("/bench/floor/1")


def test_the_bench_urlconf_mounts_the_floor_and_every_production_route() -> None:
    assert resolve("/bench/floor/1", urlconf="tools.bench_urls").url_name is None
    assert resolve("/api/matches/1/declare", urlconf="tools.bench_urls").url_name == "declare"


@pytest.mark.django_db
def test_the_floor_writes_one_row_behind_the_token_check(client: Client, settings: Any) -> None:
    settings.ROOT_URLCONF = "tools.bench_urls"
    token = ApiToken.issue(User.objects.create_user("alice"))
    refused = client.post("/bench/floor/1", headers={"authorization": "Bearer nope"})
    assert refused.status_code == 401
    answer = client.post("/bench/floor/1", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 201
    row = OutboxMessage.objects.get()
    assert row.done_at is not None  # the relay never sends it


@pytest.mark.django_db
def test_the_page_floor_shows_the_version_in_the_sites_page_to_a_logged_in_reader(
    client: Client, settings: Any
) -> None:
    settings.ROOT_URLCONF = "tools.bench_urls"
    assert client.get("/bench/page/1").status_code == 401
    client.force_login(User.objects.create_user("alice"))
    page = client.get("/bench/page/1")  # no such match: the version is None
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="profile">alice' in html and "<p>None</p>" in html
    assert "</footer>" in html
