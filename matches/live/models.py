"""A live match and its log. The state is a JSON document (game.py reads and changes it); every
change appends events, and a posted form's idempotency key is kept on its first event so a
retry after a dropped connection is applied once."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class LiveMatch(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    league = models.ForeignKey(
        "teams.League",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="live_matches",
        verbose_name=_("league"),
    )
    # A team of bbweb, or none for a quick roster typed at the field (then only the name).
    home_team = models.ForeignKey(
        "teams.Team",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("home"),
    )
    away_team = models.ForeignKey(
        "teams.Team",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("away"),
    )
    home_name = models.CharField(_("home"), max_length=80)
    away_name = models.CharField(_("away"), max_length=80)
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="live_matches_refereed",
        verbose_name=_("referee"),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PLAYING
    )
    state = models.JSONField(_("state"), default=dict)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("live match")
        verbose_name_plural = _("live matches")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(home_team=models.F("away_team")), name="live_match_two_teams"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.home_name} v {self.away_name} (live)"

    def get_absolute_url(self) -> str:
        return reverse("live:match", args=[self.pk])


class LiveEvent(models.Model):
    """Append-only, numbered per live match: every challenge, throw and ruling."""

    match = models.ForeignKey(LiveMatch, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    idempotency_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="live_event_number_per_match"),
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="live_event_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.type}"
