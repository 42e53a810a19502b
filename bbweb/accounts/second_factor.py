"""Two factors before ruling: with BBWEB_REQUIRE_GM_MFA on, a GM or a staff member without an
authenticator app is sent to turn one on before any page that rules a match, edits a league or
opens the admin. The coaches' pages ask nothing of anyone."""

from collections.abc import Callable
from typing import Any

from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from bbweb.roles import is_game_master

# The GM's pages (the ``gm`` namespace holds the league pages every coach reads too).
RULING_PAGES = frozenset(
    {
        "gm:queue",
        "gm:rule",
        "gm:control",
        "gm:league_create",
        "gm:league_edit",
        "gm:schedule",
        "gm:round_robin",
        "gm:fixture_start",
    }
)


def rules_or_administers(request: HttpRequest) -> bool:
    match = request.resolver_match
    if match is None:
        return False
    return match.view_name in RULING_PAGES or match.namespace == "admin"


def has_second_factor(user: Any) -> bool:
    return Authenticator.objects.filter(user_id=user.pk, type=Authenticator.Type.TOTP).exists()


class RequireSecondFactor:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: object, args: object, kwargs: object
    ) -> HttpResponse | None:
        user = request.user
        if not settings.BBWEB_REQUIRE_GM_MFA or not user.is_authenticated:
            return None
        if not (user.is_staff or is_game_master(user)) or not rules_or_administers(request):
            return None
        if has_second_factor(user):
            return None
        messages.warning(
            request,
            _("Turn on two factors before you rule, edit a league or open the admin."),
        )
        return redirect("mfa_activate_totp")
