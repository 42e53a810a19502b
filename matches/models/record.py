"""What a match leaves behind: its pre- and post-match sequence, its records, its
advancements."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from matches.models.match import Match


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
    winnings_dice_at = models.JSONField(default=list, blank=True)  # in the sequence's stream
    winnings_reroll = models.BooleanField(null=True, blank=True)  # the winner's choice
    winnings = models.PositiveIntegerField(default=0)
    spiralling_expenses = models.PositiveIntegerField(default=0)
    captain_value = models.PositiveIntegerField(default=0)
    rival_value = models.PositiveIntegerField(default=0)
    captain_share = models.PositiveIntegerField(default=0)
    rival_share = models.PositiveIntegerField(default=0)
    fan_factor_dice = models.JSONField(default=list, blank=True)
    fan_factor_dice_at = models.JSONField(default=list, blank=True)  # in the sequence's stream
    fan_factor_change = models.SmallIntegerField(default=0)
    # The awards this team's players receive, chosen by the opposing captain (engine ids).
    mje = models.CharField(max_length=8, blank=True)
    pje = models.CharField(max_length=8, blank=True)
    mvp_chosen = models.BooleanField(default=False)
    value_after = models.PositiveIntegerField(null=True, blank=True)
    # Both sides' treasuries when the sequence ends (the team history's chart); None before.
    treasury_after = models.PositiveIntegerField(null=True, blank=True)

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
    dice_at = models.JSONField(default=list, blank=True)  # in the sequence's stream
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
