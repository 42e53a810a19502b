from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from bbweb import glossary
from rules import gamedata
from teams import rosters, services
from teams.models import League, Side, Team
from teams.services import starting_treasury


def _counts(top: int) -> list[tuple[int, str]]:
    return [(n, str(n)) for n in range(top + 1)]


def race_choices() -> list[tuple[str, object]]:
    return [("", _("Choose a race"))] + [(r.id, glossary.race_name(r)) for r in gamedata.races()]


class RaceForm(forms.Form):
    race = forms.ChoiceField(label=_("Race"), choices=race_choices, required=False)


class CreateTeamForm(forms.Form):
    """A new team: the race's positions per side, rerolls and staff, and an invited rival.

    The same form, bound to a half-filled POST, gives the live totals (``plan``, ``budget``).
    """

    race = forms.CharField(widget=forms.HiddenInput)
    name = forms.CharField(label=_("Team name"), max_length=80)
    league = forms.ModelChoiceField(
        label=_("League"),
        queryset=League.objects.all(),
        required=False,
        empty_label=_("No league (friendly games)"),
    )
    rerolls = forms.TypedChoiceField(
        label=_("Team rerolls"),
        coerce=int,
        choices=_counts(gamedata.team_building().max_rerolls),
        initial=0,
    )
    fan_factor = forms.TypedChoiceField(
        label=_("Fan factor"),
        coerce=int,
        choices=_counts(gamedata.team_building().max_fan_factor_at_creation),
        initial=0,
    )
    assistant_coaches = forms.IntegerField(
        label=_("Assistant coaches"), min_value=0, max_value=99, initial=0
    )
    cheerleaders = forms.IntegerField(label=_("Cheerleaders"), min_value=0, max_value=99, initial=0)
    apothecary = forms.BooleanField(label=_("Apothecary"), required=False)
    rival = forms.CharField(
        label=_("Rival coach"),
        required=False,
        max_length=150,
        help_text=_(
            "The username of the coach you invite for the rival's side. Until they accept, "
            "you hold both sides."
        ),
    )

    def __init__(self, *args: Any, race_id: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        try:
            self.race_data: gamedata.Race | None = gamedata.race(race_id) if race_id else None
        except gamedata.UnknownRace:
            self.race_data = None
        self.problems: list[str] = []
        if self.race_data is None:
            return
        self.initial.setdefault("race", self.race_data.id)
        if not self.race_data.apothecary_allowed:
            del self.fields["apothecary"]
        for pos in self.race_data.positions:
            for side in rosters.SIDES:
                self.fields[self.count_field(pos, side)] = forms.TypedChoiceField(
                    label=f"{pos.title} ({Side(side).label})",
                    coerce=int,
                    choices=_counts(pos.max_qty),
                    initial=0,
                    required=False,
                )

    @staticmethod
    def count_field(pos: gamedata.Position, side: str) -> str:
        return f"{side}__{pos.key}"

    def position_rows(self) -> list[tuple[gamedata.Position, forms.BoundField, forms.BoundField]]:
        if self.race_data is None:
            return []
        return [
            (
                pos,
                self[self.count_field(pos, Side.CAPTAIN)],
                self[self.count_field(pos, Side.RIVAL)],
            )
            for pos in self.race_data.positions
        ]

    def _value(self, field: str, default: Any) -> Any:
        data = getattr(self, "cleaned_data", {})
        value = data.get(field)
        return default if value in (None, "") else value

    def plan(self) -> rosters.TeamPlan:
        """What the coach picked so far (fields with bad values count as zero)."""
        players: list[rosters.PlannedPlayer] = []
        for pos in self.race_data.positions if self.race_data else ():
            for side in rosters.SIDES:
                count = int(self._value(self.count_field(pos, side), 0))
                players.extend(rosters.PlannedPlayer(pos.id, side) for _ in range(count))
        return rosters.TeamPlan(
            race=self.race_data.id if self.race_data else "",
            players=tuple(players),
            rerolls=int(self._value("rerolls", 0)),
            fan_factor=int(self._value("fan_factor", 0)),
            assistant_coaches=int(self._value("assistant_coaches", 0)),
            cheerleaders=int(self._value("cheerleaders", 0)),
            apothecary=bool(self._value("apothecary", False)),
        )

    def budget(self) -> int:
        league = self._value("league", None)
        return starting_treasury(league if isinstance(league, League) else None)

    def clean_race(self) -> str:
        if self.race_data is None:
            raise forms.ValidationError(_("Choose one of the LRB5 races."))
        return str(self.race_data.id)

    def create_team(self, user: services.Actor) -> Team | None:
        """The new team, or None with the reasons added to the form's errors."""
        if not self.is_valid():
            return None
        try:
            return services.create_team(
                user,
                self.plan(),
                name=self.cleaned_data["name"],
                league=self.cleaned_data["league"],
                rival_username=self.cleaned_data["rival"],
            )
        except services.TeamError as refused:
            self.add_error(None, refused.message)
            return None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.race_data is not None:
            self.problems = rosters.plan_problems(self.plan(), self.budget())
            for problem in self.problems:
                self.add_error(None, problem)
        return cleaned


class HireForm(forms.Form):
    position = forms.ChoiceField(label=_("Position"))
    side = forms.ChoiceField(label=_("Side"), choices=Side.choices)
    name = forms.CharField(
        label=_("Name"),
        max_length=80,
        required=False,
        help_text=_("Leave it empty to name the player after the position and number."),
    )
    number = forms.IntegerField(
        label=_("Shirt number"),
        min_value=1,
        max_value=rosters.NUMBER_MAX,
        required=False,
        help_text=_("Leave it empty for the lowest free number."),
    )

    def __init__(self, *args: Any, team: Team, sides: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        position_field = self.fields["position"]
        assert isinstance(position_field, forms.ChoiceField)
        position_field.choices = [
            (p.id, f"{p.title} ({rosters.gp(p.cost)})") for p in team.race_data.positions
        ]
        side_field = self.fields["side"]
        assert isinstance(side_field, forms.ChoiceField)
        side_field.choices = [(s, Side(s).label) for s in sides]
        if len(sides) == 1:
            side_field.widget = forms.HiddenInput()
            side_field.initial = sides[0]


class InviteForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)


class RenameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
