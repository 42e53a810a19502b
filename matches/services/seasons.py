"""seasons: a league's seasons, their divisions and the knockout that ends them.

The GM divides a season's teams into divisions (each plays its own round robin, scheduled by
``fixtures.generate_round_robin``), seeds a knockout bracket from the standings (or in an
order of the GM's), and closes the season (standings frozen, awards named) before opening the
next with the teams that carry over: a team is one row across seasons, so its roster,
treasury, SPP and injuries go on as they stand between two matches. The bracket advances by
itself once a knockout match is finished (``advance_bracket``, after the commit that finished
it)."""

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from matches.models import AuditEntry, Fixture, Match, Season, SeasonTeam
from matches.record import season as leagues
from matches.services.actors import AnyUser, user_pk
from matches.services.core import MatchError
from teams.models import League, Team

MAX_DIVISION_NAME = 40


def current_season(league: League) -> Season:
    """The league's latest season; a league that never had one gets its first. The open
    season's teams are the league's: a team that came in some other way (the admin) is
    entered (the caller holds the league's row)."""
    season = league.seasons.order_by("-number").first()
    if season is None:
        season = Season.objects.create(league=league, number=1)
    if season.is_open:
        entered = season.entries.values_list("team_id", flat=True)
        SeasonTeam.objects.bulk_create(
            SeasonTeam(season=season, team=team) for team in league.teams.exclude(pk__in=entered)
        )
    return season


def gm_league(league_id: int, user: AnyUser) -> League:
    """The league's row FOR UPDATE, for its GM only."""
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise MatchError("no_league", gettext("There is no such league."))
    if not user.is_authenticated or user.pk != league.gm_id:
        raise MatchError("not_gm", gettext("Only the league's game master may do that."))
    return league


def _audit(league: League, gm: AnyUser, action: str, **data: Any) -> None:
    AuditEntry.objects.create(league=league, gm_id=user_pk(gm), action=action, data=data)


def _open_season(league: League) -> Season:
    season = current_season(league)
    if not season.is_open:
        raise MatchError("season_closed", gettext("The season is closed: open the next one first."))
    return season


def enter_team(team: Team) -> None:
    """A team that joins a league plays its open season."""
    if team.league is not None:
        current_season(team.league)


def set_divisions(league_id: int, user: AnyUser, divisions: dict[int, str]) -> Season:
    """The GM puts the open season's teams into divisions (a blank name: no division), before
    any of its fixtures is scheduled."""
    with transaction.atomic():
        league = gm_league(league_id, user)
        season = _open_season(league)
        if season.fixtures.exists():
            raise MatchError("scheduled", gettext("The season is scheduled: its divisions stay."))
        entries = {entry.team_id: entry for entry in season.entries.all()}
        if set(divisions) != set(entries):
            raise MatchError("teams", gettext("Name a division for every team of the season."))
        for team_id, name in divisions.items():
            name = name.strip()
            if len(name) > MAX_DIVISION_NAME:
                raise MatchError(
                    "malformed", gettext("A division's name is at most 40 characters.")
                )
            entries[team_id].division = name
        names = [name.strip() for name in divisions.values()]
        if any(names.count(name) < 2 for name in names):
            raise MatchError(
                "division_too_small", gettext("Every division needs at least two teams.")
            )
        SeasonTeam.objects.bulk_update(entries.values(), ["division"])
        _audit(league, user, "divisions_set", divisions=sorted(set(names)))
        return season


def _seeds(season: Season, size: int) -> list[Team]:
    """The playoff's teams in seed order: the same number from each division (its best), the
    division winners first, each place ordered as the standings order teams."""
    table = leagues.season(season.league, of=season)
    groups = list(table.divisions.values())
    if size % len(groups):
        raise MatchError(
            "playoff_size", gettext("The playoff takes as many teams from each division.")
        )
    per = size // len(groups)
    if any(len(rows) < per for rows in groups):
        raise MatchError(
            "playoff_size", gettext("A division has fewer teams than the playoff takes.")
        )
    places = [[rows[place] for rows in groups] for place in range(per)]
    seeds: list[Team] = []
    for rows in places:
        ranked = sorted(rows, key=lambda row: (-row.points, -row.td_difference, -row.casualties))
        seeds.extend(row.team for row in ranked)
    return seeds


def _bracket(seeds: Sequence[Team]) -> list[tuple[Team, Team]]:
    """First-round pairs so that seeds 1 and 2 meet only in the final (1 v N, 2 v N-1 ...,
    laid out so that each pair's winner meets its neighbour's)."""
    order = [1]
    while len(order) < len(seeds):
        total = 2 * len(order) + 1
        order = [n for seed in order for n in (seed, total - seed)]
    return [(seeds[order[i] - 1], seeds[order[i + 1] - 1]) for i in range(0, len(order), 2)]


def seed_playoff(
    league_id: int, user: AnyUser, *, size: int, order: Sequence[int] = ()
) -> list[Fixture]:
    """The knockout's first round, in the rounds after the season's scheduled ones: seeded
    from the standings, or in the GM's ``order`` of team ids (seed 1 first)."""
    with transaction.atomic():
        league = gm_league(league_id, user)
        season = _open_season(league)
        if size < 2 or size & (size - 1):
            raise MatchError("playoff_size", gettext("A knockout takes 2, 4, 8 or 16 teams."))
        if season.fixtures.filter(knockout=True).exists():
            raise MatchError("playoff_seeded", gettext("The season's knockout is seeded already."))
        if order:
            entries = {e.team_id: e.team for e in season.entries.select_related("team")}
            if len(order) != size or len(set(order)) != size:
                raise MatchError("playoff_size", gettext("Name each seed once."))
            if any(team_id not in entries for team_id in order):
                raise MatchError("not_in_season", gettext("A seed does not play this season."))
            seeds = [entries[team_id] for team_id in order]
        else:
            seeds = _seeds(season, size)
        after = season.fixtures.aggregate(n=Max("round"))["n"] or 0
        fixtures = [
            Fixture.objects.create(
                league=league,
                season=season,
                round=after + 1,
                knockout=True,
                slot=slot,
                home=home,
                away=away,
            )
            for slot, (home, away) in enumerate(_bracket(seeds), start=1)
        ]
        _audit(league, user, "playoff_seeded", seeds=[team.name for team in seeds])
        return fixtures


