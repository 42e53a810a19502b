from datetime import datetime, timedelta

from django import forms
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from bbweb.models import MAX_TOKEN_NAME, MAX_TOKENS_PER_USER, ApiToken

LIFETIMES = [
    ("", _("Never")),
    ("7", _("In 7 days")),
    ("30", _("In 30 days")),
    ("90", _("In 90 days")),
    ("365", _("In a year")),
]


class ApiTokenForm(forms.Form):
    """A new API token: its name (one of the user's, not yet taken) and when it expires."""

    name = forms.CharField(label=_("Name"), max_length=MAX_TOKEN_NAME, strip=True)
    lifetime = forms.ChoiceField(label=_("Expires"), choices=LIFETIMES, required=False)

    def __init__(self, user: User, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.user = user

    def clean_name(self) -> str:
        name = str(self.cleaned_data["name"])
        if ApiToken.objects.filter(user=self.user, name=name).exists():
            raise forms.ValidationError(
                _("You already have a token named %(name)s: revoke it or choose another name."),
                params={"name": name},
            )
        return name

    def clean(self) -> dict[str, object] | None:
        if ApiToken.objects.filter(user=self.user).count() >= MAX_TOKENS_PER_USER:
            raise forms.ValidationError(
                _("You have %(count)d tokens, the most one account may have: revoke one first."),
                params={"count": MAX_TOKENS_PER_USER},
            )
        return super().clean()

    def expires_at(self) -> datetime | None:
        days = self.cleaned_data.get("lifetime")
        return timezone.now() + timedelta(days=int(days)) if days else None
