"""Players' careers, teams' histories and a league's records, read from the matches' records
as the leaders are: each match's events (undone ones left out) through matches.record.spp, the
awards the opposing captains gave and the casualty each player carried off at the final
whistle. The computations are pure (plain data in, plain data out); the last section gathers
that data from the database. Nothing here is tied to one season: each function takes the
matches it is given, so a season's figures are the same functions over that season's matches.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from matches.record.season import tally
from matches.record.spp import AWARDS, MJE, PJE, awards, points, team_of

# -- one player's match and a career -------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One player's match: its feats from the events, its award and the casualty it suffered
    (the engine's code, empty when it left the pitch unhurt or only badly enough to come back)."""

    match: Any
    player: Any
    engine_id: str
    touchdowns: int = 0
    casualties: int = 0
    completions: int = 0
    interceptions: int = 0
    award: str = ""
    injury: str = ""

    @property
    def spp(self) -> int:
        return points(self.counts(), self.award)

    def counts(self) -> dict[str, int]:
        return {what: getattr(self, what) for what in AWARDS}


def lines_of_match(
    match: Any,
    events: Iterable[Any],
    lineup: Mapping[str, Mapping[str, Any]],
    awards_given: Mapping[str, str],
    injuries: Mapping[str, str],
) -> list[Line]:
    """Every rostered player's line in one match (stars and mercenaries have no career): the
    events as recorded (with ``number``, ``type`` and ``data``; undone ones are skipped), the
    lineup (engine id -> roster facts with the player's ``pk``), the awards by engine id and
    the casualty each engine id carried off."""
    counted = tally(events).players
    out = []
    for engine_id, entry in sorted(lineup.items(), key=lambda item: shirt_order(item[0])):
        pk = entry.get("pk")
        if pk is None or entry.get("kind", "player") != "player":
            continue
        line = counted.get(engine_id)
        feats = {what: getattr(line, what) if line else 0 for what in AWARDS}
        out.append(
            Line(
                match,
                pk,
                engine_id,
                award=awards_given.get(engine_id, ""),
                injury=injuries.get(engine_id, ""),
                **feats,
            )
        )
    return out


def shirt_order(engine_id: str) -> tuple[int, int]:
    """Home before away, then by shirt number as a number (h2 before h10)."""
    number = engine_id[1:]
    return (0 if team_of(engine_id) == "home" else 1, int(number) if number.isdigit() else 0)


@dataclass
class Career:
    lines: list[Line] = field(default_factory=list)

    def total(self, what: str) -> int:
        return sum(getattr(line, what) for line in self.lines)

    @property
    def matches(self) -> int:
        return len(self.lines)

    @property
    def touchdowns(self) -> int:
        return self.total("touchdowns")

    @property
    def casualties(self) -> int:
        return self.total("casualties")

    @property
    def completions(self) -> int:
        return self.total("completions")

    @property
    def interceptions(self) -> int:
        return self.total("interceptions")

    @property
    def mvps(self) -> int:
        return sum(1 for line in self.lines if line.award == MJE)

    @property
    def second_awards(self) -> int:
        return sum(1 for line in self.lines if line.award == PJE)

    @property
    def casualties_suffered(self) -> int:
        return len(self.injuries())

    @property
    def spp(self) -> int:
        return sum(line.spp for line in self.lines)

    def spp_by_kind(self) -> dict[str, int]:
        """The SPP each kind of feat earned, and the awards' (MVP and second award)."""
        table = awards()
        out = {what: table[what] * self.total(what) for what in AWARDS}
        out["awards"] = table[MJE] * self.mvps + table[PJE] * self.second_awards
        return out

    def injuries(self) -> list[Line]:
        return [line for line in self.lines if line.injury]


def careers(lines: Iterable[Line]) -> dict[Any, Career]:
    """Each player's career from the lines of the matches given, in their order."""
    out: dict[Any, Career] = defaultdict(Career)
    for line in lines:
        out[line.player].lines.append(line)
    return dict(out)


# -- a team's history ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A team's match as it saw it: the opponent, both scores and the result."""

    match: Any
    team: Any
    opponent: Any
    scored: int
    conceded: int
    result: str  # "win", "draw" or "loss"


@dataclass
class HeadToHead:
    opponent: Any
    won: int = 0
    drawn: int = 0
    lost: int = 0
    scored: int = 0
    conceded: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost


def games_of(
    match: Any, home: Any, away: Any, score: Mapping[str, int], winner: str | None
) -> tuple[Game, Game]:
    """The match from each side, home first (a match awarded names its winner)."""
    out = []
    for side, team, opponent in (("home", home, away), ("away", away, home)):
        other = "away" if side == "home" else "home"
        result = "draw" if winner is None else ("win" if winner == side else "loss")
        out.append(Game(match, team, opponent, int(score[side]), int(score[other]), result))
    return out[0], out[1]


