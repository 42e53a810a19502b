"""A league's finished live matches as results for its standings (when the league says they
count). A casualty in a live match: an opponent left critically injured or dead at the end."""

from typing import Any

from matches.live.models import LiveMatch
from matches.record.season import Result, Season, season


def live_results(league: Any) -> list[Result]:
    # A quick roster typed at the field is no team of the league: such matches stay out.
    finished = LiveMatch.objects.filter(
        league=league,
        status=LiveMatch.Status.FINISHED,
        home_team__isnull=False,
        away_team__isnull=False,
    ).select_related("home_team", "away_team")
    results = []
    for match in finished:
        outcome = match.state["result"]
        results.append(
            Result(
                match.home_team,
                match.away_team,
                outcome["score"]["home"],
                outcome["score"]["away"],
                outcome["winner"],
                outcome["casualties"]["home"],
                outcome["casualties"]["away"],
            )
        )
    return results


def league_season(league: Any, of: Any = None) -> Season:
    """The league's (latest) season as its page shows it: its live matches count when it says
    so."""
    return season(league, live_results(league) if league.live_matches_count else (), of=of)
