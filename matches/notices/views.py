"""A person's notification preferences: which e-mails they receive, in which language, and the
time zone of every date they read."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from matches import services
from matches.models import CoachPreferences
from matches.notices import unsubscribe, zones
from matches.notices.forms import KIND_LABELS, PreferencesForm


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    current = CoachPreferences.objects.filter(user=user).first()
    guessed = {"time_zone": zones.browser_zone(request)}
    form = PreferencesForm(request.POST or None, instance=current, initial=guessed)
    if request.method == "POST" and form.is_valid():
        chosen = dict(form.cleaned_data)
        services.save_preferences(user, reminder_hours=chosen.pop("reminders"), **chosen)
        zones.remember(request, form.cleaned_data["time_zone"])
        messages.success(request, _("Your notification preferences are saved."))
        return redirect("deadlines:preferences")
    return render(request, "matches/preferences.html", {"form": form})


KIND_FIELDS = {kind: f"email_{kind}" for kind in unsubscribe.NOTICE_KINDS}


@csrf_exempt  # a mail client's one-click POST carries no CSRF token; the signed token is the key
@require_http_methods(["GET", "POST"])
def unsubscribe_kind(request: HttpRequest, token: str) -> HttpResponse:
    """A notice's unsubscribe link: GET asks, POST (the page's button, or the mail client's
    one click) turns that kind of e-mail off for its reader."""
    found = unsubscribe.read(token)
    user = User.objects.filter(pk=found[0]).first() if found else None
    if found is None or user is None:
        message = _("This link is not valid. Choose your e-mails on your notification preferences.")
        return render(request, "matches/unsubscribe.html", {"refused": message}, status=404)
    kind = found[1]
    if kind == "digest":
        label = _("the daily digest")
        current = CoachPreferences.objects.filter(user=user).first()
        held = current.digest_kinds if current else []
        off = {KIND_FIELDS[k]: False for k in held if k in KIND_FIELDS}
    else:
        label = str(dict(KIND_LABELS)[kind])
        off = {KIND_FIELDS[kind]: False}
    context = {"kind": label, "done": request.method == "POST"}
    if request.method == "POST":
        services.save_preferences(user, **off)
    return render(request, "matches/unsubscribe.html", context)
