"""The client's address and scheme behind the trusted proxies (BBWEB_TRUSTED_PROXIES): the
rate limits count each client apart behind the proxy, and a peer that is not a trusted proxy
cannot choose its address or its scheme with X-Forwarded-For or X-Forwarded-Proto."""

from ipaddress import ip_network

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from bbweb import throttle
from bbweb.clientip import TrustedProxyMiddleware, client_ip
from bbweb.models import ApiToken

PROXY = "172.30.57.10"
behind_the_proxy = override_settings(TRUSTED_PROXIES=[ip_network("172.30.57.0/24")])
# Each wrong password costs a real hash otherwise: seconds for these tests' twenty and more.
fast_hashing = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])


def _request(peer: str, **headers: str) -> HttpRequest:
    request = RequestFactory().get("/", REMOTE_ADDR=peer, headers=headers)
    return request


def test_without_trusted_proxies_the_peer_is_the_client() -> None:
    request = _request("203.0.113.7", x_forwarded_for="198.51.100.1")
    assert client_ip(request) == "203.0.113.7"


@behind_the_proxy
def test_an_untrusted_peer_s_forwarded_for_is_ignored() -> None:
    request = _request("203.0.113.7", x_forwarded_for="198.51.100.1")
    assert client_ip(request) == "203.0.113.7"


@behind_the_proxy
def test_behind_a_trusted_proxy_the_client_is_the_hop_it_wrote() -> None:
    assert client_ip(_request(PROXY, x_forwarded_for="198.51.100.1")) == "198.51.100.1"
    assert client_ip(_request(PROXY, x_forwarded_for="[2001:db8::1]:4711")) == "2001:db8::1"


@behind_the_proxy
def test_the_hops_a_client_wrote_itself_are_not_believed() -> None:
    forged = _request(PROXY, x_forwarded_for="10.9.9.9, unknown, 198.51.100.1")
    assert client_ip(forged) == "198.51.100.1"


@behind_the_proxy
def test_trusted_hops_are_skipped_from_the_right() -> None:
    chain = "192.0.2.44, 198.51.100.1, 172.30.57.20, 172.30.57.21"
    assert client_ip(_request(PROXY, x_forwarded_for=chain)) == "198.51.100.1"


@behind_the_proxy
def test_a_trusted_proxy_without_a_forwarded_for_is_the_client() -> None:
    assert client_ip(_request(PROXY)) == PROXY


def _scheme(peer: str, proto: str) -> str:
    seen: list[str] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(request.scheme or "")
        return HttpResponse()

    request = _request(peer, x_forwarded_proto=proto)
    TrustedProxyMiddleware(view)(request)
    return seen[0]


@behind_the_proxy
def test_forwarded_proto_is_believed_from_a_trusted_proxy_only() -> None:
    assert _scheme(PROXY, "https") == "https"
    assert _scheme("203.0.113.7", "https") == "http"


def test_no_request_header_can_set_the_scheme_django_reads() -> None:
    request = _request("203.0.113.7", bbweb_forwarded_proto="https")
    assert "HTTP_BBWEB_FORWARDED_PROTO" in request.META
    assert _scheme("203.0.113.7", "https") == "http"


@pytest.mark.django_db
@behind_the_proxy
@fast_hashing
def test_failed_logins_from_one_client_leave_another_client_s_login_working() -> None:
    User.objects.create_user("carol", password="right-phrase-1")
    attacker = Client(REMOTE_ADDR=PROXY, headers={"x-forwarded-for": "198.51.100.66"})
    attempts = throttle.LIMITS["login_ip"][0] + 1
    answers = [
        attacker.post(reverse("login"), {"login": f"nobody{n}", "password": "x"}).status_code
        for n in range(attempts)
    ]
    assert answers == [200] * (attempts - 1) + [429]
    coach = Client(REMOTE_ADDR=PROXY, headers={"x-forwarded-for": "192.0.2.10"})
    response = coach.post(reverse("login"), {"login": "carol", "password": "right-phrase-1"})
    assert response.status_code == 302
    assert "_auth_user_id" in coach.session


@pytest.mark.django_db
@fast_hashing
def test_an_untrusted_peer_cannot_escape_its_limit_with_forwarded_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(throttle.LIMITS, "login_ip", (3, 15 * 60))
    attempts = 3
    for n in range(attempts):
        client = Client(REMOTE_ADDR="203.0.113.7", headers={"x-forwarded-for": f"10.0.0.{n}"})
        client.post(reverse("login"), {"login": f"nobody{n}", "password": "x"})
    disguised = Client(REMOTE_ADDR="203.0.113.7", headers={"x-forwarded-for": "10.1.1.1"})
    response = disguised.post(reverse("login"), {"login": "somebody", "password": "x"})
    assert response.status_code == 429


@pytest.mark.django_db
@behind_the_proxy
def test_bad_tokens_from_one_client_leave_another_client_s_token_working() -> None:
    token = ApiToken.issue(User.objects.create_user("carol"))
    for n in range(throttle.LIMITS["bad_token_ip"][0] + 1):
        bad = Client(
            REMOTE_ADDR=PROXY,
            headers={"x-forwarded-for": "198.51.100.66", "authorization": f"Bearer bbw_no{n}"},
        )
        assert bad.get("/api/matches/1").status_code in (401, 429)
    good = Client(
        REMOTE_ADDR=PROXY,
        headers={"x-forwarded-for": "192.0.2.10", "authorization": f"Bearer {token}"},
    )
    assert good.get("/api/matches/1").status_code == 404  # past the token check: no such match


def _signup(address: str, n: int) -> int:
    client = Client(REMOTE_ADDR=PROXY, headers={"x-forwarded-for": address})
    data = {
        "username": f"coach{n}",
        "email": f"coach{n}@example.org",
        "password1": "a-long-and-unusual-passphrase",
        "password2": "a-long-and-unusual-passphrase",
    }
    return int(client.post(reverse("signup"), data).status_code)


@pytest.mark.django_db
@behind_the_proxy
@fast_hashing
def test_sign_ups_are_capped_per_client_not_for_everybody() -> None:
    limit = throttle.LIMITS["signup_ip"][0]
    assert [_signup("198.51.100.66", n) for n in range(limit + 1)] == [302] * limit + [429]
    assert _signup("192.0.2.10", limit + 1) == 302
    assert User.objects.count() == limit + 1
