"""Running a season: the round-robin schedule, what a match's record says about its teams and
players, the standings and the leaders. The computations are pure (plain data in, plain data
out); the last section gathers that data for a league from the database."""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from matches.record.folding import Recorded, undone_numbers
from matches.record.spp import AWARDS, achievements, points, team_of

# -- the schedule --------------------------------------------------------------------------------


def round_robin[T](teams: Sequence[T]) -> list[list[tuple[T, T]]]:
    """Every pair meets once, nobody plays twice in a round (the circle method: the first team
    stays, the others turn one place a round; with an odd count one team rests each round).
    Home and away alternate, so that no team is at home more than one game above half."""
    slots: list[T | None] = list(teams)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = slots[i], slots[n - 1 - i]
            if a is None or b is None:
                continue
            # The fixed team alternates by round; the others by their place in the circle.
            flip = r % 2 == 1 if i == 0 else i % 2 == 1
            pairs.append((b, a) if flip else (a, b))
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


# -- what a match says ---------------------------------------------------------------------------


@dataclass
class PlayerLine:
    touchdowns: int = 0
    casualties: int = 0
    completions: int = 0
    interceptions: int = 0
    award_spp: int = 0  # the MJE and PJE the opposing captains gave (house rule 4)

    @property
    def spp(self) -> int:
        return points(vars(self)) + self.award_spp


