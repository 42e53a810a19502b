"""Typed readers of environment variables that fail loudly on bad values."""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None


def envstr(name: str, default: str) -> str:
    return os.environ.get(name, default)


def envlist(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def envsecret(name: str, *, required: bool, dev_default: str) -> str:
    """A secret that must be set (and strong) in production, with a fixed value in development."""
    raw = os.environ.get(name, "")
    if raw:
        if required and len(raw) < 50:
            raise ImproperlyConfigured(f"{name} must be at least 50 characters long")
        return raw
    if required:
        raise ImproperlyConfigured(f"{name} must be set when DJANGO_DEBUG=0")
    return dev_default
