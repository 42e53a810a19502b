import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rules import gamedata
from teams import rosters, services
from teams.forms import CreateTeamForm, HireForm, InviteForm, RaceForm, RenameForm
from teams.models import Invitation, MoveProposal, Player, Side, Team
from teams.rosters import gp
from teams.transfer import export_team

# -- access helpers -------------------------------------------------------------------------------


def _teams() -> QuerySet[Team]:
    return Team.objects.select_related("captain", "rival", "league").prefetch_related("players")


def _get_team(team_id: int) -> Team:
    return get_object_or_404(_teams(), pk=team_id)


def _get_player(team_id: int, player_id: int) -> Player:
    return get_object_or_404(
        Player.objects.select_related("team", "team__rival"), pk=player_id, team_id=team_id
    )


def _act(
    request: HttpRequest, team: Team, action: Callable[[], Any], done: Callable[[Any], str]
) -> HttpResponse:
    """Run a service call: 403 when the user may not, a message either way, back to the team."""
    try:
        result = action()
    except services.NotAllowed as refused:
        context = {"message": refused.message, "team": team}
        return render(request, "teams/forbidden.html", context, status=403)
    except services.TeamError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, done(result))
    return redirect(team)


def _form_error(request: HttpRequest, team: Team, form: Any) -> HttpResponse:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)
    return redirect(team)


# -- reading --------------------------------------------------------------------------------------


@require_GET
def team_list(request: HttpRequest) -> HttpResponse:
    return render(request, "teams/list.html", {"teams": _teams().order_by("league__name", "name")})


@login_required
@require_GET
def my_teams(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)  # login_required
    context = {
        "teams": _teams().filter(Q(captain=user) | Q(rival=user)),
        "invitations": Invitation.pending_for(user),
        "moves": MoveProposal.objects.filter(
            player__team__rival=user, status=MoveProposal.Status.PENDING
        ).select_related("player", "player__team"),
    }
    return render(request, "teams/mine.html", context)


@require_GET
def detail(request: HttpRequest, team_id: int) -> HttpResponse:
    team = _get_team(team_id)
    return render(request, "teams/detail.html", _roster(request, team))


def _roster(request: HttpRequest, team: Team) -> dict[str, Any]:
    sides = [s for s in Side.values if team.controls(request.user, s)]
    return {
        "team": team,
        "sides": [_side(team, side) for side in Side.values],
        "former": [p for p in team.players.all() if p.status not in Player.ON_ROSTER],
        "is_captain": request.user.is_authenticated and request.user.pk == team.captain_id,
        "is_rival": request.user.is_authenticated and request.user.pk == team.rival_id,
        "my_sides": sides,
        "hire_form": HireForm(team=team, sides=sides) if sides else None,
        "invite_form": InviteForm(),
        "building": gamedata.team_building(),
        "invitation": team.invitations.filter(status=Invitation.Status.PENDING).first(),
        "moves": MoveProposal.objects.filter(
            player__team=team, status=MoveProposal.Status.PENDING
        ).select_related("player"),
    }


def _side(team: Team, side: str) -> dict[str, Any]:
    coach = team.captain if side == Side.CAPTAIN else team.rival
    return {
        "side": side,
        "label": Side(side).label,
        "coach": coach,
        "players": [p for p in team.roster() if p.side == side],
        "value": team.side_value(side),
        "treasury": team.treasury(side),
    }


