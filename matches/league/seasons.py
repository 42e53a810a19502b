"""A league's seasons: the GM's season page (divisions, the knockout, closing the season and
opening the next) and the all-time table of every season's matches."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from matches import services
from matches.acting import act, forbidden
from matches.models import Season, SeasonTeam
from matches.record import season as leagues
from teams.models import League

PLAYOFF_SIZES = (2, 4, 8, 16)


def latest_season(league: League) -> Season | None:
    return league.seasons.order_by("-number").first()


def _ids(values: list[str]) -> list[int] | None:
    try:
        return [int(value) for value in values if value]
    except ValueError:
        return None


@login_required
@require_http_methods(["GET", "POST"])
def season_manage(request: HttpRequest, league_id: int) -> HttpResponse:
    """The GM's season: one form per step, each posted here with its ``do``."""
    league = get_object_or_404(League, pk=league_id)
    back = reverse("gm:season", args=[league.pk])
    if request.user.pk != league.gm_id:
        return forbidden(request, _("Only the league's game master runs its seasons."), back)
    if request.method == "POST":
        return _season_step(request, league, back)
    season = latest_season(league)
    entries = _entries(league, season)
    context = {
        "league": league,
        "season": season,
        "entries": entries,
        "teams": league.teams.order_by("name", "pk"),
        "sizes": [size for size in PLAYOFF_SIZES if size <= max(len(entries), 2)],
        "seeds": range(1, len(entries) + 1),
        "knockout": season.fixtures.filter(knockout=True).exists() if season else False,
    }
    return render(request, "leagues/season.html", context)


def _entries(league: League, season: Season | None) -> list[SeasonTeam]:
    """The season's teams: while it is open (or before the first), the league's teams, each
    with the division it has so far."""
    if season is not None and not season.is_open:
        return list(season.entries.select_related("team"))
    divisions = dict(season.entries.values_list("team_id", "division")) if season else {}
    return [
        SeasonTeam(season=season, team=team, division=divisions.get(team.pk, ""))
        for team in league.teams.order_by("name", "pk")
    ]


def _season_step(request: HttpRequest, league: League, back: str) -> HttpResponse:
    step = request.POST.get("do", "")
    user = request.user
    if step == "divisions":
        names = {
            entry.team.pk: request.POST.get(f"division-{entry.team.pk}", "")
            for entry in _entries(league, latest_season(league))
        }
        return act(
            request,
            back,
            lambda: services.set_divisions(league.pk, user, names),
            _("The divisions are set."),
        )
    if step == "playoff":
        order = _ids(request.POST.getlist("seed"))
        try:
            size = int(request.POST.get("size", ""))
        except ValueError:
            size = 0
        if order is None or size not in PLAYOFF_SIZES:
            messages.error(request, _("Choose the size of the knockout and its seeds."))
            return redirect(back)
        return act(
            request,
            back,
            lambda: services.seed_playoff(league.pk, user, size=size, order=order),
            _("The knockout is seeded."),
        )
    if step == "close":
        return act(
            request,
            back,
            lambda: services.close_season(league.pk, user),
            _("The season is closed."),
        )
    if step == "open":
        kept = _ids(request.POST.getlist("team"))
        if kept is None:
            messages.error(request, _("Choose the teams that carry over."))
            return redirect(back)
        return act(
            request,
            back,
            lambda: services.open_next_season(league.pk, user, kept),
            _("The next season is open."),
        )
    messages.error(request, _("There is no such step."))
    return redirect(back)


@require_GET
def all_time(request: HttpRequest, league_id: int) -> HttpResponse:
    """Every league match of every season in one table, and each season's champion."""
    league = get_object_or_404(League, pk=league_id)
    table = leagues.season(league)
    seasons = league.seasons.select_related("champion").order_by("number")
    context = {"league": league, "table": table.table, "seasons": seasons}
    return render(request, "leagues/all_time.html", context)
