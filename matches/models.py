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
    # The declaration's post: its dice and events go there once the declaration completes.
    post = models.ForeignKey(
        "Post", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
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


class Sequence(models.Model):
    """Where a match stands in its pre- and post-match sequence, and the step's deadline."""

    class Step(models.TextChoices):
        PETTY_CASH_FAVOURITE = "petty_cash_favourite", _("Petty cash (the higher-value team)")
        PETTY_CASH_UNDERDOG = "petty_cash_underdog", _("Petty cash (the lower-value team)")
        INDUCEMENTS_FAVOURITE = "inducements_favourite", _("Inducements (the higher-value team)")
        INDUCEMENTS_UNDERDOG = "inducements_underdog", _("Inducements (the lower-value team)")
        PLAYING = "playing", _("Playing")
        AWARDS = "awards", _("Winnings and MVP awards")
        ADVANCEMENT = "advancement", _("Advancement")
        DONE = "done", _("Done")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="sequence")
    step = models.CharField(_("step"), max_length=24, choices=Step.choices)
    favourite = models.CharField(max_length=4, default="home")  # decides first (seed 003)
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    dice_used = models.PositiveIntegerField(default=0)  # rolls of the sequence's own stream

    def __str__(self) -> str:
        return f"{self.match}: {self.step}"

    @property
    def underdog(self) -> str:
        return "away" if self.favourite == "home" else "home"


class TeamMatchRecord(models.Model):
    """One team in one match: what it paid before, what it earned after (the team history)."""

    class Result(models.TextChoices):
        WIN = "win", _("Win")
        DRAW = "draw", _("Draw")
        LOSS = "loss", _("Loss")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="team_records")
    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, related_name="match_records")
    key = models.CharField(max_length=4)  # home / away
    value_before = models.PositiveIntegerField(default=0)
    petty_cash_captain = models.PositiveIntegerField(null=True, blank=True)  # None: not decided
    petty_cash_rival = models.PositiveIntegerField(null=True, blank=True)
    handicap = models.PositiveIntegerField(default=0)
    inducements = models.JSONField(null=True, blank=True)  # None: not bought yet
    inducements_cost = models.PositiveIntegerField(default=0)
    fans = models.PositiveIntegerField(null=True, blank=True)
    fame = models.PositiveSmallIntegerField(default=0)
    score_for = models.PositiveSmallIntegerField(default=0)
    score_against = models.PositiveSmallIntegerField(default=0)
    result = models.CharField(max_length=4, choices=Result.choices, blank=True)
    winnings_dice = models.JSONField(default=list, blank=True)
    winnings_reroll = models.BooleanField(null=True, blank=True)  # the winner's choice
    winnings = models.PositiveIntegerField(default=0)
    spiralling_expenses = models.PositiveIntegerField(default=0)
    captain_value = models.PositiveIntegerField(default=0)
    rival_value = models.PositiveIntegerField(default=0)
    captain_share = models.PositiveIntegerField(default=0)
    rival_share = models.PositiveIntegerField(default=0)
    fan_factor_dice = models.JSONField(default=list, blank=True)
    fan_factor_change = models.SmallIntegerField(default=0)
    # The awards this team's players receive, chosen by the opposing captain (engine ids).
    mje = models.CharField(max_length=8, blank=True)
    pje = models.CharField(max_length=8, blank=True)
    mvp_chosen = models.BooleanField(default=False)
    value_after = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "key"]
        constraints = [
            models.UniqueConstraint(fields=["match", "team"], name="team_record_once_per_match")
        ]

    def __str__(self) -> str:
        return f"{self.team} in {self.match}"

    @property
    def petty_cash(self) -> int:
        return (self.petty_cash_captain or 0) + (self.petty_cash_rival or 0)


class PlayerMatchRecord(models.Model):
    """One player's match: achievements, award, SPP earned and the injury suffered."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="player_records")
    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        "teams.Player",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="match_records",
    )  # None for star players and mercenaries
    engine_id = models.CharField(max_length=8)
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=12, default="player")  # player / star / mercenary
    completions = models.PositiveSmallIntegerField(default=0)
    touchdowns = models.PositiveSmallIntegerField(default=0)
    casualties = models.PositiveSmallIntegerField(default=0)
    interceptions = models.PositiveSmallIntegerField(default=0)
    award = models.CharField(max_length=4, blank=True)  # mje / pje
    spp = models.PositiveSmallIntegerField(default=0)
    injury = models.CharField(max_length=20, blank=True)  # the engine's casualty code

    class Meta:
        ordering = ["match", "engine_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "engine_id"], name="player_record_once_per_match"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.match}"


class Advancement(models.Model):
    """An improvement roll waiting for (or given) the choice of the coach of the player's side."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="advancements")
    player = models.ForeignKey(
        "teams.Player", on_delete=models.CASCADE, related_name="advancements"
    )
    dice = models.JSONField(default=list)
    options = models.JSONField(default=list)
    choice = models.CharField(max_length=40, blank=True)
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    chosen_at = models.DateTimeField(null=True, blank=True)
    chosen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )

    class Meta:
        ordering = ["match", "pk"]

    def __str__(self) -> str:
        return f"{self.player}: {self.dice}"

    @property
    def double(self) -> bool:
        return len(self.dice) == 2 and self.dice[0] == self.dice[1]
