"""A person's time zone guessed from the browser when they first log in (sign-up logs them
in): the zone static/js/timezone.js read, saved as theirs until they choose another."""

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from matches import services
from matches.models import CoachPreferences
from matches.notices import zones


@receiver(user_logged_in, dispatch_uid="bbweb-guess-time-zone")
def _guess_the_zone(sender: Any, request: HttpRequest | None, user: Any, **_: Any) -> None:
    if request is None:
        return
    guessed = zones.browser_zone(request)
    if not guessed:
        return
    if CoachPreferences.objects.filter(user=user).exclude(time_zone="").exists():
        return
    services.save_preferences(user, time_zone=guessed)
    zones.remember(request, guessed)
