import re
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from matches.models import MAX_REMINDER_HOURS, MAX_REMINDERS, CoachPreferences, known_time_zones


def _zones() -> list[tuple[str, str]]:
    server = [("", _("The server's (%(zone)s)") % {"zone": settings.TIME_ZONE})]
    return server + [(name, name.replace("_", " ")) for name in sorted(known_time_zones())]


KIND_LABELS = [
    ("turn", _("my team's turn begins")),
    ("decision", _("a decision awaits me")),
    ("warning", _("a deadline of mine is 24 or 2 hours away")),
    ("applied", _("a deadline of mine was applied")),
    ("contest", _("the result of a Blitz contest")),
    ("mention", _("a post mentions me")),
]


class PreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=_zones, required=False)
    digest_kinds = forms.MultipleChoiceField(
        label=_("Once a day in a digest, rather than at once"),
        choices=KIND_LABELS,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    digest_hour = forms.TypedChoiceField(
        label=_("The digest's hour (in my time zone)"),
        choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
        coerce=int,
        required=False,
        empty_value=None,
    )
    reminders = forms.CharField(
        label=_("Reminders before my deadlines (hours)"),
        max_length=40,
        required=False,
    )

    class Meta:
        model = CoachPreferences
        fields = [
            "language",
            "time_zone",
            "email_turn",
            "email_decision",
            "email_warning",
            "email_applied",
            "email_contest",
            "email_mention",
            "digest_kinds",
            "digest_hour",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reminders"].help_text = gettext(
            "For instance 24, 4, 1: up to %(count)d, from 1 to %(most)d hours, in place of "
            "the warnings 24 and 2 hours before. Empty: those warnings."
        ) % {"count": MAX_REMINDERS, "most": MAX_REMINDER_HOURS}
        if self.instance.pk is not None:
            hours = self.instance.reminder_hours
            self.initial["reminders"] = ", ".join(str(h) for h in hours)

    def clean_reminders(self) -> list[int]:
        """ "24, 4, 1" (commas or spaces): the hours, the longest first, each once."""
        text = self.cleaned_data.get("reminders", "")
        words = [word for word in re.split(r"[\s,;]+", text) if word]
        if not all(word.isdigit() for word in words):
            raise forms.ValidationError(_("Write whole hours, separated by commas: 24, 4, 1."))
        hours = sorted({int(word) for word in words}, reverse=True)
        if len(hours) > MAX_REMINDERS:
            raise forms.ValidationError(
                _("At most %(count)d reminders."), params={"count": MAX_REMINDERS}
            )
        if any(not 1 <= h <= MAX_REMINDER_HOURS for h in hours):
            raise forms.ValidationError(
                _("A reminder comes 1 to %(most)d hours before a deadline."),
                params={"most": MAX_REMINDER_HOURS},
            )
        return hours

    def clean_digest_hour(self) -> int:
        """Left out (a form of an older page), the hour stays as it was."""
        hour = self.cleaned_data.get("digest_hour")
        return int(self.instance.digest_hour if hour is None else hour)