def head_to_head(games: Iterable[Game]) -> list[HeadToHead]:
    """Against each opponent, in the order they were first met."""
    out: dict[Any, HeadToHead] = {}
    for game in games:
        row = out.setdefault(game.opponent, HeadToHead(game.opponent))
        row.scored += game.scored
        row.conceded += game.conceded
        if game.result == "win":
            row.won += 1
        elif game.result == "draw":
            row.drawn += 1
        else:
            row.lost += 1
    return list(out.values())


# -- records -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Feat:
    """One entry of a record list: who (a player or a team), how many, and in which match
    (None for a career)."""

    holder: Any
    value: int
    match: Any = None


@dataclass
class Records:
    match_touchdowns: list[Feat]
    match_casualties: list[Feat]
    match_spp: list[Feat]
    career_touchdowns: list[Feat]
    career_casualties: list[Feat]
    career_spp: list[Feat]
    biggest_wins: list[Feat]  # the winner's game, the margin, the match
    team_touchdowns: list[Feat]  # a team's game, its touchdowns, the match


def _best(feats: Iterable[Feat], top: int) -> list[Feat]:
    ranked = sorted(feats, key=lambda feat: -feat.value)  # stable: earlier first on a tie
    return [feat for feat in ranked if feat.value > 0][:top]


def records(lines: Iterable[Line], games: Iterable[Game], *, top: int = 5) -> Records:
    """The league's records from its matches' lines and its teams' games (each match once from
    each side), nobody at zero, ties in the order given."""
    lines = list(lines)
    games = list(games)
    by_player = careers(lines)
    return Records(
        match_touchdowns=_best((Feat(ln.player, ln.touchdowns, ln.match) for ln in lines), top),
        match_casualties=_best((Feat(ln.player, ln.casualties, ln.match) for ln in lines), top),
        match_spp=_best((Feat(ln.player, ln.spp, ln.match) for ln in lines), top),
        career_touchdowns=_best((Feat(p, c.touchdowns) for p, c in by_player.items()), top),
        career_casualties=_best((Feat(p, c.casualties) for p, c in by_player.items()), top),
        career_spp=_best((Feat(p, c.spp) for p, c in by_player.items()), top),
        biggest_wins=_best(
            (Feat(g, g.scored - g.conceded, g.match) for g in games if g.result == "win"), top
        ),
        team_touchdowns=_best((Feat(g, g.scored, g.match) for g in games), top),
    )


# -- from the database ---------------------------------------------------------------------------


def _played(matches: Any) -> Any:
    from matches.models import Match

    return (
        matches.filter(status__in=(Match.Status.POST_MATCH, Match.Status.FINISHED))
        .select_related("home_team", "away_team", "league")
        .prefetch_related("events", "team_records")
        .order_by("finished_at", "pk")
    )


@dataclass
class Played:
    """What a set of played matches says: every rostered player's line and each team's games."""

    lines: list[Line]
    games: list[Game]


def played(matches: Any) -> Played:
    """The lines and games of the matches given (a queryset; those with a result at the final
    whistle count, post-match or finished, as the standings do). The awards are the ones the
    opposing captains have given so far; the casualty is the one in the final state."""
    out = Played([], [])
    for match in _played(matches):
        outcome = match.state.get("result")
        if not outcome:
            continue
        given: dict[str, str] = {}
        for record in match.team_records.all():
            if record.mje:
                given[record.mje] = MJE
            if record.pje:
                given[record.pje] = PJE
        hurt = {
            pid: str(player.get("casualty") or "")
            for pid, player in match.state.get("players", {}).items()
        }
        out.lines += lines_of_match(match, match.events.all(), match.lineup, given, hurt)
        out.games += games_of(
            match, match.home_team, match.away_team, match.state["score"], outcome.get("winner")
        )
    return out


def player_career(player: Any) -> Career:
    """A player's career over every match it played in, whatever the league."""
    from matches.models import Match

    ids = player.match_records.values_list("match_id", flat=True)
    lines = played(Match.objects.filter(pk__in=ids)).lines
    return Career([line for line in lines if line.player == player.pk])


def team_games(team: Any) -> list[Game]:
    """A team's games in the order they were played."""
    from django.db.models import Q

    from matches.models import Match

    games = played(Match.objects.filter(Q(home_team=team) | Q(away_team=team))).games
    return [game for game in games if game.team == team]


def league_records(league: Any) -> Records:
    """The league's records and hall of fame over all its matches."""
    from matches.models import Match
    from teams.models import Player

    found = played(Match.objects.filter(league=league))
    people = Player.objects.select_related("team").in_bulk({line.player for line in found.lines})
    lines = [
        replace(line, player=people[line.player]) for line in found.lines if line.player in people
    ]
    return records(lines, found.games)
