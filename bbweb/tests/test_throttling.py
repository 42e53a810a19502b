"""Rate limits on logging in, signing up, password resets, API tokens and mentions, counted
in the cache: past the limit a clear message in the reader's language, 429 and Retry-After."""

import json
import os
import secrets
from collections.abc import Iterator

import pytest
import redis
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from bbweb import throttle
from bbweb.models import ApiToken

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol() -> User:
    return User.objects.create_user("carol", email="carol@example.org", password="right-phrase-1")


def _login(client: Client, password: str) -> int:
    data = {"login": "carol", "password": password}
    return int(client.post(reverse("login"), data).status_code)


def test_wrong_passwords_lock_the_account_from_that_address_for_a_new_browser(
    carol: User,
) -> None:
    client = Client()
    limit = throttle.LIMITS["login_pair"][0]
    assert [_login(client, f"wrong-{n}") for n in range(limit)] == [200] * limit
    response = client.post(reverse("login"), {"login": "carol", "password": "right-phrase-1"})
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= throttle.LIMITS["login_pair"][1] + 1
    assert "Too many attempts. Try again in 15 minutes." in response.content.decode()
    assert "_auth_user_id" not in client.session
    spanish = Client(headers={"accept-language": "es"})
    page = spanish.post(reverse("login"), {"login": "carol", "password": "right-phrase-1"})
    assert "Demasiados intentos. Vuelve a intentarlo dentro de 15 minutos." in page.content.decode()


def test_a_right_password_within_the_limit_logs_in(carol: User) -> None:
    client = Client()
    assert _login(client, "wrong") == 200
    assert _login(client, "right-phrase-1") == 302


def _signup(client: Client, n: int) -> int:
    data = {
        "username": f"coach{'abcdefgh'[n]}",
        "email": f"coach{n}@example.org",
        "password1": "a-long-and-unusual-passphrase",
        "password2": "a-long-and-unusual-passphrase",
    }
    return int(client.post(reverse("signup"), data).status_code)


def test_sign_ups_from_one_address_are_limited() -> None:
    limit = throttle.LIMITS["signup_ip"][0]
    for n in range(limit):
        assert _signup(Client(), n) == 302
    refused = Client().post(reverse("signup"), {})
    assert refused.status_code == 429 and "Retry-After" in refused
    assert User.objects.count() == limit


def test_password_reset_mails_to_one_address_are_limited(carol: User) -> None:
    limit = throttle.LIMITS["reset_email"][0]
    for _ in range(limit):
        response = Client().post(reverse("account_reset_password"), {"email": "carol@example.org"})
        assert response.status_code == 302
    response = Client().post(reverse("account_reset_password"), {"email": "CAROL@example.org"})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert len(mail.outbox) == limit


def test_wrong_api_tokens_from_one_address_are_limited(carol: User) -> None:
    token = ApiToken.issue(carol)
    limit = throttle.LIMITS["bad_token_ip"][0]
    for n in range(limit):
        bad = Client(headers={"authorization": f"Bearer bbw_wrong{n}"})
        assert bad.get("/api/matches/1").status_code == 401
    good = Client(headers={"authorization": f"Bearer {token}"})
    response = good.get("/api/matches/1")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert json.loads(response.content)["error"] == "throttled"


def test_one_token_s_requests_are_limited(carol: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(throttle.LIMITS, "token", (3, 60))
    client = Client(headers={"authorization": f"Bearer {ApiToken.issue(carol)}"})
    assert [client.get("/api/matches/1").status_code for _ in range(3)] == [404] * 3
    response = client.get("/api/matches/1")
    assert response.status_code == 429 and response.json()["error"] == "throttled"


@pytest.fixture
def redis_cache() -> Iterator[None]:
    """The cache production runs, Redis, under a key prefix of this test's own."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs Redis (REDIS_URL)")
    prefix = f"throttle-test-{secrets.token_hex(4)}"
    backend = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    with override_settings(CACHES={"default": {**backend, "KEY_PREFIX": prefix}}):
        yield
        client = redis.Redis.from_url(url)
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


def test_on_redis_a_token_s_requests_are_counted_in_one_window(
    carol: User, monkeypatch: pytest.MonkeyPatch, redis_cache: None
) -> None:
    monkeypatch.setitem(throttle.LIMITS, "token", (3, 60))
    client = Client(headers={"authorization": f"Bearer {ApiToken.issue(carol)}"})
    assert [client.get("/api/matches/1").status_code for _ in range(3)] == [404] * 3
    response = client.get("/api/matches/1")
    assert response.status_code == 429 and 0 < int(response["Retry-After"]) <= 61


def test_on_redis_wrong_tokens_block_the_address(carol: User, redis_cache: None) -> None:
    limit = throttle.LIMITS["bad_token_ip"][0]
    for n in range(limit):
        bad = Client(headers={"authorization": f"Bearer bbw_wrong{n}"})
        assert bad.get("/api/matches/1").status_code == 401
    good = Client(headers={"authorization": f"Bearer {ApiToken.issue(carol)}"})
    response = good.get("/api/matches/1")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert throttle.blocked("login_ip", "127.0.0.1") is None  # another scope counts apart
