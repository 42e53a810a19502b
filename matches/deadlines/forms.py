from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from matches.models import StandingOrders


class StandingOrdersForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = StandingOrders
        fields = [
            "reroll_dodge",
            "reroll_pickup",
            "reroll_gfi",
            "approve_rival_rerolls",
            "block_die",
            "block_reroll",
            "wrestle",
            "break_tackle",
            "intercept",
            "intercept_player",
        ]

    def __init__(self, *args: Any, players: list[tuple[str, str]], captain: bool, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["intercept_player"] = forms.ChoiceField(
            label=_("interceptor"), choices=[("", "—"), *players], required=False
        )
        if not captain:
            del self.fields["approve_rival_rerolls"]


class VacationForm(forms.Form):
    days = forms.IntegerField(label=_("days"), min_value=1, max_value=60)
