"""The page on verifying a match's record: the download, the receipt and verify_match."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from matches.access import may_read
from matches.models import Match


@require_GET
def verify(request: HttpRequest, pk: int) -> HttpResponse:
    """How anyone checks this match's record: the download, the receipt and verify_match."""
    match = get_object_or_404(Match.objects.select_related("home_team", "away_team"), pk=pk)
    if not may_read(match, request.user):
        raise Http404
    return render(request, "matches/verify.html", {"match": match})
