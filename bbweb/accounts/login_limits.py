"""Login limits that cannot be turned against a coach (OWASP's "device cookies").

Wrong passwords are counted per account and address together and per address, never per
account alone: failures from elsewhere do not lock the coach out. A browser that logged in to
an account before carries a signed device cookie naming it; for that account it is counted on
its own (per cookie) and the other counts do not apply to it. A refused attempt answers 429
with Retry-After and a page saying when to try again (bbweb/throttle.py)."""

import secrets
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import user_logged_in
from django.contrib.auth.models import User
from django.core import signing
from django.db.models import Q
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from bbweb import throttle

COOKIE = "bbweb_device"
_SALT = "bbweb.device-cookie"
COOKIE_AGE = 365 * 24 * 3600
_LOGGED_IN = "_bbweb_logged_in"  # set on the request by the login signal, read on the way out


def _device(request: HttpRequest) -> dict[str, Any] | None:
    try:
        value = signing.loads(request.COOKIES.get(COOKIE, ""), salt=_SALT, max_age=COOKIE_AGE)
    except signing.BadSignature:
        return None
    return value if isinstance(value, dict) else None


def _account(login: str) -> int | None:
    """The account a login names (a username or an address), as allauth finds it."""
    login = login.strip()
    found = (
        User.objects.filter(Q(username__iexact=login) | Q(email__iexact=login))
        .values_list("pk", flat=True)
        .first()
    )
    return found


def _scopes(request: HttpRequest, login: str) -> list[tuple[str, str]]:
    """The counts an attempt at ``login`` answers to."""
    device = _device(request)
    if device is not None and login and device.get("user") == _account(login):
        return [("login_device", str(device.get("nonce", "")))]
    address = throttle.client_ip(request)
    return [("login_pair", f"{login.strip().casefold()}|{address}"), ("login_ip", address)]


def guarded(
    request: HttpRequest,
    attempt: Callable[[], HttpResponse],
    failed: Callable[[HttpResponse], bool],
) -> HttpResponse:
    """Run the login ``attempt`` unless one of its counts is full (then the 429 page); count it
    when ``failed`` says it was a wrong password."""
    login = str(request.POST.get("login", ""))
    scopes = _scopes(request, login)
    for scope, key in scopes:
        wait = throttle.blocked(scope, key)
        if wait is not None:
            return throttle.too_many(request, wait)
    response = attempt()
    if failed(response):
        for scope, key in scopes:
            throttle.hit(scope, key)
    return response


@receiver(user_logged_in)
def _remember_login(
    sender: object, request: HttpRequest | None, user: User, **kwargs: object
) -> None:
    if request is not None:
        setattr(request, _LOGGED_IN, user.pk)


class DeviceCookie:
    """Gives the browser that just logged in its device cookie for that account."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user_pk = getattr(request, _LOGGED_IN, None)
        if user_pk is not None:
            value = signing.dumps({"user": user_pk, "nonce": secrets.token_urlsafe(16)}, salt=_SALT)
            response.set_cookie(
                COOKIE,
                value,
                max_age=COOKIE_AGE,
                httponly=True,
                secure=settings.SESSION_COOKIE_SECURE,
                samesite="Lax",
            )
        return response
