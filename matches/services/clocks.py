"""clocks: when a deadline falls, and the turn clock that runs, stops and stands.

A deadline is pushed back past a coach's vacation; a deadline set close enough counts its
warning as already sent; the turn clock stops while a decision is pending and stands while the
GM pauses or locks the match.
"""

from datetime import datetime, timedelta

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import F
from django.utils import timezone

from matches.models import Match, Vacation
from matches.services import buffer, core
from matches.services.actors import coach_of
from rules.engine import MatchState

DEFAULT_DECISION_HOURS = 12
DEFAULT_TURN_HOURS = 48
DEFAULT_CLAIM_WINDOW_HOURS = 6
WARNINGS = ((2, timedelta(hours=2)), (1, timedelta(hours=24)))  # (stage, how long before)


def warnings_already_due(length: timedelta) -> int:
    """A deadline set less than 24 h (2 h) away: the notice that announces it is the warning."""
    return next((stage for stage, ahead in WARNINGS if length <= ahead), 0)


def deadline_from(match: Match, actors: list[str], now: datetime, length: timedelta) -> datetime:
    """``length`` from now, or from the end of the vacation of a coach it is addressed to."""
    start = now
    if match.league_id is not None:
        users = [coach_of(match, actor) for actor in actors]
        writes = buffer.current()
        locked_ends = core.vacation_ends(match)
        if writes is not None:
            away_until = writes.batch.away_until(match.league_id, users, now)
        elif locked_ends is not None:
            ends = [end for user in users if (end := locked_ends.get(user)) and end > now]
            away_until = max(ends, default=None)
        else:
            away_until = _latest_vacation_end(match.league_id, users, now)
        if away_until is not None:
            start = max(now, away_until)
    return start + length


def _latest_vacation_end(league_id: int, users: list[int], now: datetime) -> datetime | None:
    """The latest end, after ``now``, of these coaches' vacations in the league. One plain
    query, its value converted as the ORM would: every new turn and decision asks it, and
    building the ORM's aggregate cost more than the database answering it."""
    db = connections[DEFAULT_DB_ALIAS]
    meta = Vacation._meta
    ends_at = meta.get_field("ends_at")
    q = db.ops.quote_name
    end = q(str(ends_at.column))
    sql = (
        f"SELECT {end} FROM {q(meta.db_table)} WHERE {q('league_id')} = %s AND {end} > %s"
        f" AND {q('user_id')} IN ({', '.join(['%s'] * len(users))}) ORDER BY {end} DESC LIMIT 1"
    )
    with db.cursor() as cursor:
        cursor.execute(sql, [league_id, ends_at.get_db_prep_value(now, db), *users])
        row = cursor.fetchone()
    return None if row is None else core.from_db(ends_at, row[0], db)


def start_turn_clock(match: Match, state: MatchState) -> None:
    hours = match.league.turn_deadline_hours if match.league else DEFAULT_TURN_HOURS
    now = core.now()
    actors = [f"{state.active}:captain", f"{state.active}:rival"]
    match.turn_deadline_at = deadline_from(match, actors, now, timedelta(hours=hours))
    match.turn_time_left = None
    match.turn_warnings_sent = warnings_already_due(match.turn_deadline_at - now)


def run_turn_clock(match: Match, *, paused: bool) -> None:
    """The active team's clock stops while a decision is pending and goes on from where it
    stopped once none is."""
    now = core.now()
    if paused and match.turn_deadline_at is not None:
        match.turn_time_left = max(match.turn_deadline_at - now, timedelta(0))
        match.turn_deadline_at = None
    elif not paused and match.turn_time_left is not None:
        match.turn_deadline_at = now + match.turn_time_left
        match.turn_time_left = None


def stop_clocks(match: Match) -> None:
    if not match.paused and not match.locked:
        match.clock_stopped_at = timezone.now()


def restart_clocks(match: Match) -> None:
    """Once neither paused nor locked: every deadline moves on by the time the clocks stood."""
    if match.paused or match.locked or match.clock_stopped_at is None:
        return
    stood = timezone.now() - match.clock_stopped_at
    match.clock_stopped_at = None
    if match.turn_deadline_at is not None:
        match.turn_deadline_at += stood
    match.decisions.filter(answered_at__isnull=True, deadline_at__isnull=False).update(
        deadline_at=F("deadline_at") + stood
    )
