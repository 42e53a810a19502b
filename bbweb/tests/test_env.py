import pytest
from django.core.exceptions import ImproperlyConfigured

from bbweb.env import envbool, envint, envnetworks


def test_a_boolean_variable_accepts_the_usual_spellings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_FLAG", "yes")
    assert envbool("X_FLAG", False) is True
    monkeypatch.setenv("X_FLAG", "0")
    assert envbool("X_FLAG", True) is False


def test_a_malformed_boolean_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_FLAG", "perhaps")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
        envbool("X_FLAG", False)


def test_a_malformed_integer_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_NUMBER", "12h")
    with pytest.raises(ImproperlyConfigured, match="X_NUMBER"):
        envint("X_NUMBER", 1)


def test_trusted_proxies_are_addresses_or_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_PROXIES", " 10.0.0.5, 172.30.57.0/24 ,fd00::/8,")
    assert [str(n) for n in envnetworks("X_PROXIES")] == [
        "10.0.0.5/32",
        "172.30.57.0/24",
        "fd00::/8",
    ]
    monkeypatch.delenv("X_PROXIES")
    assert envnetworks("X_PROXIES") == []


def test_a_malformed_proxy_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_PROXIES", "10.0.0.5,nginx")
    with pytest.raises(ImproperlyConfigured, match=r"X_PROXIES .*'nginx'"):
        envnetworks("X_PROXIES")
