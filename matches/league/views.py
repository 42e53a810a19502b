"""The league's pages: the list, a league's fixtures, table, leaders and audit, and the GM's
work on it (create, edit, schedule by hand or by round robin, open a fixture, join)."""

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bbweb.models import email_verified
from bbweb.roles import is_game_master
from matches import labels, services
from matches.acting import act, forbidden, form_errors
from matches.league import archive
from matches.league.forms import FixtureForm, LeagueForm, RoundRobinForm
from matches.live import standings as live_standings
from matches.models import AuditEntry, Fixture, Match, Season
from matches.record import season as leagues
from teams.models import League, Team


def _league(league_id: int) -> League:
    return get_object_or_404(League.objects.select_related("gm"), pk=league_id)


def _sees_audit(user: Any, league: League) -> bool:
    if not user.is_authenticated:
        return False
    if user.pk == league.gm_id:
        return True
    return league.teams.filter(Q(captain=user) | Q(rival=user)).exists()


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "leagues/list.html",
        {
            "leagues": League.objects.select_related("gm"),
            "can_create": is_game_master(request.user),
        },
    )


def _frozen(shown: Season) -> list[tuple[str, list[dict[str, Any]]]]:
    """A closed season's standings as they were frozen, by division."""
    divisions: dict[str, list[dict[str, Any]]] = {}
    for row in shown.table:
        line = {**row, "url": reverse("teams:detail", args=[row["team"]])}
        divisions.setdefault(row["division"], []).append(line)
    return list(divisions.items())


def _live(rows: list[Any]) -> list[dict[str, Any]]:
    return [
        {**vars(row), "name": row.team.name, "url": row.team.get_absolute_url()} for row in rows
    ]


@require_GET
def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(league_id)
    seasons = list(league.seasons.select_related("champion").order_by("number"))
    shown = seasons[-1] if seasons else None
    if request.GET.get("season"):
        shown = next((s for s in seasons if str(s.number) == request.GET["season"]), None)
        if shown is None:
            raise Http404("no such season")
    latest = shown is None or shown == seasons[-1]
    if shown is None:
        season = live_standings.league_season(league)
    elif latest:
        season = live_standings.league_season(league, of=shown)
    else:
        season = leagues.season(league, of=shown)
    fixtures = (shown.fixtures if shown else league.fixtures).select_related(
        "home", "away", "match"
    )
    rounds: dict[int, list[dict[str, Any]]] = {}
    for fixture in fixtures:
        result = season.results.get(fixture.match_id) if fixture.match_id else None
        rounds.setdefault(fixture.round, []).append({"fixture": fixture, "result": result})
    # Matches the GM scheduled outside the fixtures are the league's too.
    outside = Match.objects.filter(league=league, fixture__isnull=True)
    if shown is not None:
        outside = outside.filter(season=shown)
    others = [
        {"match": match, "result": season.results.get(match.pk)}
        for match in outside.select_related("home_team", "away_team").order_by("created_at", "pk")
    ]
    if shown is not None and not shown.is_open:
        tables = _frozen(shown)
    else:
        tables = [
            (name, _live(rows)) for name, rows in (season.divisions or {"": season.table}).items()
        ]
    user = request.user
    joinable = (
        Team.objects.filter(captain=user, league__isnull=True) if user.is_authenticated else []
    )
    context = {
        "league": league,
        "teams": league.teams.select_related("captain", "rival"),
        "rounds": [
            (number, items, any(item["fixture"].knockout for item in items))
            for number, items in sorted(rounds.items())
        ],
        "others": others,
        "tables": tables,
        "leaders": season.leaders,
        "seasons": seasons,
        "shown": shown,
        "is_gm": user.is_authenticated and user.pk == league.gm_id,
        "audit": (
            [
                {"entry": entry, "action": labels.event_name(entry.action)}
                for entry in AuditEntry.objects.filter(league=league).select_related("gm", "match")[
                    :100
                ]
            ]
            if _sees_audit(user, league)
            else None
        ),
        "joinable": joinable,
    }
    return render(request, "leagues/detail.html", context)


