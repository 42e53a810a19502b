"""fixtures: scheduling matches, and the game master's leagues and their fixtures."""

from datetime import timedelta
from typing import Any

from django.conf import settings as site
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, Q
from django.urls import reverse
from django.utils.translation import gettext

from bbweb.roles import is_game_master
from matches.models import AuditEntry, Fixture, Match
from matches.record import season as leagues
from matches.services import hooks
from matches.services.actors import AnyUser, user_pk
from matches.services.core import MatchError
from matches.services.prematch import create_match
from matches.services.seasons import current_season, enter_team
from teams.models import League, Team


def may_schedule(user: AnyUser, home: Team, away: Team) -> bool:
    """A league's GM schedules two teams of that league, a site GM also teams in no league;
    only a superuser puts a team of another GM's league on the pitch."""
    if getattr(user, "is_superuser", False):
        return True
    if any(t.league is not None and t.league.gm_id != user.pk for t in (home, away)):
        return False
    return is_game_master(user) or (home.league_id is not None and home.league_id == away.league_id)


def may_schedule_any(user: AnyUser) -> bool:
    if is_game_master(user):
        return True
    return user.is_authenticated and League.objects.filter(gm=user.pk).exists()


def schedule_match(
    user: AnyUser,
    *,
    home: Team,
    away: Team,
    house_rules: bool = True,
    skip_prematch: bool = False,
) -> Match:
    """A GM puts two teams on the pitch; the GM referees the match. A league match runs the
    whole sequence of seed 003 from its pre-match; only a friendly (teams of no common league)
    may start straight in play, when the GM asks so."""
    if not may_schedule(user, home, away):
        raise MatchError("not_gm", "Only a game master schedules matches.")
    assert isinstance(user, User)
    league = home.league if home.league_id == away.league_id else None
    if skip_prematch and league is not None:
        raise MatchError(
            "league_prematch", "A league match has its pre-match; only a friendly may skip it."
        )
    with transaction.atomic():
        refuse_teams_in_a_match(home, away)
        return create_match(
            home=home,
            away=away,
            gm=user,
            league=league,
            house_rules=house_rules,
            prematch=not skip_prematch,
            season=current_season(league) if league is not None else None,
        )


def refuse_teams_in_a_match(*teams: Team) -> None:
    """A team plays one match at a time: its roster at a match's start is the line-up that
    match's record is verified against, so a second match under way would change it. Locks
    the teams' rows (in the caller's transaction) so two GMs cannot both open one."""
    list(Team.objects.select_for_update().filter(pk__in=[t.pk for t in teams]).order_by("pk"))
    for team in teams:
        under_way = Match.objects.filter(Q(home_team=team) | Q(away_team=team)).exclude(
            status=Match.Status.FINISHED
        )
        if under_way.exists():
            raise MatchError(
                "team_busy",
                gettext(
                    "%(team)s is already in a match that has not finished: "
                    "a team plays one match at a time."
                )
                % {"team": team.name},
            )


# -- game masters: leagues and fixtures ----------------------------------------------------------

LEAGUE_SETTINGS = (
    "name",
    "starting_treasury",
    "turn_deadline_hours",
    "decision_deadline_hours",
    "blitz_claim_window_hours",
    "clock",
    "bank_hours",
    "bank_increment_hours",
    "bank_run_out",
    "rival_rerolls",
    "reroll_approval_default",
    "vacation_days",
    "points_win",
    "points_draw",
    "points_loss",
    "live_matches_count",
)


def _league_audit(league: League, gm: AnyUser, action: str, note: str = "", **data: Any) -> None:
    AuditEntry.objects.create(league=league, gm_id=user_pk(gm), action=action, note=note, data=data)


def _gm_league(league_id: int, user: AnyUser) -> League:
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise MatchError("no_league", "There is no such league.")
    if not user.is_authenticated or user.pk != league.gm_id:
        raise MatchError("not_gm", "Only the league's game master may do that.")
    return league


def create_league(user: AnyUser, settings: dict[str, Any]) -> League:
    """A game master opens a league with its settings (the form checked their values)."""
    if not is_game_master(user):
        raise MatchError("not_gm", "Only a game master creates leagues.")
    with transaction.atomic():
        if League.objects.filter(name__iexact=settings["name"]).exists():
            raise MatchError("name_taken", "A league of that name exists.")
        values = {k: settings[k] for k in LEAGUE_SETTINGS if k in settings}
        league = League.objects.create(gm_id=user_pk(user), **values)
        current_season(league)
        _league_audit(league, user, "league_created")
        return league


def update_league(league_id: int, user: AnyUser, settings: dict[str, Any]) -> League:
    with transaction.atomic():
        league = _gm_league(league_id, user)
        name = settings.get("name", league.name)
        if League.objects.filter(name__iexact=name).exclude(pk=league.pk).exists():
            raise MatchError("name_taken", "A league of that name exists.")
        changed = {}
        for key in LEAGUE_SETTINGS:
            if key in settings and getattr(league, key) != settings[key]:
                changed[key] = settings[key]
                setattr(league, key, settings[key])
        league.save()
        _league_audit(league, user, "league_updated", changed=sorted(changed))
        return league


