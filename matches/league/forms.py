"""Forms of the league: its settings, a fixture by hand, the round-robin generator and a
webhook."""

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from matches.models import LeagueHook
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


class HookForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), choices=LeagueHook.Kind.choices)
    url = forms.URLField(label=_("Address"), max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=_("Events"),
        choices=LeagueHook.Event.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=LeagueHook.Event.values,
    )
    language = forms.ChoiceField(
        label=_("Language"), choices=settings.LANGUAGES, initial=settings.LANGUAGE_CODE
    )
