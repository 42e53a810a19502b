"""Each reader's time zone: the one chosen on the notification preferences, else the browser's
(static/js/timezone.js keeps it in the ``bbweb_tz`` cookie), else the server's. The middleware
activates it for the request, so every date on a page is the reader's; the date formats name
the zone (bbweb/formats). The e-mails are written in their reader's zone the same way."""

import zoneinfo
from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from matches.models import CoachPreferences, known_time_zones

BROWSER_COOKIE = "bbweb_tz"
SESSION_KEY = "bbweb_time_zone"


def valid_zone(name: str | None) -> str:
    """``name`` when it names a zone, else empty."""
    return name if name and name in known_time_zones() else ""


def chosen_zone(user: User) -> str:
    """The zone a person chose, or empty."""
    preferences = CoachPreferences.objects.filter(user=user).only("time_zone").first()
    return valid_zone(preferences.time_zone) if preferences else ""


def browser_zone(request: HttpRequest) -> str:
    return valid_zone(request.COOKIES.get(BROWSER_COOKIE))


def remember(request: HttpRequest, zone: str) -> None:
    """What the person chose, kept in the session: the middleware asks the database once."""
    request.session[SESSION_KEY] = zone


def reader_zone(request: HttpRequest) -> str:
    if request.user.is_authenticated:
        if SESSION_KEY not in request.session:
            assert isinstance(request.user, User)
            remember(request, chosen_zone(request.user))
        chosen = valid_zone(request.session[SESSION_KEY])
        if chosen:
            return chosen
    return browser_zone(request) or settings.TIME_ZONE


class ReadersZone(tzinfo):
    """The reader's zone, found when a date is first shown: a request that shows none (a poll
    answered 204) reads neither the session nor the preferences for it."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request
        self.found: zoneinfo.ZoneInfo | None = None

    def zone(self) -> zoneinfo.ZoneInfo:
        if self.found is None:
            self.found = zoneinfo.ZoneInfo(reader_zone(self.request))
        return self.found

    @property
    def key(self) -> str:
        return self.zone().key

    def __str__(self) -> str:
        return self.zone().key

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        return self.zone().utcoffset(dt)

    def dst(self, dt: datetime | None) -> timedelta | None:
        return self.zone().dst(dt)

    def tzname(self, dt: datetime | None) -> str | None:
        return self.zone().tzname(dt)

    def fromutc(self, dt: datetime) -> datetime:
        zone = self.zone()
        return zone.fromutc(dt.replace(tzinfo=zone))


class ReaderTimeZone:
    """Activates the reader's zone for the request (after the session and the user)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.activate(ReadersZone(request))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def zone_of(preferences: CoachPreferences | None) -> zoneinfo.ZoneInfo:
    """The zone an e-mail to this person is written in."""
    name = valid_zone(preferences.time_zone) if preferences else ""
    return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
