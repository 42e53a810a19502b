"""The pages that lead a person to their matches: the home page (a dashboard once logged in,
an introduction before), "My matches", and the page on verifying a match's record."""

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from matches.access import may_read
from matches.dashboard import matches_of
from matches.models import Dispute, Match


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home.html")
    return render(request, "home.html", {"mine": matches_of(request.user)})


@login_required
@require_GET
def my_matches(request: HttpRequest) -> HttpResponse:
    return render(request, "matches/mine.html", {"mine": matches_of(request.user)})


def gm_panel_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    """What the GM panel of the match page (templates/matches/_gm_panel.html) shows its GM."""
    open_ids = list(
        match.disputes.filter(status=Dispute.Status.OPEN)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return {
        "open_disputes": len(open_ids),
        "first_open": open_ids[0] if open_ids else None,  # the link lands on it
        "next": request.get_full_path(),
    }


@require_GET
def verify(request: HttpRequest, pk: int) -> HttpResponse:
    """How anyone checks this match's record: the download, the receipt and verify_match."""
    match = get_object_or_404(Match.objects.select_related("home_team", "away_team"), pk=pk)
    if not may_read(match, request.user):
        raise Http404
    return render(request, "matches/verify.html", {"match": match})
