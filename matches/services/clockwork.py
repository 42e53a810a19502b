"""clockwork: what every clock asks, fixed deadlines (``clocks``) and time banks (``banks``)
alike: when a coach's vacation ends, which warnings a deadline set close counts as sent, and
the GM's pause stopping them all."""

from datetime import datetime, timedelta

from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

from matches.models import Match, Vacation
from matches.services import buffer, core
from matches.services.actors import coach_of

WARNINGS = ((2, timedelta(hours=2)), (1, timedelta(hours=24)))  # (stage, how long before)


def warnings_already_due(length: timedelta) -> int:
    """A deadline set less than 24 h (2 h) away: the notice that announces it is the warning."""
    return next((stage for stage, ahead in WARNINGS if length <= ahead), 0)


def away_until(match: Match, actors: list[str], now: datetime) -> datetime | None:
    """The end of the latest vacation, running at ``now``, of the coaches of ``actors``."""
    if match.league_id is None:
        return None
    users = [coach_of(match, actor) for actor in actors]
    writes = buffer.current()
    locked_ends = core.vacation_ends(match)
    if writes is not None:
        return writes.batch.away_until(match.league_id, users, now)
    if locked_ends is not None:
        ends = [end for user in users if (end := locked_ends.get(user)) and end > now]
        return max(ends, default=None)
    return _latest_vacation_end(match.league_id, users, now)


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


def stop_clocks(match: Match) -> None:
    if not match.paused and not match.locked:
        match.clock_stopped_at = timezone.now()