@dataclass
class MatchTally:
    """Casualties each team inflicted and each engine player's feats in one match."""

    casualties: dict[str, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    players: dict[str, PlayerLine] = field(default_factory=lambda: defaultdict(PlayerLine))


def tally(events: Iterable[Recorded]) -> MatchTally:
    """Read a match's record (undone events skipped). A casualty counts for the team whose
    action caused it when it befalls an opponent (the standings' tie-break, whatever the
    action); the players' feats and SPP are matches.record.spp's, as in the post-match records."""
    recorded = list(events)
    undone = undone_numbers(recorded)
    kept = [e for e in recorded if e.number not in undone]
    out = MatchTally()
    team: str | None = None
    hurt: set[str] = set()
    for event in kept:
        data = event.data
        if event.type in ("declaration", "granted_reroll"):
            team = data["actor"].partition(":")[0]
            hurt = set()
        elif event.type == "casualty" and team is not None:
            victim = data["player"]
            if victim in hurt or team_of(victim) == team:
                continue
            hurt.add(victim)
            out.casualties[team] += 1
    for player, counts in achievements((e.type, e.data) for e in kept).items():
        out.players[player] = PlayerLine(**{what: counts[what] for what in AWARDS})
    return out


# -- the standings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    home: Any
    away: Any
    home_score: int
    away_score: int
    winner: str | None  # "home", "away" or None (a draw); an awarded match names its winner
    home_casualties: int = 0
    away_casualties: int = 0


@dataclass(frozen=True)
class Points:
    win: int = 3
    draw: int = 1
    loss: int = 0


@dataclass
class Row:
    team: Any
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    td_for: int = 0
    td_against: int = 0
    casualties: int = 0
    points: int = 0

    @property
    def td_difference(self) -> int:
        return self.td_for - self.td_against


def standings(teams: Iterable[Any], results: Iterable[Result], points: Points) -> list[Row]:
    """The table: points, then touchdown difference, then casualties inflicted break ties
    (teams level on all three keep the order they were given in)."""
    rows = {team: Row(team) for team in teams}
    for r in results:
        for me, mine, theirs, cas, side in (
            (r.home, r.home_score, r.away_score, r.home_casualties, "home"),
            (r.away, r.away_score, r.home_score, r.away_casualties, "away"),
        ):
            row = rows.setdefault(me, Row(me))
            row.played += 1
            row.td_for += mine
            row.td_against += theirs
            row.casualties += cas
            if r.winner is None:
                row.drawn += 1
                row.points += points.draw
            elif r.winner == side:
                row.won += 1
                row.points += points.win
            else:
                row.lost += 1
                row.points += points.loss
    order = list(rows.values())
    return sorted(order, key=lambda row: (-row.points, -row.td_difference, -row.casualties))


@dataclass(frozen=True)
class Leader:
    player: Any
    value: int


def leaders(lines: dict[Any, PlayerLine], *, top: int = 5) -> dict[str, list[Leader]]:
    """The best players of the season by touchdowns, casualties and SPP (nobody at zero)."""
    out = {}
    for name in ("touchdowns", "casualties", "spp"):
        ranked = sorted(
            (Leader(player, getattr(line, name)) for player, line in lines.items()),
            key=lambda leader: -leader.value,
        )
        out[name] = [leader for leader in ranked if leader.value > 0][:top]
    return out


# -- a league from the database ------------------------------------------------------------------


@dataclass
class Season:
    table: list[Row]
    leaders: dict[str, list[Leader]]
    results: dict[int, Result]  # by match id, knockout matches included
    divisions: dict[str, list[Row]] = field(default_factory=dict)  # "" when there are none


def season(league: Any, more_results: Iterable[Result] = (), *, of: Any = None) -> Season:
    """The standings and leaders of a league from its played matches (post-match or
    finished: the result is in their state), with ``more_results`` (its live matches) counted
    in the standings too; ``of``: one season's (its teams, its matches; the knockout's count for
    the leaders, not in the standings). The leaders' SPP are the post-match's: the feats of the
    record and the awards given so far."""
    from matches.models import Match, PlayerMatchRecord
    from teams.models import Player

    played = (
        Match.objects.filter(
            league=league, status__in=(Match.Status.POST_MATCH, Match.Status.FINISHED)
        )
        .select_related("home_team", "away_team")
        .prefetch_related("events")
    )
    knockout: set[int] = set()
    if of is not None:
        played = played.filter(season=of)
        knockout = set(of.fixtures.filter(knockout=True).values_list("match_id", flat=True))
    results: dict[int, Result] = {}
    lines: dict[int, PlayerLine] = defaultdict(PlayerLine)
    for match in played:
        outcome = match.state.get("result")
        if not outcome:
            continue
        counted = tally(match.events.all())
        score = match.state["score"]
        results[match.pk] = Result(
            match.home_team,
            match.away_team,
            score["home"],
            score["away"],
            outcome.get("winner"),
            counted.casualties["home"],
            counted.casualties["away"],
        )
        for engine_id, line in counted.players.items():
            pk = match.lineup.get(engine_id, {}).get("pk")
            if pk is None:
                continue
            total = lines[pk]
            total.touchdowns += line.touchdowns
            total.casualties += line.casualties
            total.completions += line.completions
            total.interceptions += line.interceptions
    awarded = PlayerMatchRecord.objects.filter(
        match__in=list(results), player__isnull=False
    ).exclude(award="")
    for player_id, award in awarded.values_list("player_id", "award"):
        lines[player_id].award_spp += points({}, award)
    points_for = Points(league.points_win, league.points_draw, league.points_loss)
    counted_results = [
        *(r for pk, r in results.items() if pk not in knockout),
        *more_results,
    ]
    if of is None:
        divisions = {"": list(league.teams.order_by("name", "pk"))}
    else:
        divisions = {}
        for entry in of.entries.select_related("team").order_by("division", "team__name", "pk"):
            divisions.setdefault(entry.division, []).append(entry.team)
    teams = [team for group in divisions.values() for team in group]
    table = standings(teams, counted_results, points_for)
    if of is not None:  # a season's table: its teams (a friendly with another team stays out)
        table = [row for row in table if row.team in teams]
    people = Player.objects.select_related("team").in_bulk(list(lines))
    return Season(
        table,
        leaders({people[pk]: line for pk, line in lines.items() if pk in people}),
        results,
        {
            name: [
                row
                for row in standings(
                    group,
                    [r for r in counted_results if r.home in group and r.away in group],
                    points_for,
                )
                if row.team in group
            ]
            for name, group in divisions.items()
        },
    )
