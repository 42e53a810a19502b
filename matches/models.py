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
    # While a decision is pending the active team's clock stops: what was left is kept here.
    turn_time_left = models.DurationField(_("turn time left"), null=True, blank=True)
    turn_warnings_sent = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The GM's controls: a paused or locked match takes no declarations, and its clocks stand
    # still from clock_stopped_at until both are lifted. substitutes: TEAM:SIDE -> user id of
    # the coach the GM put in for an absent one, for this match only.
    paused = models.BooleanField(_("paused"), default=False)
    locked = models.BooleanField(_("locked"), default=False)
    clock_stopped_at = models.DateTimeField(null=True, blank=True)
    substitutes = models.JSONField(default=dict, blank=True)
    # The heads of the thread and of the hash chain, moved on in the transaction that adds
    # posts or events: the write that locks the row reads them with it, so two writers never
    # read the same heads. Before the first event the hash is the chain's genesis.
    last_post_number = models.PositiveIntegerField(default=0)
    last_event_number = models.PositiveIntegerField(default=0)
    last_event_hash = models.CharField(max_length=64, default="0" * 64)
    HEADS = ("last_post_number", "last_event_number", "last_event_hash")
    # Moved on by what changes how posts already shown read without changing their rows (a
    # rewind undoing their events): the page's cached fragments are keyed by it. An edited
    # post's fragment is keyed by its new text itself.
    thread_version = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(home_team=models.F("away_team")), name="match_two_teams"
            )
        ]
        indexes = [
            models.Index(
                fields=["turn_deadline_at"],
                condition=models.Q(turn_deadline_at__isnull=False),
                name="match_turn_deadline_idx",
            )
        ]

    def __str__(self) -> str:
        return f"{self.home_team} v {self.away_team}"

    def fields_for_copies(self, *leaving_out: str) -> dict[str, Any]:
        """The fields a copy of this match takes (benchmarks and fault drills make many): not
        its id, creation time or thread heads, since a copy starts with no posts of its own."""
        skipped = {"id", "created_at", *self.HEADS, *leaving_out}
        return {
            f.name: getattr(self, f.name)
            for f in self._meta.concrete_fields
            if f.name not in skipped
        }

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
    # The GM's ruling (a rewind or a re-roll) that took back this post's play: the thread
    # marks the post undone and links it to the ruling's post.
    undone_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="undid"
    )
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

    class AnsweredBy(models.TextChoices):
        COACH = "coach", _("the coach")
        DEFAULT = "default", _("the deadline's default")
        STANDING_ORDER = "standing_order", _("a standing order")
        CONTEST = "contest", _("the opposed roll")

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
    answered_how = models.CharField(max_length=16, choices=AnsweredBy.choices, blank=True)
    # A Blitz claim the captain contested (or whose window closed) waits for the opposed roll.
    contested_at = models.DateTimeField(null=True, blank=True)
    warnings_sent = models.PositiveSmallIntegerField(default=0)
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


class StandingOrders(models.Model):
    """A coach's pre-set answers for one match, seen only by that coach and the match's GM."""

    class BlockDie(models.TextChoices):
        ASK = "", _("ask me")
        BEST = "best", _("the best die for me")
        PUSHED = "pushed", _("a Pushed result when there is one, else the best")
        BOTH_DOWN = "both_down", _("Both Down when there is one, else the best")

    class Intercept(models.TextChoices):
        ASK = "", _("ask me")
        NEVER = "never", _("never intercept")
        ALWAYS = "always", _("always intercept with the named player")

    class BlockReroll(models.TextChoices):
        ASK = "ask", _("ask me on every block")
        ASK_WHEN_DOWN = "ask_when_down", _("ask me only when my attacker would go down")
        WHEN_DOWN = "when_down", _("re-roll when my attacker would go down, else keep the dice")
        NEVER = "never", _("never re-roll block dice")

    class Wrestle(models.TextChoices):
        ASK = "ask", _("ask me")
        ALWAYS = "always", _("always when my player would go down (asked when nobody would)")
        NEVER = "never", _("never wrestle")

    class BreakTackle(models.TextChoices):
        ASK = "ask", _("ask me")
        ALWAYS = "always", _("always when it saves the dodge (the team reroll kept)")

    # The defaults for the decisions a block raises keep a match moving without asking on
    # every block: the block dice are offered again only when the attacker would go down (the
    # old rule, when a reroll was only offered then); Wrestle is taken whenever its owner would
    # otherwise go down (no armour roll, no turnover), which is almost always better; Break
    # Tackle is used where it saves the dodge, which keeps the team reroll. A coach without
    # standing orders is answered by these same defaults.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="standing_orders")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="standing_orders"
    )
    reroll_dodge = models.BooleanField(_("team reroll on a failed dodge"), default=False)
    reroll_pickup = models.BooleanField(_("team reroll on a failed pick-up"), default=False)
    reroll_gfi = models.BooleanField(_("team reroll on a failed Going For It"), default=False)
    approve_rival_rerolls = models.BooleanField(
        _("approve the rival's reroll requests (captain)"), default=False
    )
    block_die = models.CharField(
        _("block die as the defender"), max_length=12, choices=BlockDie.choices, blank=True
    )
    intercept = models.CharField(
        _("interceptions"), max_length=8, choices=Intercept.choices, blank=True
    )
    intercept_player = models.CharField(_("interceptor"), max_length=8, blank=True)
    block_reroll = models.CharField(
        _("team reroll of the block dice"),
        max_length=16,
        choices=BlockReroll.choices,
        default=BlockReroll.ASK_WHEN_DOWN,
    )
    wrestle = models.CharField(
        _("Wrestle"), max_length=8, choices=Wrestle.choices, default=Wrestle.ALWAYS
    )
    break_tackle = models.CharField(
        _("Break Tackle"), max_length=8, choices=BreakTackle.choices, default=BreakTackle.ALWAYS
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("standing orders")
        verbose_name_plural = _("standing orders")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="standing_orders_per_coach")
        ]

    def __str__(self) -> str:
        return f"orders of {self.user_id} in match {self.match_id}"


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


class CoachPreferences(models.Model):
    """Which e-mails a coach wants, and in which language."""

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

    class Meta:
        verbose_name = _("notification preferences")
        verbose_name_plural = _("notification preferences")

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, f"email_{kind}", False))


class Notice(models.Model):
    """One e-mail to one user: the unique key makes it once only. ``sent`` is False while a run
    holds it (until ``sending_until``) or after a failed attempt; see matches.notices.emails."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=120)
    sent = models.BooleanField(default=False)
    sending_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notice_once")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id}: {self.key}"


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


def open_decision(match: Match) -> Decision | None:
    """The latest unanswered question of the match; no query when its state awaits no answer
    (a question's row is written with the state that asks it, and closed with the one that
    answers it)."""
    if not match.state.get("pending"):
        return None
    return Decision.objects.filter(match=match, answered_at__isnull=True).order_by("-pk").first()
