"""How a page of the GM's work or the league runs a service call and answers: 403 with the
refusal when the user may not, a message either way, then back where the form came from."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from matches import services

FORBIDDEN = frozenset(("not_gm", "not_in_match", "not_captain"))


def forbidden(request: HttpRequest, message: str, back: str) -> HttpResponse:
    context = {"message": message, "back": back}
    return render(request, "matches/gm_forbidden.html", context, status=403)


def back_to(request: HttpRequest, default: str) -> str:
    """Where a form came from (the match page that includes the disputes partial, say)."""
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}):
        return wanted
    return default


def act(request: HttpRequest, back: str, action: Callable[[], Any], done: str) -> HttpResponse:
    """Run a service call: 403 when the user may not, a message either way, then back."""
    try:
        action()
    except services.MatchError as refused:
        if refused.code in FORBIDDEN:
            return forbidden(request, refused.message, back)
        messages.error(request, refused.message)
    else:
        messages.success(request, done)
    return redirect(back)


def form_errors(request: HttpRequest, form: Any) -> None:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)
