"""The pages that lead a person to their matches: the home page (a dashboard once logged in,
an introduction before) and "My matches"."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from bbweb.accounts.welcome import NEW_ACCOUNT
from matches.dashboard.mine import matches_of
from teams.models import Invitation


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home.html")
    new_account = request.session.pop(NEW_ACCOUNT, False)  # set by the sign-up (bbweb.accounts)
    context = {
        "mine": matches_of(request.user),
        "new_account": new_account,
        "invitations": Invitation.pending_for(request.user),
    }
    return render(request, "home.html", context)


@login_required
@require_GET
def my_matches(request: HttpRequest) -> HttpResponse:
    return render(request, "matches/mine.html", {"mine": matches_of(request.user)})
