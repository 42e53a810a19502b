"""Pages of the clock: the deadlines partial, standing orders, vacations, notification
preferences and a coach's "my matches". The write path is matches.services."""

from typing import Any, Literal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from matches import services
from matches.deadlines.forms import StandingOrdersForm, VacationForm
from matches.models import (
    Decision,
    Match,
    StandingOrders,
    Vacation,
    open_decision,
)
from matches.thread.sentences import Names


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User), "behind login_required"
    return request.user


def _get_match(pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("home_team", "away_team", "league"), pk=pk
    )


def deadline_context(
    match: Match, user: Any, decision: Decision | Literal["unread"] | None = "unread"
) -> dict[str, Any]:
    """The context of ``matches/_deadlines.html``, for the match page to include:

    - ``match``; ``turn_deadline`` (a datetime or None), ``turn_paused`` (True while a
      decision stops the active team's clock) and ``turn_time_left`` (a timedelta or None);
    - ``decision``: the open Decision or None (``deadline_at``, ``to``, ``contested_at``),
      read here unless the caller has it already; ``decision_to``: whom it awaits, by name;
    - ``vacations``: the running and coming vacations of the match's coaches (everyone sees
      them), each with ``user`` and ``ends_at``;
    - ``fouls``: the active team's Foul allowance per side: a list of dicts with ``side``,
      ``used``, ``allowed`` and ``mine`` (the viewer coaches that side);
    - ``may_take_vacation`` and ``vacation_form``: for a coach of the match in a league;
    - ``banks``: with the league's time bank, every side's bank (``bank_rows``), else empty.
    """
    state = match.state
    active = state.get("active", "home")
    mine = services.actors_for(match, user)
    team_state = state.get("teams", {}).get(active, {})
    used = team_state.get("fouls_used", {})
    house = state.get("house_rules", True)
    sides = ["captain", "rival"] if house else ["captain"]
    fouls = [
        {
            "side": side,
            "used": used.get(side, 0) if house else sum(used.values()),
            "allowed": 1,
            "mine": f"{active}:{side}" in mine,
        }
        for side in sides
    ]
    coaches = [
        u
        for team in (match.home_team, match.away_team)
        for u in (team.captain_id, team.rival_id)
        if u is not None
    ]
    vacations = (
        Vacation.objects.filter(
            user_id__in=coaches, league_id=match.league_id, ends_at__gt=timezone.now()
        ).select_related("user")
        if match.league_id
        else Vacation.objects.none()
    )
    if decision == "unread":
        decision = open_decision(match)
    return {
        "match": match,
        "active_team": active,
        "turn_deadline": match.turn_deadline_at,
        "turn_paused": match.turn_time_left is not None,
        "turn_time_left": match.turn_time_left,
        "decision": decision,
        "decision_to": Names(match).actor(decision.to) if decision is not None else "",
        "vacations": list(vacations),
        "fouls": fouls,
        "may_take_vacation": bool(mine) and match.league_id is not None,
        "vacation_form": VacationForm(),
        "banks": bank_rows(match) if services.uses_bank(match) else [],
    }


def bank_rows(match: Match) -> list[dict[str, Any]]:
    """Each side's bank for the page: ``name``, ``testid``, ``seconds`` left now and ``clock``
    (H:MM:SS), ``running`` and ``ends_at`` (static/js/banks.js counts down to it)."""
    names = Names(match)
    rows = []
    for bank in services.banks.shown(match, timezone.now()):
        minutes, seconds = divmod(bank["seconds"], 60)
        hours, minutes = divmod(minutes, 60)
        rows.append(
            bank
            | {
                "name": names.actor(bank["actor"]),
                "testid": "bank-" + bank["actor"].replace(":", "-"),
                "clock": f"{hours}:{minutes:02}:{seconds:02}",
            }
        )
    return rows


def deadlines(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match(pk)
    if not match.is_public and not (
        services.actors_for(match, request.user) or services.is_match_gm(match, request.user)
    ):
        return HttpResponseForbidden()
    return render(request, "matches/_deadlines.html", deadline_context(match, request.user))


def _players_of(match: Match, actors: list[str]) -> list[tuple[str, str]]:
    house = match.state.get("house_rules", True)
    found = []
    for pid, facts in sorted(match.lineup.items()):
        team = "home" if pid.startswith("h") else "away"
        if any(
            a.startswith(team + ":") and (not house or a.endswith(":" + facts["side"]))
            for a in actors
        ):
            found.append((pid, f"#{facts['number']} {facts['name']}"))
    return found


@login_required
@require_http_methods(["GET", "POST"])
def standing_orders(request: HttpRequest, pk: int) -> HttpResponse:
    """A coach's own orders (a form); the match's GM reads everyone's; nobody else sees any."""
    match = _get_match(pk)
    mine = services.actors_for(match, request.user)
    if not mine:
        if services.is_match_gm(match, request.user):
            orders = StandingOrders.objects.filter(match=match).select_related("user")
            return render(
                request, "matches/standing_orders.html", {"match": match, "all_orders": orders}
            )
        return HttpResponseForbidden()
    user = _user(request)
    current = StandingOrders.objects.filter(match=match, user=user).first()
    form = StandingOrdersForm(
        request.POST or None,
        instance=current,
        players=_players_of(match, mine),
        captain=any(a.endswith(":captain") for a in mine),
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.set_standing_orders(match.pk, user, **form.cleaned_data)
        except services.MatchError as refused:
            messages.error(request, refused.message)
        else:
            messages.success(request, _("Your standing orders are saved."))
            return redirect("deadlines:standing_orders", pk=match.pk)
    return render(request, "matches/standing_orders.html", {"match": match, "form": form})


@login_required
@require_POST
def vacation(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match(pk)
    form = VacationForm(request.POST)
    if match.league is None or not services.actors_for(match, request.user):
        return HttpResponseForbidden()
    if form.is_valid():
        try:
            taken = services.take_vacation(_user(request), match.league, form.cleaned_data["days"])
        except services.MatchError as refused:
            messages.error(request, refused.message)
        else:
            until = date_format(timezone.localtime(taken.ends_at), "SHORT_DATETIME_FORMAT")
            paused = _("Your deadlines are paused until %(until)s.") % {"until": until}
            messages.success(request, paused)
    return redirect("matches:detail", pk=match.pk)