@login_required
@require_GET
def league_export(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league as one JSON document (matches.league.archive), for its GM only: without the
    seeds of the matches not finished (their dice to come)."""
    league = _league(league_id)
    if request.user.pk != league.gm_id:
        message = _("Only the league's game master downloads the league.")
        return forbidden(request, message, reverse("gm:league", args=[league.pk]))
    doc = archive.export_league(league, with_secret_seeds=False)
    body = json.dumps(doc, indent=1, ensure_ascii=False, cls=DjangoJSONEncoder)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"{slugify(league.name) or 'league'}-{league.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def league_create(request: HttpRequest) -> HttpResponse:
    if not is_game_master(request.user):
        return forbidden(request, _("Only game masters create leagues."), reverse("gm:leagues"))
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.create_league(request.user, form.cleaned_data)
        except services.MatchError as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("The league %(name)s is open.") % {"name": league.name})
            return redirect("gm:league", league.pk)
    return render(request, "leagues/form.html", {"form": form, "league": None})


@login_required
@require_http_methods(["GET", "POST"])
def league_edit(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(league_id)
    back = reverse("gm:league", args=[league.pk])
    if request.user.pk != league.gm_id:
        return forbidden(request, _("Only the league's game master changes it."), back)
    form = LeagueForm(request.POST or None, instance=League.objects.get(pk=league.pk))
    if request.method == "POST" and form.is_valid():
        try:
            services.update_league(league.pk, request.user, form.cleaned_data)
        except services.MatchError as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("Settings saved."))
            return redirect(back)
    return render(request, "leagues/form.html", {"form": form, "league": league})


@login_required
@require_http_methods(["GET", "POST"])
def league_schedule(request: HttpRequest, league_id: int) -> HttpResponse:
    """Fixtures by hand (POST) and the page with the round-robin generator."""
    league = _league(league_id)
    back = reverse("gm:schedule", args=[league.pk])
    if request.user.pk != league.gm_id:
        return forbidden(request, _("Only the league's game master schedules it."), back)
    form = FixtureForm(request.POST or None, league=league)
    latest = league.seasons.order_by("-number").first()
    if request.method == "POST":
        if not form.is_valid():
            form_errors(request, form)
            return redirect(back)
        data = form.cleaned_data
        return act(
            request,
            back,
            lambda: services.add_fixture(
                league.pk,
                request.user,
                round=data["round"],
                home_id=data["home"].pk,
                away_id=data["away"].pk,
                scheduled_for=data["scheduled_for"],
            ),
            _("Fixture added."),
        )
    context = {
        "league": league,
        "form": form,
        "round_robin": RoundRobinForm(),
        "fixtures": (latest.fixtures if latest else league.fixtures).select_related(
            "home", "away", "match"
        ),
    }
    return render(request, "leagues/schedule.html", context)


@login_required
@require_POST
def league_round_robin(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(league_id)
    back = reverse("gm:schedule", args=[league.pk])
    form = RoundRobinForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect(back)
    return act(
        request,
        back,
        lambda: services.generate_round_robin(
            league.pk,
            request.user,
            first_date=form.cleaned_data["first_date"],
            days_between=form.cleaned_data["days_between"],
        ),
        _("The season is scheduled."),
    )


@login_required
@require_POST
def fixture_start(request: HttpRequest, fixture_id: int) -> HttpResponse:
    fixture = get_object_or_404(Fixture, pk=fixture_id)
    back = reverse("gm:schedule", args=[fixture.league_id])
    return act(
        request,
        back,
        lambda: services.start_fixture(fixture.pk, request.user),
        _("The match is open."),
    )


@login_required
@require_POST
def league_join(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(league_id)
    back = reverse("gm:league", args=[league.pk])
    assert isinstance(request.user, User)
    if not email_verified(request.user):
        message = _("Confirm your e-mail address first: follow the link we sent you at sign-up.")
        return forbidden(request, message, back)
    try:
        team_id = int(request.POST.get("team", ""))
    except ValueError:
        messages.error(request, _("Choose a team."))
        return redirect(back)
    return act(
        request,
        back,
        lambda: services.join_league(request.user, league.pk, team_id),
        _("Your team joined the league."),
    )
