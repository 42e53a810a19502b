from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from bbweb.forms import ApiTokenForm
from bbweb.models import ApiToken


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask /favicon.ico whatever the page links: they get the SVG icon."""
    return redirect(static("favicon.svg"), permanent=True)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """The account page: its links, and the API tokens, made here (each shown only then),
    listed with their last use, and revoked."""
    assert isinstance(request.user, User)
    form = ApiTokenForm(request.user)
    new_token = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            return _revoke(request, request.user)
        form = ApiTokenForm(request.user, request.POST)
        if form.is_valid():
            name = form.cleaned_data["name"]
            new_token = ApiToken.issue(request.user, name, form.expires_at())
            form = ApiTokenForm(request.user)
    tokens = ApiToken.objects.filter(user=request.user)
    return render(
        request,
        "registration/profile.html",
        {"tokens": tokens, "new_token": new_token, "form": form, "now": timezone.now()},
    )


def _revoke(request: HttpRequest, user: User) -> HttpResponse:
    pk = str(request.POST.get("token", ""))
    deleted = 0
    if pk.isdigit() and len(pk) < 19:
        deleted, _kinds = ApiToken.objects.filter(user=user, pk=int(pk)).delete()
    if deleted:
        messages.success(request, _("The token is revoked: it opens nothing any more."))
    else:
        messages.error(request, _("You have no such token: nothing was revoked."))
    return redirect("profile")
