from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from bbweb import throttle, verification
from bbweb.forms import SignUpForm
from bbweb.models import ApiToken


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask /favicon.ico whatever the page links: they get the SVG icon."""
    return redirect(static("favicon.svg"), permanent=True)


class LoginView(auth_views.LoginView):
    """Django's login, with wrong passwords counted per username and per address: past the
    limit the form answers 429 with Retry-After, even for the right password."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        username = str(request.POST.get("username", ""))
        address = throttle.client_ip(request)
        wait = throttle.blocked("login_user", username) or throttle.blocked("login_ip", address)
        if wait is not None:
            return throttle.too_many(request, wait)
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form came back: a wrong password
            throttle.hit("login_user", username)
            throttle.hit("login_ip", address)
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, with its mails counted per address asking and per e-mail."""

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        email = str(request.POST.get("email", ""))
        wait = throttle.hit("reset_ip", throttle.client_ip(request)) or throttle.hit(
            "reset_email", email
        )
        if wait is not None:
            return throttle.too_many(request, wait)
        return super().post(request, *args, **kwargs)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        wait = throttle.blocked("signup_ip", throttle.client_ip(request))
        if wait is not None:
            return throttle.too_many(request, wait)
    if request.method == "POST" and form.is_valid():
        throttle.hit("signup_ip", throttle.client_ip(request))
        user = form.save()
        verification.send_check(request, user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to bbweb, %(name)s.") % {"name": user.username})
        messages.info(
            request,
            _("We sent you a link: follow it to confirm your e-mail before joining a team."),
        )
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@require_GET
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    if verification.confirm(token) is None:
        messages.error(request, _("This confirmation link is not valid or has expired."))
    else:
        messages.success(request, _("Your e-mail address is confirmed."))
    return redirect("home")


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """The account page: the API token, made or replaced here and shown only then."""
    assert isinstance(request.user, User)
    new_token = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            ApiToken.objects.filter(user=request.user).delete()
            messages.success(request, _("Your API token is revoked."))
            return redirect("profile")
        new_token = ApiToken.issue(request.user)
    token = ApiToken.objects.filter(user=request.user).first()
    return render(request, "registration/profile.html", {"token": token, "new_token": new_token})
