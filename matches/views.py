from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from matches.models import Match


def detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    return render(request, "matches/detail.html", {"match": match})
