"""The production URLconf plus the benchmark's floor: a write (the API's bearer token checked,
one row inserted) and a read (the session's user, one row read). Never mounted in
production: only matches/bench_settings.py names this module."""

from django.http import HttpRequest, JsonResponse
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
        # A row the relay never sends (it is born sent); the benchmark deletes them after.
        row = OutboxMessage.objects.create(task="bench_http.floor", sent_at=timezone.now())
        return JsonResponse({"row": row.pk}, status=201)
    if not request.user.is_authenticated:
        return JsonResponse({"error": "not_authenticated"}, status=401)
    version = Match.objects.filter(pk=pk).values_list("version", flat=True).first()
    return JsonResponse({"version": version})


urlpatterns = [path("bench/floor/<int:pk>", floor), *production]
