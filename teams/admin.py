"""The admin for game masters: each GM manages the leagues they run, with their teams and players
(a superuser manages everything). A GM needs staff status to open the admin at all."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import ForeignKey, Q, QuerySet
from django.forms import ModelChoiceField
from django.http import HttpRequest

from bbweb.roles import is_game_master
from teams.models import Invitation, League, MoveProposal, Player, Team

if TYPE_CHECKING:  # the admin classes are generic only for the type checker
    _ModelAdmin = admin.ModelAdmin[Any]
    _PlayerInline = admin.TabularInline[Player, Team]
else:
    _ModelAdmin = admin.ModelAdmin
    _PlayerInline = admin.TabularInline


# How a row leads to the GM of its league: the choices of every foreign key in an add or change
# form are kept to the leagues the GM runs, so a GM cannot put a team or a player into another
# GM's league (editing other leagues' rows is refused by get_queryset already).
_GM_OF = {League: "gm", Team: "league__gm", Player: "team__league__gm"}


def _scoped_choice(
    db_field: ForeignKey[Any, Any], request: HttpRequest, kwargs: dict[str, Any]
) -> dict[str, Any]:
    user = request.user
    if getattr(user, "is_superuser", False):
        return kwargs
    model = db_field.related_model
    if model in _GM_OF:
        kwargs["queryset"] = model._default_manager.filter(**{_GM_OF[model]: user.pk})
        kwargs["required"] = True
    elif model is get_user_model() and db_field.model is Invitation:
        # a GM invites the people of their leagues, and reads no other account's name
        in_leagues = Q(teams_captained__league__gm=user.pk) | Q(teams_as_rival__league__gm=user.pk)
        kwargs["queryset"] = model._default_manager.filter(in_leagues).distinct()
    elif model is get_user_model() and db_field.model in (League, Team):
        # a league's GM is its maker; a team's captain too: nobody else is made one without
        # their consent (a rival joins by accepting an invitation)
        kwargs["queryset"] = model._default_manager.filter(username=user.get_username())
    return kwargs


class _GameMasterAdmin(_ModelAdmin):
    league_path = ""

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> "ModelChoiceField[Any] | None":
        return super().formfield_for_foreignkey(
            db_field, request, **_scoped_choice(db_field, request, kwargs)
        )

    def _is_gm(self, request: HttpRequest) -> bool:
        return is_game_master(request.user)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._is_gm(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._is_gm(request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return self._is_gm(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._is_gm(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._is_gm(request)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if getattr(request.user, "is_superuser", False):
            return queryset
        return queryset.filter(**{self.league_path: request.user})


class PlayerInline(_PlayerInline):
    model = Player
    extra = 0
    fields = [
        "number",
        "name",
        "position",
        "side",
        "status",
        "spp",
        "skills",
        "niggling_injuries",
        "miss_next_game",
        "ma_loss",
        "st_loss",
        "ag_loss",
        "av_loss",
    ]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_game_master(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_game_master(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_game_master(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_game_master(request.user)


@admin.register(League)
class LeagueAdmin(_GameMasterAdmin):
    league_path = "gm"
    list_display = ["name", "gm", "starting_treasury", "turn_deadline_hours"]
    search_fields = ["name"]

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        return {"gm": request.user.pk}


@admin.register(Team)
class TeamAdmin(_GameMasterAdmin):
    league_path = "league__gm"
    list_display = ["name", "race", "league", "captain", "rival", "captain_treasury"]
    # the filter names only the leagues of the rows shown: a GM never reads another's leagues
    list_filter = [("league", admin.RelatedOnlyFieldListFilter), "race"]
    search_fields = ["name", "captain__username", "rival__username"]
    raw_id_fields = ["captain", "rival"]
    inlines = [PlayerInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """A GM names no coach: a team's captain is who made it, its rival who accepted an
        invitation (the Invitations page sends one)."""
        if getattr(request.user, "is_superuser", False):
            return super().get_readonly_fields(request, obj)
        return ["rival"] if obj is None else ["captain", "rival"]


@admin.register(Player)
class PlayerAdmin(_GameMasterAdmin):
    league_path = "team__league__gm"
    list_display = ["name", "number", "team", "position", "side", "status", "spp"]
    list_filter = ["status", "side", ("team__league", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["name", "team__name"]
    list_select_related = ["team"]


@admin.register(Invitation)
class InvitationAdmin(_GameMasterAdmin):
    league_path = "team__league__gm"
    list_display = ["team", "user", "status", "created_at"]
    list_filter = ["status"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """Only the invited coach answers (on the home page or My teams): a GM sends an
        invitation and may withdraw it (delete), never accept it for them."""
        if getattr(request.user, "is_superuser", False):
            return super().get_readonly_fields(request, obj)
        return (
            ["status", "answered_at"] if obj is None else ["team", "user", "status", "answered_at"]
        )


@admin.register(MoveProposal)
class MoveProposalAdmin(_GameMasterAdmin):
    league_path = "player__team__league__gm"
    list_display = ["player", "to_side", "status", "created_at"]
    list_filter = ["status"]
