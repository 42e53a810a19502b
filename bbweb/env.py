"""Typed readers of environment variables that fail loudly on bad values."""

import os
from ipaddress import IPv4Network, IPv6Network, ip_network

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


def envnetworks(name: str) -> list[IPv4Network | IPv6Network]:
    """Comma-separated addresses or CIDR networks (``10.0.0.5``, ``172.30.57.0/24``,
    ``fd00::/8``); none when unset."""
    networks = []
    for item in envlist(name, []):
        try:
            networks.append(ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list addresses or networks (e.g. 10.0.0.5,172.30.57.0/24),"
                f" not {item!r}"
            ) from None
    return networks
