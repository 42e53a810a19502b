"""A match and what it is made of: its events, its thread, its decisions and its standing
orders."""

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
    season = models.ForeignKey(
        "Season", on_delete=models.PROTECT, null=True, blank=True, related_name="matches"
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
    # A league with the time bank: each TEAM:SIDE's bank (matches.services.banks). While
    # banks run, turn_deadline_at (or the open decision's deadline_at) is when the first runs
    # out, so the sweep finds them through the same indexes.
    banks = models.JSONField(default=dict, blank=True)
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


def open_decision(match: Match) -> Decision | None:
    """The latest unanswered question of the match; no query when its state awaits no answer
    (a question's row is written with the state that asks it, and closed with the one that
    answers it)."""
    if not match.state.get("pending"):
        return None
    return Decision.objects.filter(match=match, answered_at__isnull=True).order_by("-pk").first()
