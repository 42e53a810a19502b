"""A person's notification preferences: which e-mails they receive, in which language."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from matches import services
from matches.models import CoachPreferences
from matches.notices.forms import PreferencesForm


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    current = CoachPreferences.objects.filter(user=user).first()
    form = PreferencesForm(request.POST or None, instance=current)
    if request.method == "POST" and form.is_valid():
        services.save_preferences(user, **form.cleaned_data)
        messages.success(request, _("Your notification preferences are saved."))
        return redirect("deadlines:preferences")
    return render(request, "matches/preferences.html", {"form": form})
