"""A league's organisation around its matches: disputes, fixtures, seasons, the audit, its
hooks."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from matches.models.match import Match, MatchEvent, Post


class Dispute(models.Model):
    """A coach's objection to an event or a post of the thread; the match's GM rules on it."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DISMISSED = "dismissed", _("Dismissed")
        UPHELD = "upheld", _("Upheld")

    class Ruling(models.TextChoices):
        DISMISS = "dismiss", _("Dismiss")
        UPHOLD = "uphold", _("Uphold with a note")
        REWIND = "rewind", _("Rewind to before the event")
        GRANT_REROLL = "grant_reroll", _("Grant a re-roll")
        CORRECT = "correct", _("Correct a player")
        EXTEND_DEADLINE = "extend_deadline", _("Extend the deadline")
        PAUSE = "pause", _("Pause the match")
        AWARD = "award", _("Award the match")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes")
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="disputes_raised"
    )
    actor = models.CharField(max_length=16)
    event = models.ForeignKey(
        MatchEvent, on_delete=models.PROTECT, null=True, blank=True, related_name="disputes"
    )
    post = models.ForeignKey(
        Post, on_delete=models.PROTECT, null=True, blank=True, related_name="disputes"
    )
    reason = models.TextField(_("reason"))
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.OPEN
    )
    ruling = models.CharField(_("ruling"), max_length=16, choices=Ruling.choices, blank=True)
    note = models.TextField(_("note"), blank=True)
    ruled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(event__isnull=False) | models.Q(post__isnull=False),
                name="dispute_on_event_or_post",
            )
        ]

    def __str__(self) -> str:
        return f"dispute {self.pk} on {self.match}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Fixture(models.Model):
    """A scheduled meeting of two league teams; ``match`` is set once it is played."""

    league = models.ForeignKey(
        "teams.League", on_delete=models.CASCADE, related_name="fixtures", verbose_name=_("league")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    home = models.ForeignKey(
        "teams.Team", on_delete=models.CASCADE, related_name="home_fixtures", verbose_name=_("home")
    )
    away = models.ForeignKey(
        "teams.Team", on_delete=models.CASCADE, related_name="away_fixtures", verbose_name=_("away")
    )
    match = models.OneToOneField(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="fixture"
    )
    season = models.ForeignKey(
        "Season", on_delete=models.CASCADE, null=True, blank=True, related_name="fixtures"
    )
    division = models.CharField(_("division"), max_length=40, blank=True)
    knockout = models.BooleanField(_("knockout"), default=False)
    slot = models.PositiveSmallIntegerField(null=True, blank=True)  # place in its bracket round
    scheduled_for = models.DateField(_("scheduled for"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("fixture")
        verbose_name_plural = _("fixtures")
        ordering = ["league", "round", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(home=models.F("away")), name="fixture_two_teams"
            ),
            models.CheckConstraint(condition=models.Q(round__gte=1), name="fixture_round_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.home} v {self.away} (round {self.round})"


class Season(models.Model):
    """A league's season: its teams (in divisions), fixtures and matches; once closed, its
    standings and awards are frozen as they stood."""

    league = models.ForeignKey(
        "teams.League", on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    number = models.PositiveSmallIntegerField(_("season"))
    closed_at = models.DateTimeField(null=True, blank=True)
    table = models.JSONField(default=list, blank=True)  # the standings when it closed
    awards = models.JSONField(default=list, blank=True)  # [{"award", "player", "team", "value"}]
    champion = models.ForeignKey(
        "teams.Team", on_delete=models.SET_NULL, null=True, blank=True, related_name="titles"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.league} {self.number}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class SeasonTeam(models.Model):
    """A team playing a season, in a division (blank: the season has no divisions)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, related_name="seasons")
    division = models.CharField(_("division"), max_length=40, blank=True)

    class Meta:
        ordering = ["season", "division", "team__name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["season", "team"], name="season_team_once"),
        ]

    def __str__(self) -> str:
        return f"{self.team_id} in {self.season_id}"


class AuditEntry(models.Model):
    """One GM action, for the league's coaches to read."""

    league = models.ForeignKey(
        "teams.League", on_delete=models.CASCADE, null=True, blank=True, related_name="audit"
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="audit"
    )
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="audit_entries"
    )
    action = models.CharField(_("action"), max_length=32)
    note = models.TextField(_("note"), blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.action} by {self.gm}"


class LeagueHook(models.Model):
    """Where a league's news is posted: a Discord channel's webhook, or any receiver of signed
    JSON (README, "Webhooks"). A hook that keeps failing is switched off (``failures``)."""

    class Kind(models.TextChoices):
        DISCORD = "discord", _("Discord")
        JSON = "json", _("JSON, signed")

    class Event(models.TextChoices):
        TURN_POSTED = "turn_posted", _("a turn is posted")
        TURN_BEGINS = "turn_begins", _("a side's turn begins")
        DECISION_WAITING = "decision_waiting", _("a decision is waiting")
        DEADLINE_NEAR = "deadline_near", _("a deadline is near")
        MATCH_RESULT = "match_result", _("a match's result")
        DISPUTE_OPENED = "dispute_opened", _("a dispute is opened")
        FIXTURE_SCHEDULED = "fixture_scheduled", _("a fixture is scheduled")

    league = models.ForeignKey("teams.League", on_delete=models.CASCADE, related_name="hooks")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.DISCORD)
    url = models.URLField(_("address"), max_length=500)
    secret = models.CharField(max_length=64, editable=False)
    events = models.JSONField(_("events"), default=list)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    enabled = models.BooleanField(_("enabled"), default=True)
    failures = models.PositiveIntegerField(default=0)  # failed tries in a row
    sending_until = models.DateTimeField(null=True, blank=True)  # a run's lease on the hook
    disabled_at = models.DateTimeField(null=True, blank=True)  # switched off for failing
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.kind} hook of league {self.league_id}"


class HookDelivery(models.Model):
    """One event for one hook, sent once: the hook's deliveries go out in the order written
    (so in order per match), the next only once the one before it was accepted."""

    hook = models.ForeignKey(LeagueHook, on_delete=models.CASCADE, related_name="deliveries")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True)
    event = models.CharField(max_length=24, choices=LeagueHook.Event.choices)
    key = models.CharField(max_length=120)
    payload = models.JSONField(default=dict)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["hook", "key"], name="hook_delivery_once")]
        indexes = [models.Index(fields=["hook", "delivered_at"], name="hook_delivery_pending")]

    def __str__(self) -> str:
        return f"{self.event} to hook {self.hook_id}: {self.key}"


class HookAttempt(models.Model):
    """One try of a delivery: the delivery log the league's GM reads."""

    delivery = models.ForeignKey(HookDelivery, on_delete=models.CASCADE, related_name="attempts")
    at = models.DateTimeField(auto_now_add=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    ok = models.BooleanField(default=False)
    error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return f"try of {self.delivery_id}: {self.status_code or self.error}"
