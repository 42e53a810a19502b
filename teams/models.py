from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import gamedata
from teams import rosters


def race_choices() -> list[tuple[str, str]]:
    return [(race.id, race.name) for race in gamedata.races()]


class Side(models.TextChoices):
    CAPTAIN = rosters.CAPTAIN, _("Captain's side")
    RIVAL = rosters.RIVAL, _("Rival's side")


# Seed 000: "Todos empezáis con VE 160", every team of the forum's leagues starts at team value
# 160 (1,600,000 gp); plain LRB5's 1,000,000 stays a league's choice.
VE_160 = 1_600_000


class League(models.Model):
    class RerollApproval(models.TextChoices):
        APPROVE = "approve", _("Approve")
        REFUSE = "refuse", _("Refuse")

    class RivalRerolls(models.TextChoices):
        """House rule 5: the design's approval, or seed 000 taken literally."""

        APPROVED = "approved", _("The captain approves each")
        FREE = "free", _("Either side uses them freely")

    class Clock(models.TextChoices):
        DEADLINES = "deadlines", _("Fixed deadlines for each turn and decision")
        BANK = "bank", _("A time bank for each side")

    class BankRunOut(models.TextChoices):
        DEFAULTS = "defaults", _("The defaults apply, as when a deadline passes")
        GM = "gm", _("The match is paused until the GM rules")

    name = models.CharField(_("name"), max_length=100, unique=True)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="leagues_run",
        verbose_name=_("game master"),
    )
    starting_treasury = models.PositiveIntegerField(
        _("starting treasury (gp)"),
        default=VE_160,
        help_text=_(
            "The forum's leagues start at team value 160 (1,600,000); plain LRB5 at 1,000,000."
        ),
    )
    turn_deadline_hours = models.PositiveSmallIntegerField(_("turn deadline (hours)"), default=48)
    decision_deadline_hours = models.PositiveSmallIntegerField(
        _("decision deadline (hours)"), default=12
    )
    blitz_claim_window_hours = models.PositiveSmallIntegerField(
        _("Blitz claim window (hours)"), default=6
    )
    reroll_approval_default = models.CharField(
        _("default answer to a reroll request"),
        max_length=8,
        choices=RerollApproval.choices,
        default=RerollApproval.APPROVE,
    )
    rival_rerolls = models.CharField(
        _("the rival's team rerolls"),
        max_length=8,
        choices=RivalRerolls.choices,
        default=RivalRerolls.APPROVED,
    )
    clock = models.CharField(
        _("clock"), max_length=10, choices=Clock.choices, default=Clock.DEADLINES
    )
    bank_hours = models.PositiveSmallIntegerField(
        _("time bank of each side for a match (hours)"),
        default=72,
        validators=[MinValueValidator(1)],
        help_text=_("With the time bank: each side's bank runs only while that side must act."),
    )
    bank_increment_hours = models.PositiveSmallIntegerField(
        _("time added to each side's bank every turn of its team (hours)"), default=12
    )
    bank_run_out = models.CharField(
        _("when a time bank runs out"),
        max_length=10,
        choices=BankRunOut.choices,
        default=BankRunOut.DEFAULTS,
    )
    vacation_days = models.PositiveSmallIntegerField(
        _("vacation days per season"),
        default=7,
        help_text=_(
            "Each coach's allowance for a calendar year: a vacation stops that coach's "
            "deadlines and time banks."
        ),
    )
    points_win = models.SmallIntegerField(_("points for a win"), default=3)
    points_draw = models.SmallIntegerField(_("points for a draw"), default=1)
    points_loss = models.SmallIntegerField(_("points for a loss"), default=0)
    live_matches_count = models.BooleanField(
        _("live matches (3-LIVE-BB) count in the standings"), default=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(turn_deadline_hours__gt=0)
                & Q(decision_deadline_hours__gt=0)
                & Q(blitz_claim_window_hours__gt=0),
                name="league_deadlines_positive",
            ),
            models.CheckConstraint(
                condition=Q(reroll_approval_default__in=["approve", "refuse"]),
                name="league_reroll_approval_valid",
            ),
            models.CheckConstraint(
                condition=Q(rival_rerolls__in=["approved", "free"]),
                name="league_rival_rerolls_valid",
            ),
            models.CheckConstraint(
                condition=Q(clock__in=["deadlines", "bank"])
                & Q(bank_run_out__in=["defaults", "gm"])
                & Q(bank_hours__gt=0),
                name="league_clock_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    name = models.CharField(_("name"), max_length=80)
    race = models.CharField(_("race"), max_length=32, choices=race_choices)
    league = models.ForeignKey(
        League,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="teams",
        verbose_name=_("league"),
    )
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="teams_captained",
        verbose_name=_("captain"),
    )
    rival = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="teams_as_rival",
        verbose_name=_("rival coach"),
    )
    rerolls = models.PositiveSmallIntegerField(_("team rerolls"), default=0)
    fan_factor = models.PositiveSmallIntegerField(_("fan factor"), default=0)
    assistant_coaches = models.PositiveSmallIntegerField(_("assistant coaches"), default=0)
    cheerleaders = models.PositiveSmallIntegerField(_("cheerleaders"), default=0)
    apothecary = models.BooleanField(_("apothecary"), default=False)
    captain_treasury = models.PositiveIntegerField(_("captain's treasury (gp)"), default=0)
    rival_treasury = models.PositiveIntegerField(_("rival's treasury (gp)"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="team_name_unique_in_league"),
            models.CheckConstraint(
                condition=Q(captain_treasury__gte=0) & Q(rival_treasury__gte=0),
                name="team_treasuries_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(rerolls__lte=gamedata.team_building().max_rerolls),
                name="team_rerolls_at_most_8",
            ),
            models.CheckConstraint(
                condition=Q(rival__isnull=True) | ~Q(rival=F("captain")),
                name="team_rival_is_not_the_captain",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("teams:detail", args=[self.pk])

    @property
    def race_data(self) -> gamedata.Race:
        return gamedata.race(self.race)

    def roster(self) -> list["Player"]:
        """The players on the roster, active ones and journeymen, by number (uses a prefetch)."""
        players = [p for p in self.players.all() if p.status in Player.ON_ROSTER]
        return sorted(players, key=lambda p: (p.number, p.pk))

    def treasury(self, side: str) -> int:
        return self.captain_treasury if side == Side.CAPTAIN else self.rival_treasury

    def side_value(self, side: str) -> int:
        """The value of the side's players available for the next match."""
        return sum(p.value for p in self.roster() if p.side == side and not p.miss_next_game)

    @property
    def staff_value(self) -> int:
        return rosters.staff_cost(
            fan_factor=self.fan_factor,
            assistant_coaches=self.assistant_coaches,
            cheerleaders=self.cheerleaders,
            apothecary=self.apothecary,
        )

    @property
    def rerolls_value(self) -> int:
        return self.rerolls * self.race_data.reroll_cost

    @property
    def value(self) -> int:
        """LRB5 team value: available players, rerolls at their roster price, staff, FF."""
        available = sum(p.value for p in self.roster() if not p.miss_next_game)
        return available + self.rerolls_value + self.staff_value

    def controls(self, user: AbstractBaseUser | AnonymousUser, side: str) -> bool:
        """Whether the user coaches that side (the captain holds both until a rival joins)."""
        if not user.is_authenticated:
            return False
        if side == Side.CAPTAIN:
            return bool(user.pk == self.captain_id)
        return bool(user.pk == (self.rival_id if self.rival_id is not None else self.captain_id))

    def is_coach(self, user: AbstractBaseUser | AnonymousUser) -> bool:
        return user.is_authenticated and user.pk in (self.captain_id, self.rival_id)


class Player(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        DEAD = "dead", _("Dead")
        RETIRED = "retired", _("Retired")
        FIRED = "fired", _("Fired")
        JOURNEYMAN = "journeyman", _("Journeyman")

    ON_ROSTER = (Status.ACTIVE, Status.JOURNEYMAN)

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="players", verbose_name=_("team")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=80)
    position = models.CharField(_("position"), max_length=64)
    side = models.CharField(_("side"), max_length=8, choices=Side.choices)
    spp = models.PositiveIntegerField(_("SPP"), default=0)
    skills = models.JSONField(_("skills gained"), default=list, blank=True)
    niggling_injuries = models.PositiveSmallIntegerField(_("niggling injuries"), default=0)
    miss_next_game = models.BooleanField(_("misses the next game"), default=False)
    ma_loss = models.PositiveSmallIntegerField(_("MA lost"), default=0)
    st_loss = models.PositiveSmallIntegerField(_("ST lost"), default=0)
    ag_loss = models.PositiveSmallIntegerField(_("AG lost"), default=0)
    av_loss = models.PositiveSmallIntegerField(_("AV lost"), default=0)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.ACTIVE
    )
    hired_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["team", "number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "number"],
                condition=Q(status__in=["active", "journeyman"]),
                name="player_number_unique_on_roster",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=rosters.NUMBER_MAX),
                name="player_number_1_to_99",
            ),
            models.CheckConstraint(condition=Q(side__in=rosters.SIDES), name="player_side_valid"),
            models.CheckConstraint(
                condition=Q(status__in=["active", "dead", "retired", "fired", "journeyman"]),
                name="player_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"

    def clean(self) -> None:
        """The admin's check: a position of the team's race and skills it can learn."""
        try:
            position = gamedata.position(self.position)
        except gamedata.UnknownPosition:
            raise ValidationError({"position": _("Unknown position.")}) from None
        if self.team_id is not None and position.race_id != self.team.race:
            raise ValidationError({"position": _("The position is not of the team's race.")})
        if not isinstance(self.skills, list):
            raise ValidationError({"skills": _("A list of skills.")})
        problems = rosters.gained_problems(position, [str(s) for s in self.skills])
        if problems:
            raise ValidationError({"skills": problems})

    @property
    def position_data(self) -> gamedata.Position:
        return gamedata.position(self.position)

    @property
    def gained(self) -> list[str]:
        return [str(item) for item in self.skills or []]

    @property
    def value(self) -> int:
        return rosters.player_value(self.position_data, self.gained)

    def stat(self, name: str) -> int:
        loss = {"MA": self.ma_loss, "ST": self.st_loss, "AG": self.ag_loss, "AV": self.av_loss}
        return rosters.current_stat(self.position_data, name, self.gained, loss[name])

    @property
    def stat_line(self) -> list[tuple[str, int, str]]:
        """Each characteristic as (label, value, "up"/"down"/"") against the position's."""
        line = []
        for stat in gamedata.STATS:
            value, base = self.stat(stat), self.position_data.stat(stat)
            change = "down" if value < base else "up" if value > base else ""
            line.append((str(rosters.STAT_LABELS[stat]), value, change))
        return line

    @property
    def injury_labels(self) -> list[str]:
        labels = []
        if self.niggling_injuries:
            labels.append(
                ngettext(
                    "%(count)d niggling injury",
                    "%(count)d niggling injuries",
                    self.niggling_injuries,
                )
                % {"count": self.niggling_injuries}
            )
        if self.miss_next_game:
            labels.append(gettext("misses the next game"))
        for stat, loss in (
            ("MA", self.ma_loss),
            ("ST", self.st_loss),
            ("AG", self.ag_loss),
            ("AV", self.av_loss),
        ):
            if loss:
                labels.append(f"-{loss} {rosters.STAT_LABELS[stat]}")
        return labels

    @property
    def injuries(self) -> list[str]:
        """Lasting injuries as the export writes them: niggling, miss_next_game, -MA ..."""
        found = ["niggling"] * self.niggling_injuries
        if self.miss_next_game:
            found.append("miss_next_game")
        for stat, loss in (
            ("MA", self.ma_loss),
            ("ST", self.st_loss),
            ("AG", self.ag_loss),
            ("AV", self.av_loss),
        ):
            found.extend([f"-{stat}"] * loss)
        return found


class Invitation(models.Model):
    """The captain asks a user to coach the rival's side; the user accepts or declines."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("team")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="team_invitations",
        verbose_name=_("invited coach"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["team"],
                condition=Q(status="pending"),
                name="invitation_one_pending_per_team",
            )
        ]

    def __str__(self) -> str:
        return f"{self.team} -> {self.user}"

    @classmethod
    def pending_for(cls, user: AbstractBaseUser) -> "models.QuerySet[Invitation]":
        """The invitations waiting for the user's answer, with their team and its captain."""
        return cls.objects.filter(user=user, status=cls.Status.PENDING).select_related(
            "team", "team__captain"
        )


class MoveProposal(models.Model):
    """The captain proposes to move a player to the other side; the rival agrees or refuses."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        REFUSED = "refused", _("Refused")

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="move_proposals", verbose_name=_("player")
    )
    to_side = models.CharField(_("to side"), max_length=8, choices=Side.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("move proposal")
        verbose_name_plural = _("move proposals")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(status="pending"),
                name="move_one_pending_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} -> {self.to_side}"
