"""Forms of the GM's work: disputes and rulings, match control."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from matches.models import Dispute

PLAYER_STATES = [
    ("", _("unchanged")),
    ("standing", _("standing")),
    ("prone", _("prone")),
    ("stunned", _("stunned")),
    ("reserves", _("reserves")),
    ("ko", _("knocked out")),
    ("casualty", _("casualty")),
    ("sent_off", _("sent off")),
]
SIDES = [
    ("home:captain", _("home captain")),
    ("home:rival", _("home rival")),
    ("away:captain", _("away captain")),
    ("away:rival", _("away rival")),
]
WINNERS = [("", "—"), ("home", _("home")), ("away", _("away"))]


class DisputeForm(forms.Form):
    event = forms.IntegerField(label=_("Event"), required=False, min_value=1)
    post = forms.IntegerField(label=pgettext_lazy("thread", "Post"), required=False, min_value=1)
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("event") is None and data.get("post") is None:
            raise forms.ValidationError(_("Choose the event or the post you dispute."))
        return data


class RulingForm(forms.Form):
    ruling = forms.ChoiceField(label=_("Ruling"), choices=Dispute.Ruling.choices)
    note = forms.CharField(
        label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    event = forms.IntegerField(label=_("Event"), required=False, min_value=1)
    player = forms.CharField(label=_("Player"), required=False, max_length=8)
    state = forms.ChoiceField(label=_("New state"), choices=PLAYER_STATES, required=False)
    at = forms.CharField(label=_("New square"), required=False, max_length=4)
    hours = forms.IntegerField(label=_("Hours"), required=False, min_value=1, max_value=720)
    winner = forms.ChoiceField(label=_("Winner"), choices=WINNERS, required=False)
    home_score = forms.IntegerField(label=_("Home score"), required=False, min_value=0)
    away_score = forms.IntegerField(label=_("Away score"), required=False, min_value=0)

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        changes = {}
        if data["state"]:
            changes["state"] = data["state"]
        if data["at"]:
            changes["at"] = data["at"].strip().upper()
        score = None
        if data["home_score"] is not None and data["away_score"] is not None:
            score = {"home": data["home_score"], "away": data["away_score"]}
        return {
            "note": data["note"],
            "event_number": data["event"],
            "player": data["player"].strip(),
            "changes": changes,
            "hours": data["hours"] or 0,
            "winner": data["winner"],
            "score": score,
        }


class ControlForm(forms.Form):
    note = forms.CharField(label=_("Note"), required=False, max_length=2000)
    hours = forms.IntegerField(label=_("Hours"), required=False, min_value=1, max_value=720)
    at = forms.DateTimeField(
        label=_("New deadline"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    actor = forms.ChoiceField(label=_("Side"), choices=SIDES, required=False)
    username = forms.CharField(label=_("New coach"), required=False, max_length=150)
