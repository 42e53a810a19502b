from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from bbweb.forms import SignUpForm
from bbweb.models import ApiToken


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to bbweb, %(name)s.") % {"name": user.username})
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


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
