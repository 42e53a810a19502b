"""Forms of the league: its settings, a fixture by hand and the round-robin generator."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from matches.services import LEAGUE_SETTINGS
from teams.models import League, Team


class LeagueForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = League
        fields = list(LEAGUE_SETTINGS)


class FixtureForm(forms.Form):
    round = forms.IntegerField(label=_("Round"), min_value=1, max_value=999)
    home = forms.ModelChoiceField(label=pgettext_lazy("team", "Home"), queryset=Team.objects.none())
    away = forms.ModelChoiceField(label=_("Away"), queryset=Team.objects.none())
    scheduled_for = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        teams = league.teams.order_by("name")
        self.fields["home"].queryset = teams  # type: ignore[attr-defined]
        self.fields["away"].queryset = teams  # type: ignore[attr-defined]


class RoundRobinForm(forms.Form):
    first_date = forms.DateField(
        label=_("First round on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    days_between = forms.IntegerField(
        label=_("Days between rounds"), min_value=1, max_value=60, initial=7
    )
