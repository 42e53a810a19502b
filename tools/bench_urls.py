"""The production URLconf plus the benchmark's floor: a write (the API's bearer token checked,
one row inserted), a read (the session's user, one row read) and a page (that read shown in
the site's page, base.html, as every HTML page is). Never mounted in production: only
tools/bench_settings.py names this module."""

from functools import cache
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import engines
from django.urls import path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from bbweb.models import ApiToken, OutboxMessage
from bbweb.urls import urlpatterns as production
from matches.models import Match


@csrf_exempt
def floor(request: HttpRequest, pk: int) -> JsonResponse:
    if request.method == "POST":
        scheme, _sep, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or ApiToken.user_for(token.strip()) is None:
            return JsonResponse({"error": "bad_token"}, status=401)
        # A row the relay never sends (it is born done); the benchmark deletes them after.
        now = timezone.now()
        row = OutboxMessage.objects.create(task="bench_http.floor", sent_at=now, done_at=now)
        return JsonResponse({"row": row.pk}, status=201)
    if not request.user.is_authenticated:
        return JsonResponse({"error": "not_authenticated"}, status=401)
    version = Match.objects.filter(pk=pk).values_list("version", flat=True).first()
    return JsonResponse({"version": version})


def page_floor(request: HttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return HttpResponse(status=401)
    version = Match.objects.filter(pk=pk).values_list("version", flat=True).first()
    return HttpResponse(_page().render({"version": version}, request))


@cache
def _page() -> Any:
    return engines["django"].from_string(
        '{% extends "base.html" %}{% block content %}<p>{{ version }}</p>{% endblock %}'
    )


urlpatterns = [
    path("bench/floor/<id:pk>", floor),
    path("bench/page/<id:pk>", page_floor),
    *production,
]