def winner_of(match: Match) -> Team | None:
    """The team the record names the winner (None: a draw or no result yet)."""
    side = (match.state.get("result") or {}).get("winner")
    return {"home": match.home_team, "away": match.away_team}.get(side or "")


def advance_bracket(match_id: int) -> Fixture | None:
    """Once a knockout match is finished, its winner goes on: the next round's fixture is made
    when its other half is decided too; the final's winner is the season's champion. Run
    after the commit that finished the match; running it twice changes nothing."""
    with transaction.atomic():
        fixture = (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("match", "season")
            .filter(match_id=match_id, knockout=True)
            .first()
        )
        if fixture is None or fixture.season is None or fixture.slot is None:
            return None
        match = fixture.match
        assert match is not None
        season = Season.objects.select_for_update().get(pk=fixture.season.pk)
        winner = winner_of(match)
        if match.status != Match.Status.FINISHED or winner is None:
            return None
        same_round = season.fixtures.filter(knockout=True, round=fixture.round)
        if same_round.count() == 1:
            if season.champion_id != winner.pk:
                season.champion = winner
                season.save(update_fields=["champion"])
            return None
        sibling_slot = fixture.slot + 1 if fixture.slot % 2 else fixture.slot - 1
        sibling = same_round.filter(slot=sibling_slot).select_related("match").first()
        other = winner_of(sibling.match) if sibling and sibling.match else None
        if other is None or sibling is None or sibling.match is None:
            return None
        if sibling.match.status != Match.Status.FINISHED:
            return None
        slot = (fixture.slot + 1) // 2
        made = season.fixtures.filter(knockout=True, round=fixture.round + 1, slot=slot).first()
        if made is not None:
            return made
        home, away = (winner, other) if fixture.slot % 2 else (other, winner)
        return Fixture.objects.create(
            league_id=season.league_id,
            season=season,
            round=fixture.round + 1,
            knockout=True,
            slot=slot,
            home=home,
            away=away,
        )


def after_finish(match: Match) -> None:
    """Called by the services that finish a match: the bracket moves on after the commit."""
    if match.league_id is not None:
        transaction.on_commit(lambda: advance_bracket(match.pk))


def close_season(league_id: int, user: AnyUser) -> Season:
    """The GM closes the open season once all its matches are finished: the standings are
    frozen as they stand, the awards named from the leaders (the champion: the knockout's
    winner, else the top of the table)."""
    with transaction.atomic():
        league = gm_league(league_id, user)
        season = _open_season(league)
        if season.matches.exclude(status=Match.Status.FINISHED).exists():
            raise MatchError(
                "matches_under_way", gettext("A match of the season has not finished.")
            )
        if season.fixtures.filter(match__isnull=True).exists():
            raise MatchError(
                "fixtures_unplayed", gettext("A fixture of the season is not played yet.")
            )
        knockout = season.fixtures.filter(knockout=True).exists()
        if knockout and season.champion_id is None:
            raise MatchError("no_champion", gettext("The knockout has no winner yet."))
        table = leagues.season(league, of=season)
        season.table = [
            {
                "division": division,
                "team": row.team.pk,
                "name": row.team.name,
                "played": row.played,
                "won": row.won,
                "drawn": row.drawn,
                "lost": row.lost,
                "td_for": row.td_for,
                "td_against": row.td_against,
                "casualties": row.casualties,
                "points": row.points,
            }
            for division, rows in table.divisions.items()
            for row in rows
        ]
        season.awards = [
            {
                "award": award,
                "player": leader.player.pk,
                "name": leader.player.name,
                "team": leader.player.team.name,
                "value": leader.value,
            }
            for award, ranked in table.leaders.items()
            for leader in ranked[:1]
        ]
        if season.champion is None and table.table and table.table[0].played:
            season.champion = table.table[0].team
        season.closed_at = timezone.now()
        season.save()
        _audit(league, user, "season_closed", season=season.number)
        return season


def open_next_season(league_id: int, user: AnyUser, team_ids: Sequence[int]) -> Season:
    """The GM opens the next season with the teams that carry over (as they stand: roster,
    treasury, SPP, injuries); the league's other teams leave it (their history stays)."""
    with transaction.atomic():
        league = gm_league(league_id, user)
        last = current_season(league)
        if last.is_open:
            raise MatchError("season_open", gettext("Close the season before opening the next."))
        teams = list(league.teams.select_for_update().order_by("pk"))
        kept = [team for team in teams if team.pk in set(team_ids)]
        if len(kept) != len(set(team_ids)):
            raise MatchError("not_in_league", gettext("A team does not play in this league."))
        if len(kept) < 2:
            raise MatchError("too_few_teams", gettext("A season needs at least two teams."))
        season = Season.objects.create(league=league, number=last.number + 1)
        SeasonTeam.objects.bulk_create(SeasonTeam(season=season, team=team) for team in kept)
        gone = [team.pk for team in teams if team not in kept]
        Team.objects.filter(pk__in=gone).update(league=None)
        _audit(league, user, "season_opened", season=season.number, left=len(gone))
        return season
