"""A whole league as one JSON document (``bbweb-league/1``), for another bbweb to import.

The document holds the league's rows table by table, each row with every column of its model
and its id (a match's dice are derived from its id, so the ids are kept: the import needs them
free), a person by username wherever a row names one, and beside the rows every match's
record as ``export_match`` writes it (``bbweb-match/1``: events, hash chain, posts, rolls,
receipt), which ``verify_match`` checks as it checks any match's download. The people are
listed by username only: no password, no e-mail, no preferences (the file leaves the server,
in the GM's hands). The seed of a match not yet finished is secret: only the server's own
export (``manage.py export_league``) holds it; the GM's download leaves it blank, and such a
match can then not be imported. README, "A league's export and import", shows the shape.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import models
from django.db.models import Q
from django.utils import timezone

from bbweb.roles import GM_GROUP
from matches.live.models import LiveEvent, LiveMatch
from matches.models import (
    Advancement,
    AuditEntry,
    Decision,
    Dispute,
    Fixture,
    Match,
    MatchEvent,
    PlayerMatchRecord,
    Post,
    Season,
    SeasonTeam,
    Sequence,
    StandingOrders,
    TeamMatchRecord,
    Vacation,
)
from matches.verification.exports import export_match
from teams.models import League, Player, Team

FORMAT = "bbweb-league/1"
Row = dict[str, Any]


@dataclass(frozen=True)
class Table:
    """One table of the document: its key, its model and the league's rows of it."""

    key: str
    model: type[models.Model]
    rows: Callable[["Scope"], models.QuerySet[Any]]


@dataclass(frozen=True)
class Scope:
    """What belongs to the league: the league, its teams (those that play or played in it) and
    its matches."""

    league: League
    team_ids: frozenset[int]
    match_ids: frozenset[int]

    @classmethod
    def of(cls, league: League) -> "Scope":
        teams = set(Team.objects.filter(league=league).values_list("pk", flat=True))
        teams |= set(
            SeasonTeam.objects.filter(season__league=league).values_list("team_id", flat=True)
        )
        for pair in Fixture.objects.filter(league=league).values_list("home_id", "away_id"):
            teams.update(pair)
        played = Match.objects.filter(league=league).values_list("pk", "home_team", "away_team")
        for _pk, home, away in played:
            teams.update((home, away))
        live = LiveMatch.objects.filter(league=league).values_list("home_team", "away_team")
        for pair in live:
            teams.update(pk for pk in pair if pk is not None)
        matches = Match.objects.filter(
            Q(league=league) | Q(league__isnull=True, home_team__in=teams, away_team__in=teams)
        )
        return cls(league, frozenset(teams), frozenset(matches.values_list("pk", flat=True)))


# In the order the import writes them: a row's foreign keys point to rows written before it
# (the database checks them once all are written).
TABLES = (
    Table("leagues", League, lambda s: League.objects.filter(pk=s.league.pk)),
    Table("teams", Team, lambda s: Team.objects.filter(pk__in=s.team_ids)),
    Table("players", Player, lambda s: Player.objects.filter(team__in=s.team_ids)),
    Table("seasons", Season, lambda s: Season.objects.filter(league=s.league)),
    Table("season_teams", SeasonTeam, lambda s: SeasonTeam.objects.filter(season__league=s.league)),
    Table("matches", Match, lambda s: Match.objects.filter(pk__in=s.match_ids)),
    Table("posts", Post, lambda s: Post.objects.filter(match__in=s.match_ids)),
    Table("events", MatchEvent, lambda s: MatchEvent.objects.filter(match__in=s.match_ids)),
    Table("fixtures", Fixture, lambda s: Fixture.objects.filter(league=s.league)),
    Table("decisions", Decision, lambda s: Decision.objects.filter(match__in=s.match_ids)),
    Table(
        "standing_orders",
        StandingOrders,
        lambda s: StandingOrders.objects.filter(match__in=s.match_ids),
    ),
    Table("sequences", Sequence, lambda s: Sequence.objects.filter(match__in=s.match_ids)),
    Table(
        "team_records",
        TeamMatchRecord,
        lambda s: TeamMatchRecord.objects.filter(match__in=s.match_ids),
    ),
    Table(
        "player_records",
        PlayerMatchRecord,
        lambda s: PlayerMatchRecord.objects.filter(match__in=s.match_ids),
    ),
    Table("advancements", Advancement, lambda s: Advancement.objects.filter(match__in=s.match_ids)),
    Table("disputes", Dispute, lambda s: Dispute.objects.filter(match__in=s.match_ids)),
    Table(
        "audit",
        AuditEntry,
        lambda s: AuditEntry.objects.filter(Q(league=s.league) | Q(match__in=s.match_ids)),
    ),
    Table("vacations", Vacation, lambda s: Vacation.objects.filter(league=s.league)),
    Table("live_matches", LiveMatch, lambda s: LiveMatch.objects.filter(league=s.league)),
    Table("live_events", LiveEvent, lambda s: LiveEvent.objects.filter(match__league=s.league)),
)


