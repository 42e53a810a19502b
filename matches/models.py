import hashlib
import json
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    """A match between two teams; its state is the fold of its events, cached in ``state``."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        PRE_MATCH = "pre_match", _("Pre-match")
        IN_PLAY = "in_play", _("In play")
        POST_MATCH = "post_match", _("Post-match")
        FINISHED = "finished", _("Finished")

    home_team = models.ForeignKey(
        "teams.Team", on_delete=models.PROTECT, related_name="home_matches", verbose_name=_("home")
    )
    away_team = models.ForeignKey(
        "teams.Team", on_delete=models.PROTECT, related_name="away_matches", verbose_name=_("away")
    )
    league = models.ForeignKey(
        "teams.League", on_delete=models.PROTECT, null=True, blank=True, related_name="matches"
    )
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="refereed_matches",
        verbose_name=_("game master"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.SCHEDULED
    )
    state = models.JSONField(_("state"), default=dict)
    lineup = models.JSONField(default=dict)  # engine player id -> roster facts (pk, name...)
    version = models.PositiveIntegerField(default=0)
    dice_seed = models.CharField(max_length=64, editable=False)
    dice_commitment = models.CharField(_("dice commitment"), max_length=64, editable=False)
    is_public = models.BooleanField(_("public"), default=True)
    turn_deadline_at = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The GM's controls: a paused or locked match takes no declarations, and its clocks stand
    # still from clock_stopped_at until both are lifted. substitutes: TEAM:SIDE -> user id of
    # the coach the GM put in for an absent one, for this match only.
    paused = models.BooleanField(_("paused"), default=False)
    locked = models.BooleanField(_("locked"), default=False)
    clock_stopped_at = models.DateTimeField(null=True, blank=True)
    substitutes = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(home_team=models.F("away_team")), name="match_two_teams"
            )
        ]

    def __str__(self) -> str:
        return f"{self.home_team} v {self.away_team}"

    @property
    def revealed_seed(self) -> str | None:
        """The dice seed is published only once the match is over."""
        return self.dice_seed if self.status == self.Status.FINISHED else None


class MatchEvent(models.Model):
    """Append-only, numbered per match; each row holds the hash of the previous one."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    data = models.JSONField(default=dict)
    half = models.PositiveSmallIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(default=0)
    post = models.ForeignKey(
        "Post", on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="event_number_per_match")
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.type}"

    @staticmethod
    def chain_hash(prev_hash: str, number: int, type: str, data: dict[str, Any]) -> str:
        body = json.dumps([prev_hash, number, type, data], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(body.encode()).hexdigest()


class Post(models.Model):
    """One entry of the match thread."""

    class Kind(models.TextChoices):
        DECLARATION = "declaration", _("Declaration")
        DECISION = "decision", _("Decision")
        IN_CHARACTER = "ic", _("In character")
        OUT_OF_CHARACTER = "ooc", _("Out of character")
        SYSTEM = "system", _("System")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="posts")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    actor = models.CharField(max_length=16, blank=True)
    half = models.PositiveSmallIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(default=0)
    team = models.CharField(max_length=4, blank=True)
    declaration = models.JSONField(null=True, blank=True)
    notation = models.CharField(max_length=200, blank=True)
    text = models.TextField(blank=True)
    html = models.TextField(blank=True)
    summary = models.JSONField(default=dict, blank=True)
    idempotency_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="post_number_per_match"),
            models.UniqueConstraint(
                fields=["match", "author", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="post_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"post {self.number} ({self.kind})"


class Decision(models.Model):
    """A question the engine waits for, addressed to one coach (``to`` is TEAM:SIDE)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="decisions")
    kind = models.CharField(max_length=32)
    to = models.CharField(max_length=16)
    options = models.JSONField(default=list)
    default = models.JSONField(null=True)
    preview = models.JSONField(default=list, blank=True)
    deadline_at = models.DateTimeField(db_index=True, null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answer = models.JSONField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at"]
        indexes = [
            models.Index(
                fields=["deadline_at"],
                condition=models.Q(answered_at__isnull=True),
                name="decision_open_idx",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.to}"


class Deadline(models.Model):
    """A moment after which the server acts for an absent coach; the beat sweep finds it."""

    kind = models.CharField(_("kind"), max_length=32)
    deadline_at = models.DateTimeField(_("deadline"), db_index=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("deadline")
        verbose_name_plural = _("deadlines")
        indexes = [
            models.Index(
                fields=["deadline_at"],
                condition=models.Q(applied_at__isnull=True),
                name="deadline_pending_idx",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} at {self.deadline_at:%Y-%m-%d %H:%M}"


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
