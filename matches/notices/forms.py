from django import forms

from matches.models import CoachPreferences


class PreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = CoachPreferences
        fields = [
            "language",
            "email_turn",
            "email_decision",
            "email_warning",
            "email_applied",
            "email_contest",
        ]
