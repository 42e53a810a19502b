"""What a person keeps about their play: vacations, preferences, visits and notices."""

import functools
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from matches.models.match import Match


class Vacation(models.Model):
    """A coach's own deadlines, in every match of the league, are pushed back by ``days``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    league = models.ForeignKey("teams.League", on_delete=models.CASCADE, related_name="vacations")
    season = models.PositiveSmallIntegerField(_("season"))
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"), db_index=True)
    days = models.PositiveSmallIntegerField(_("days"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(days__gt=0), name="vacation_days_positive")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} away until {self.ends_at:%Y-%m-%d}"


@functools.cache
def known_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(name: str) -> None:
    if name and name not in known_time_zones():
        raise ValidationError(_("%(name)s is not a time zone."), params={"name": name})


# A person's reminders: at most this many, each this many hours before a deadline at most.
MAX_REMINDERS = 4
MAX_REMINDER_HOURS = 168


def validate_reminders(hours: object) -> None:
    if not isinstance(hours, list) or not all(isinstance(h, int) for h in hours):
        raise ValidationError(_("The reminders are a list of whole hours."))
    if len(hours) > MAX_REMINDERS:
        raise ValidationError(_("At most %(count)d reminders."), params={"count": MAX_REMINDERS})
    if any(not 1 <= h <= MAX_REMINDER_HOURS for h in hours):
        raise ValidationError(
            _("A reminder comes 1 to %(most)d hours before a deadline."),
            params={"most": MAX_REMINDER_HOURS},
        )


class CoachPreferences(models.Model):
    """Which e-mails a coach wants, in which language, and the time zone of its dates."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coach_preferences"
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    email_turn = models.BooleanField(_("my team's turn begins"), default=True)
    email_decision = models.BooleanField(_("a decision awaits me"), default=True)
    email_warning = models.BooleanField(_("a deadline of mine is 24 or 2 hours away"), default=True)
    email_applied = models.BooleanField(_("a deadline of mine was applied"), default=True)
    email_contest = models.BooleanField(_("the result of a Blitz contest"), default=True)
    email_mention = models.BooleanField(_("a post mentions me"), default=True)
    # The kinds that wait for one mail a day at ``digest_hour`` (in the person's zone) rather
    # than going at once.
    digest_kinds = models.JSONField(_("in the daily digest"), default=list, blank=True)
    digest_hour = models.PositiveSmallIntegerField(
        _("hour of the daily digest"),
        default=8,
        validators=[MaxValueValidator(23)],
    )
    # Hours before each of the person's own deadlines (24, 4, 1), the longest first; empty:
    # the fixed warnings 24 h and 2 h before (matches.services.deadlines.send_reminders).
    reminder_hours = models.JSONField(
        _("reminders"), default=list, blank=True, validators=[validate_reminders]
    )
    # An IANA name (Europe/Madrid); empty: the browser's guess, else the server's zone.
    time_zone = models.CharField(
        _("time zone"), max_length=64, blank=True, default="", validators=[validate_time_zone]
    )

    class Meta:
        verbose_name = _("notification preferences")
        verbose_name_plural = _("notification preferences")

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, f"email_{kind}", False))


class Visit(models.Model):
    """The last post a person saw of a match: the match page marks what came after it. Written
    once per visit of the page (its polls write nothing)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="visits")
    seen_post = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="visit_once")]

    def __str__(self) -> str:
        return f"{self.user_id} saw match {self.match_id} to post {self.seen_post}"


class Notice(models.Model):
    """One e-mail to one user: the unique key makes it once only. ``sent`` is False while a run
    holds it (until ``sending_until``) or after a failed attempt; see matches.notices.emails."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=120)
    sent = models.BooleanField(default=False)
    sending_until = models.DateTimeField(null=True, blank=True)
    # The task call that sends it, [task name, args], so that the sweep can queue it again
    # when a run died holding it and no retry came back (empty on rows written before).
    resend = models.JSONField(default=list, blank=True)
    digest = models.BooleanField(default=False)  # waits, unsent, for its reader's daily digest
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notice_once")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id}: {self.key}"
