"""fixtures: scheduling matches, and the game master's leagues and their fixtures."""

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, Q

from bbweb.roles import is_game_master
from matches.models import AuditEntry, Fixture, Match
from matches.record import season as leagues
from matches.services.actors import AnyUser, user_pk
from matches.services.core import MatchError
from matches.services.prematch import create_match
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
    return create_match(
        home=home,
        away=away,
        gm=user,
        league=league,
        house_rules=house_rules,
        prematch=not skip_prematch,
    )


# -- game masters: leagues and fixtures ----------------------------------------------------------

LEAGUE_SETTINGS = (
    "name",
    "starting_treasury",
    "turn_deadline_hours",
    "decision_deadline_hours",
    "blitz_claim_window_hours",
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
        teams = [home.pk, away.pk]
        busy = league.fixtures.filter(round=round).filter(
            Q(home_id__in=teams) | Q(away_id__in=teams)
        )
        if busy.exists():
            raise MatchError("busy", "A team already plays in that round.")
        fixture = Fixture.objects.create(
            league=league, round=round, home=home, away=away, scheduled_for=scheduled_for
        )
        _league_audit(league, user, "fixture_added", round=round, home=home.name, away=away.name)
        return fixture


def generate_round_robin(
    league_id: int, user: AnyUser, *, first_date: Any = None, days_between: int = 7
) -> list[Fixture]:
    """Every team of the league meets every other once, in rounds after the scheduled ones."""
    with transaction.atomic():
        league = _gm_league(league_id, user)
        teams = list(league.teams.order_by("name", "pk"))
        if len(teams) < 2:
            raise MatchError("too_few_teams", "A season needs at least two teams.")
        after = league.fixtures.aggregate(n=Max("round"))["n"] or 0
        fixtures = []
        for index, pairs in enumerate(leagues.round_robin([t.pk for t in teams])):
            day = first_date + timedelta(days=days_between * index) if first_date else None
            for home_id, away_id in pairs:
                fixtures.append(
                    Fixture.objects.create(
                        league=league,
                        round=after + index + 1,
                        home_id=home_id,
                        away_id=away_id,
                        scheduled_for=day,
                    )
                )
        _league_audit(league, user, "round_robin", teams=len(teams), fixtures=len(fixtures))
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
        match = create_match(
            home=fixture.home, away=fixture.away, gm=league.gm, league=league, prematch=True
        )
        fixture.match = match
        fixture.save(update_fields=["match"])
        AuditEntry.objects.create(
            league=league, match=match, gm_id=user_pk(user), action="fixture_started", data={}
        )
        return match
