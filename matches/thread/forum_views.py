"""The forum's own format: a turn of the thread or the match report as BBCode and Markdown,
ready to copy into the league's forum thread."""

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from matches.access import may_read
from matches.models import Match
from matches.thread import forum_export, forum_facts


@require_GET
def forum(request: HttpRequest, pk: int) -> HttpResponse:
    """The turns to choose from and the chosen one (the latest by default), or the report."""
    match = get_object_or_404(
        Match.objects.select_related("home_team", "away_team", "league", "gm"), pk=pk
    )
    if not may_read(match, request.user):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise Http404
    url = request.build_absolute_uri(reverse("matches:detail", args=[match.pk]))
    turns = forum_facts.turns(match)
    context: dict[str, Any] = {"match": match, "turns": turns, "part": "report"}
    if request.GET.get("part") == "report":
        facts = forum_facts.report(match, url)
        context["bbcode"] = forum_export.bbcode_report(facts)
        context["markdown"] = forum_export.markdown_report(facts)
        context["title"] = None
    elif turns:
        key = _chosen_turn(request, turns)
        shown = forum_facts.turn(match, key, url)
        assert shown is not None  # the key is one of the thread's turns
        context.update(
            part=key.slug(),
            title=shown.title,
            bbcode=forum_export.bbcode_turn(shown),
            markdown=forum_export.markdown_turn(shown),
        )
    return render(request, "matches/forum.html", context)


def _chosen_turn(
    request: HttpRequest, turns: list[tuple[forum_facts.TurnKey, str]]
) -> forum_facts.TurnKey:
    wanted = forum_facts.TurnKey.parse(request.GET.get("turn", ""))
    keys = [key for key, _title in turns]
    if wanted is None or wanted not in keys:
        if "turn" in request.GET:
            raise Http404
        return keys[-1]
    return wanted
