"""The client's address and scheme behind the trusted proxies (``BBWEB_TRUSTED_PROXIES``).

A request's peer (``REMOTE_ADDR``) is the client unless it is a trusted proxy. From a trusted
proxy, ``X-Forwarded-For`` is read from the right, each hop a proxy appended, and the trusted
hops are skipped: the first one that is not trusted is the client, since only what a trusted
proxy wrote can be believed and whatever lies to its left the client may have written itself.
``X-Forwarded-Proto`` is believed from a trusted proxy only. django-ipware reads the header
(ports, brackets, IPv4-mapped addresses, obfuscated or malformed hops): asked for a proxy count
``n`` it answers the hop ``n`` places from the right."""

from collections.abc import Callable
from ipaddress import IPv4Address, IPv6Address, ip_address

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from ipware import get_client_ip

# The most hops walked; a longer chain of trusted proxies is a misconfiguration or a forgery.
MAX_HOPS = 10


def _address(text: str) -> IPv4Address | IPv6Address | None:
    try:
        address = ip_address(text)
    except ValueError:
        return None
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_trusted_proxy(address: str) -> bool:
    parsed = _address(address)
    return parsed is not None and any(
        parsed.version == network.version and parsed in network
        for network in settings.TRUSTED_PROXIES
    )


def _hop(request: HttpRequest, count: int) -> str | None:
    """The address ``count`` hops from the right of X-Forwarded-For, or None."""
    address, _routable = get_client_ip(
        request,
        proxy_count=count,
        request_header_order=["HTTP_X_FORWARDED_FOR"],
        strict=False,  # a malformed hop the client wrote on the left changes no right position
    )
    return address


def client_ip(request: HttpRequest) -> str:
    """The client's address: the peer, or through trusted proxies the last untrusted hop."""
    peer = str(request.META.get("REMOTE_ADDR", ""))
    if not is_trusted_proxy(peer):
        return peer
    found = peer
    for count in range(MAX_HOPS):
        hop = _hop(request, count)
        if hop is None:
            break
        found = hop
        if not is_trusted_proxy(hop):
            break
    return found


class TrustedProxyMiddleware:
    """The scheme from X-Forwarded-Proto when a trusted proxy sent it (Django reads it from
    ``SECURE_PROXY_SSL_HEADER``, a request key no client can set); from anyone else the
    header changes nothing. Goes first: the HTTPS redirect asks the scheme."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = settings.SECURE_PROXY_SSL_HEADER[0]
        request.META.pop(key, None)
        proto = request.META.get("HTTP_X_FORWARDED_PROTO")
        if proto and is_trusted_proxy(str(request.META.get("REMOTE_ADDR", ""))):
            request.META[key] = proto
        return self.get_response(request)