@require_GET
def export(request: HttpRequest, team_id: int) -> HttpResponse:
    team = _get_team(team_id)
    body = json.dumps(export_team(team), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"{slugify(team.name) or 'team'}-{team.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# -- creating a team ------------------------------------------------------------------------------


def _builder(form: CreateTeamForm) -> dict[str, Any]:
    race_form = RaceForm(initial={"race": form.race_data.id if form.race_data else ""})
    if form.is_bound:
        form.is_valid()
    plan, budget = form.plan(), form.budget()
    totals = rosters.plan_totals(plan)
    return {
        "form": form,
        "race_form": race_form,
        "building": gamedata.team_building(),
        "totals": totals,
        "budget": budget,
        "remaining": budget - totals.total,
        "problems": rosters.plan_problems(plan, budget) if form.race_data else [],
    }


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else None
    # A race change (htmx) keeps what was typed in the fields that every race shares.
    initial = {k: request.GET[k] for k in ("name", "league", "rival") if request.GET.get(k)}
    form = CreateTeamForm(data, race_id=(data or request.GET).get("race", ""), initial=initial)
    team = form.create_team(request.user) if form.is_bound else None
    if team is not None:
        messages.success(request, _("%(team)s is ready to play.") % {"team": team.name})
        return redirect(team)
    htmx = request.headers.get("HX-Request") == "true"
    template = "teams/create.html#builder" if htmx else "teams/create.html"
    return render(request, template, _builder(form))


@login_required
@require_POST
def create_totals(request: HttpRequest) -> HttpResponse:
    form = CreateTeamForm(request.POST, race_id=request.POST.get("race", ""))
    return render(request, "teams/create.html#totals", _builder(form))


# -- between matches ------------------------------------------------------------------------------


@login_required
@require_POST
def hire(request: HttpRequest, team_id: int) -> HttpResponse:
    team = _get_team(team_id)
    form = HireForm(request.POST, team=team, sides=list(Side.values))
    if not form.is_valid():
        return _form_error(request, team, form)
    return _act(
        request,
        team,
        lambda: services.hire_player(request.user, team, **form.cleaned_data),
        lambda p: _("Hired #%(number)d %(name)s.") % {"number": p.number, "name": p.name},
    )


@login_required
@require_POST
def fire(request: HttpRequest, team_id: int, player_id: int) -> HttpResponse:
    player = _get_player(team_id, player_id)
    return _act(
        request,
        player.team,
        lambda: services.fire_player(request.user, player),
        lambda _r: _("%(name)s has left the team.") % {"name": player.name},
    )


@login_required
@require_POST
def rename(request: HttpRequest, team_id: int, player_id: int) -> HttpResponse:
    player = _get_player(team_id, player_id)
    form = RenameForm(request.POST)
    if not form.is_valid():
        return _form_error(request, player.team, form)
    return _act(
        request,
        player.team,
        lambda: services.rename_player(request.user, player, form.cleaned_data["name"]),
        lambda _r: _("Renamed to %(name)s.") % {"name": form.cleaned_data["name"]},
    )


@login_required
@require_POST
def move(request: HttpRequest, team_id: int, player_id: int) -> HttpResponse:
    player = _get_player(team_id, player_id)
    return _act(
        request,
        player.team,
        lambda: services.propose_move(request.user, player),
        lambda proposal: (
            (
                _("The move of %(name)s waits for the rival coach.")
                if proposal
                else _("%(name)s changed sides.")
            )
            % {"name": player.name}
        ),
    )


@login_required
@require_POST
def buy(request: HttpRequest, team_id: int) -> HttpResponse:
    team = _get_team(team_id)
    item = request.POST.get("item", "")

    def purchase() -> int:
        if item == "reroll":
            return services.buy_reroll(request.user, team)
        return services.buy_staff(request.user, team, item)

    return _act(
        request, team, purchase, lambda price: _("Bought for %(price)s.") % {"price": gp(price)}
    )


@login_required
@require_POST
def invite(request: HttpRequest, team_id: int) -> HttpResponse:
    team = _get_team(team_id)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _form_error(request, team, form)
    return _act(
        request,
        team,
        lambda: services.invite_rival(request.user, team, form.cleaned_data["username"]),
        lambda inv: _("%(name)s is invited to coach the rival's side.") % {"name": inv.user},
    )


@login_required
@require_POST
def answer_invitation(request: HttpRequest, invitation_id: int, answer: str) -> HttpResponse:
    invitation = get_object_or_404(Invitation.objects.select_related("team"), pk=invitation_id)
    accept = answer == "accept"
    return _act(
        request,
        invitation.team,
        lambda: (services.accept_invitation if accept else services.decline_invitation)(
            request.user, invitation
        ),
        lambda _r: _("You coach the rival's side now.") if accept else _("Invitation declined."),
    )


@login_required
@require_POST
def answer_move(request: HttpRequest, proposal_id: int, answer: str) -> HttpResponse:
    proposal = get_object_or_404(
        MoveProposal.objects.select_related("player", "player__team"), pk=proposal_id
    )
    accept = answer == "accept"
    return _act(
        request,
        proposal.player.team,
        lambda: (services.accept_move if accept else services.refuse_move)(request.user, proposal),
        lambda _r: _("Move accepted.") if accept else _("Move refused."),
    )
