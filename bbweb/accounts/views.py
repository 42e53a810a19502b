"""allauth's account pages as bbweb serves them: login through its limits
(bbweb/accounts/login_limits.py), sign-up and reset through the site's throttle, and the
addresses of the pages before allauth sent on to the new ones."""

from typing import Any

from allauth.account import views as allauth_views
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET

from bbweb import throttle
from bbweb.accounts import login_limits


class LoginView(allauth_views.LoginView):
    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return login_limits.guarded(
            request,
            lambda: super(LoginView, self).post(request, *args, **kwargs),
            # the form came back: a wrong password (or a missing field)
            failed=lambda response: response.status_code == 200,
        )


class SignupView(allauth_views.SignupView):
    """Every attempt counts toward the address's limit, taken name or not."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = throttle.hit("signup_ip", throttle.client_ip(request))
        if wait is not None:
            return throttle.too_many(request, wait)
        return super().post(request, *args, **kwargs)


class PasswordResetView(allauth_views.PasswordResetView):
    """Reset mails counted per address asking and per e-mail, known or not."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        email = str(request.POST.get("email", ""))
        wait = throttle.hit("reset_ip", throttle.client_ip(request)) or throttle.hit(
            "reset_email", email
        )
        if wait is not None:
            return throttle.too_many(request, wait)
        return super().post(request, *args, **kwargs)


def moved(to: str) -> Any:
    """A page of the accounts before allauth, sent on to the page that does its work now
    (its query string kept: ``?next=``)."""

    @require_GET
    def view(request: HttpRequest, **kwargs: object) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        return redirect(reverse(to) + (f"?{query}" if query else ""), permanent=True)

    return view


def when_configured(provider_id: str, view: Any) -> Any:
    """A provider's page, or 404 while its client id and secret are not in the environment
    (allauth would answer 500: no app to log in with)."""

    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.SOCIALACCOUNT_PROVIDERS.get(provider_id, {}).get("APPS"):
            raise Http404("This way of logging in is not set up here.")
        return view(request, *args, **kwargs)

    return guarded
