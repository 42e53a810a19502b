"""clocks: when a deadline falls, and the turn clock that runs, stops and stands.

A deadline is pushed back past a coach's vacation; a deadline set close enough counts its
warning as already sent; the turn clock stops while a decision is pending and stands while the
GM pauses or locks the match. A league may choose time banks instead (``banks``): the turn
clock's functions then run the banks.
"""

from datetime import datetime, timedelta

from django.db.models import F
from django.utils import timezone

from matches.models import Match
from matches.services import banks, core
from matches.services.clockwork import away_until, warnings_already_due
from rules.engine import MatchState

DEFAULT_DECISION_HOURS = 12
DEFAULT_TURN_HOURS = 48
DEFAULT_CLAIM_WINDOW_HOURS = 6


def deadline_from(match: Match, actors: list[str], now: datetime, length: timedelta) -> datetime:
    """``length`` from now, or from the end of the vacation of a coach it is addressed to."""
    back = away_until(match, actors, now)
    return (now if back is None else max(now, back)) + length


def start_turn_clock(match: Match, state: MatchState) -> None:
    if banks.uses_bank(match):
        banks.follow(match, state)
        return
    hours = match.league.turn_deadline_hours if match.league else DEFAULT_TURN_HOURS
    now = core.now()
    actors = [f"{state.active}:captain", f"{state.active}:rival"]
    match.turn_deadline_at = deadline_from(match, actors, now, timedelta(hours=hours))
    match.turn_time_left = None
    match.turn_warnings_sent = warnings_already_due(match.turn_deadline_at - now)


def run_turn_clock(match: Match, *, paused: bool, state: MatchState | None = None) -> None:
    """The active team's clock stops while a decision is pending and goes on from where it
    stopped once none is. With the time bank, the banks of those who must act in ``state``
    run (a question's own bank started when it was asked)."""
    if banks.uses_bank(match):
        if paused:
            match.turn_deadline_at = None
        elif state is not None:
            banks.follow(match, state)
        return
    now = core.now()
    if paused and match.turn_deadline_at is not None:
        match.turn_time_left = max(match.turn_deadline_at - now, timedelta(0))
        match.turn_deadline_at = None
    elif not paused and match.turn_time_left is not None:
        match.turn_deadline_at = now + match.turn_time_left
        match.turn_time_left = None


def restart_clocks(match: Match) -> None:
    """Once neither paused nor locked: every deadline moves on by the time the clocks stood."""
    if match.paused or match.locked or match.clock_stopped_at is None:
        return
    stood = timezone.now() - match.clock_stopped_at
    match.clock_stopped_at = None
    if banks.uses_bank(match):
        banks.stood(match, stood)
    if match.turn_deadline_at is not None:
        match.turn_deadline_at += stood
    match.decisions.filter(answered_at__isnull=True, deadline_at__isnull=False).update(
        deadline_at=F("deadline_at") + stood
    )