def names_a_person(field: "models.Field[Any, Any]") -> bool:
    """A column that holds a user: the document names the person instead of the id."""
    return field.is_relation and field.related_model is User


def is_plain(field: "models.Field[Any, Any]") -> bool:
    """A column whose value JSON holds as it is (JSON columns, numbers, text, yes or no)."""
    plain = (models.JSONField, models.IntegerField, models.CharField, models.TextField)
    return isinstance(field, (*plain, models.BooleanField))


def row_json(row: models.Model, usernames: dict[int, str]) -> Row:
    """Every column of the row, by its name (a foreign key by its column's, ``team_id``)."""
    out: Row = {}
    for field in row._meta.concrete_fields:
        value = getattr(row, field.attname)
        if names_a_person(field):
            out[field.name] = None if value is None else usernames[value]
        elif value is None or field.is_relation or is_plain(field):
            out[field.attname] = value
        else:
            out[field.attname] = field.value_to_string(row)
    return out


def person_keys(model: type[models.Model]) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if names_a_person(f)]


def _people(rows: dict[str, list[models.Model]], league: League) -> dict[int, str]:
    """The username of every person a row names, by id."""
    ids = {league.gm_id}
    for table in TABLES:
        keys = person_keys(table.model)
        for row in rows[table.key]:
            ids.update(getattr(row, key) for key in keys)
        if table.model is Match:
            for row in rows[table.key]:
                ids.update(row.substitutes.values())  # type: ignore[attr-defined]
    ids.discard(None)
    return dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))


def _person_json(username: str, game_masters: set[str]) -> Row:
    return {"username": username, "game_master": username in game_masters}


def _substitutes_by_name(row: Row, usernames: dict[int, str]) -> None:
    """A match's substitute coaches (TEAM:SIDE -> user id) by username."""
    row["substitutes"] = {actor: usernames[pk] for actor, pk in row["substitutes"].items()}


def _keep_secret(row: Row) -> None:
    """A match not finished keeps its seed (its dice to come) off the GM's download."""
    if row["status"] != Match.Status.FINISHED:
        row["dice_seed"] = ""


def export_league(league: League, *, with_secret_seeds: bool) -> dict[str, Any]:
    """The league as a JSON-ready dict. ``with_secret_seeds``: the seeds of the matches not
    finished too (the server's own export, never the GM's download)."""
    scope = Scope.of(league)
    rows = {table.key: list(table.rows(scope).order_by("pk")) for table in TABLES}
    usernames = _people(rows, league)
    game_masters = set(
        User.objects.filter(pk__in=usernames, groups__name=GM_GROUP).values_list(
            "username", flat=True
        )
    )
    tables: dict[str, list[Row]] = {}
    for table in TABLES:
        tables[table.key] = [row_json(row, usernames) for row in rows[table.key]]
    for team in tables["teams"]:
        if team["league_id"] != league.pk:  # a team that left it for another league
            team["league_id"] = None
    for match in tables["matches"]:
        _substitutes_by_name(match, usernames)
        if not with_secret_seeds:
            _keep_secret(match)
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "league": league.name,
        "people": [_person_json(name, game_masters) for name in sorted(usernames.values())],
        "tables": tables,
        "records": [export_match(match) for match in _with_parts(rows["matches"])],
    }


def _with_parts(matches: Iterable[models.Model]) -> Iterable[Match]:
    """The matches again, with what ``export_match`` reads of them."""
    ids = [match.pk for match in matches]
    return (
        Match.objects.filter(pk__in=ids)
        .select_related("gm", "league", "home_team", "away_team")
        .order_by("pk")
    )