def join_league(user: AnyUser, league_id: int, team_id: int) -> Team:
    """A captain brings a team that plays in no league into this one."""
    with transaction.atomic():
        league = League.objects.filter(pk=league_id).first()
        team = Team.objects.select_for_update().filter(pk=team_id).first()
        if league is None or team is None:
            raise MatchError("no_league", "There is no such league or team.")
        if not user.is_authenticated or user.pk != team.captain_id:
            raise MatchError("not_captain", "Only the team's captain brings it into a league.")
        if team.league_id is not None:
            raise MatchError("in_a_league", "The team plays in a league already.")
        if league.teams.filter(name__iexact=team.name).exists():
            raise MatchError("name_taken", "The league has a team of that name.")
        team.league = league
        team.save(update_fields=["league"])
        enter_team(team)
        return team


def _league_team(league: League, team_id: int) -> Team:
    team = league.teams.filter(pk=team_id).first()
    if team is None:
        raise MatchError("not_in_league", "The team does not play in this league.")
    return team


def add_fixture(
    league_id: int,
    user: AnyUser,
    *,
    round: int,
    home_id: int,
    away_id: int,
    scheduled_for: Any = None,
) -> Fixture:
    """The GM schedules one fixture by hand."""
    with transaction.atomic():
        league = _gm_league(league_id, user)
        home, away = _league_team(league, home_id), _league_team(league, away_id)
        if home.pk == away.pk:
            raise MatchError("same_team", "A team cannot play itself.")
        if round < 1:
            raise MatchError("malformed", "Rounds count from 1.")
        season = current_season(league)
        if not season.is_open:
            raise MatchError("season_closed", "The season is closed: open the next one first.")
        teams = [home.pk, away.pk]
        busy = season.fixtures.filter(round=round).filter(
            Q(home_id__in=teams) | Q(away_id__in=teams)
        )
        if busy.exists():
            raise MatchError("busy", "A team already plays in that round.")
        fixture = Fixture.objects.create(
            league=league,
            season=season,
            round=round,
            home=home,
            away=away,
            scheduled_for=scheduled_for,
        )
        _league_audit(league, user, "fixture_added", round=round, home=home.name, away=away.name)
        if hooks.wanted(league.pk, "fixture_scheduled"):
            _announce_fixture(fixture)
        return fixture


def _announce_fixture(fixture: Fixture) -> None:
    facts = {
        "round": fixture.round,
        "home": fixture.home.name,
        "away": fixture.away.name,
        "scheduled_for": fixture.scheduled_for.isoformat() if fixture.scheduled_for else None,
    }
    url = site.SITE_URL.rstrip("/") + reverse("gm:league", args=[fixture.league_id])
    key = f"fixture_scheduled:{fixture.pk}"
    hooks.announce(fixture.league_id, "fixture_scheduled", key, fixture=facts, url=url)


def generate_round_robin(
    league_id: int, user: AnyUser, *, first_date: Any = None, days_between: int = 7
) -> list[Fixture]:
    """Every team of the open season meets every other of its division once (every team of
    the season, when it has no divisions), in rounds after the season's scheduled ones; the
    divisions play their rounds side by side."""
    with transaction.atomic():
        league = _gm_league(league_id, user)
        season = current_season(league)
        if not season.is_open:
            raise MatchError("season_closed", "The season is closed: open the next one first.")
        divisions: dict[str, list[int]] = {}
        for entry in season.entries.order_by("division", "team__name", "team_id"):
            divisions.setdefault(entry.division, []).append(entry.team_id)
        teams = [team for group in divisions.values() for team in group]
        if len(teams) < 2:
            raise MatchError("too_few_teams", "A season needs at least two teams.")
        after = season.fixtures.aggregate(n=Max("round"))["n"] or 0
        fixtures = []
        for division, group in divisions.items():
            for index, pairs in enumerate(leagues.round_robin(group)):
                day = first_date + timedelta(days=days_between * index) if first_date else None
                for home_id, away_id in pairs:
                    fixtures.append(
                        Fixture.objects.create(
                            league=league,
                            season=season,
                            division=division,
                            round=after + index + 1,
                            home_id=home_id,
                            away_id=away_id,
                            scheduled_for=day,
                        )
                    )
        _league_audit(league, user, "round_robin", teams=len(teams), fixtures=len(fixtures))
        if hooks.wanted(league.pk, "fixture_scheduled"):
            for fixture in fixtures:
                _announce_fixture(fixture)
        return fixtures


def start_fixture(fixture_id: int, user: AnyUser) -> Match:
    """The GM opens the match of a fixture at its pre-match; the league's GM runs it."""
    with transaction.atomic():
        fixture = Fixture.objects.select_for_update().filter(pk=fixture_id).first()
        if fixture is None:
            raise MatchError("no_fixture", "There is no such fixture.")
        league = _gm_league(fixture.league_id, user)
        if fixture.match_id is not None:
            raise MatchError("started", "The fixture's match exists already.")
        refuse_teams_in_a_match(fixture.home, fixture.away)
        match = create_match(
            home=fixture.home,
            away=fixture.away,
            gm=league.gm,
            league=league,
            prematch=True,
            season=fixture.season,
            knockout=fixture.knockout,
        )
        fixture.match = match
        fixture.save(update_fields=["match"])
        AuditEntry.objects.create(
            league=league, match=match, gm_id=user_pk(user), action="fixture_started", data={}
        )
        return match
