import pytest
from django.core.exceptions import ImproperlyConfigured

from bbweb.env import envbool, envint, envsecret


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


def test_production_refuses_to_start_without_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("X_SECRET", raising=False)
    with pytest.raises(ImproperlyConfigured, match="must be set"):
        envsecret("X_SECRET", required=True, dev_default="dev")
    monkeypatch.setenv("X_SECRET", "short")
    with pytest.raises(ImproperlyConfigured, match="50 characters"):
        envsecret("X_SECRET", required=True, dev_default="dev")
