"""The matches app's models, by what they hold; every one is importable from here, as Django
and the migrations expect."""

from matches.models.league import (
    AuditEntry,
    Dispute,
    Fixture,
    HookAttempt,
    HookDelivery,
    LeagueHook,
    Season,
    SeasonTeam,
)
from matches.models.match import Decision, Match, MatchEvent, Post, StandingOrders, open_decision
from matches.models.people import (
    MAX_REMINDER_HOURS,
    MAX_REMINDERS,
    CoachPreferences,
    Notice,
    Vacation,
    Visit,
    known_time_zones,
    validate_reminders,
    validate_time_zone,
)
from matches.models.record import Advancement, PlayerMatchRecord, Sequence, TeamMatchRecord

__all__ = [
    "MAX_REMINDERS",
    "MAX_REMINDER_HOURS",
    "Advancement",
    "AuditEntry",
    "CoachPreferences",
    "Decision",
    "Dispute",
    "Fixture",
    "HookAttempt",
    "HookDelivery",
    "LeagueHook",
    "Match",
    "MatchEvent",
    "Notice",
    "PlayerMatchRecord",
    "Post",
    "Season",
    "SeasonTeam",
    "Sequence",
    "StandingOrders",
    "TeamMatchRecord",
    "Vacation",
    "Visit",
    "known_time_zones",
    "open_decision",
    "validate_reminders",
    "validate_time_zone",
]
