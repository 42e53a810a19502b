"""A player's career, a team's history and a league's records: public pages, like the league's
standings and leaders, read from matches.record.careers."""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from matches.history.charts import line_chart
from matches.models import Post, TeamMatchRecord
from matches.record import careers
from teams.models import League, Player, Team


@require_GET
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    person = get_object_or_404(Player.objects.select_related("team", "team__league"), pk=player_id)
    career = careers.player_career(person)
    skills = person.advancements.exclude(choice="").select_related("match")
    context = {
        "player": person,
        "career": career,
        "spp_by_kind": career.spp_by_kind(),
        "skills": skills,
    }
    return render(request, "history/player.html", context)


@require_GET
def team(request: HttpRequest, team_id: int) -> HttpResponse:
    club = get_object_or_404(Team.objects.select_related("league"), pk=team_id)
    games = careers.team_games(club)
    records = {
        r.match_id: r
        for r in TeamMatchRecord.objects.filter(team=club, match__in=[g.match for g in games])
    }
    rows = _history_rows(club, games, records)
    opponents = [row["game"].opponent.name for row in rows]
    banked = [
        (row["treasury"], name)
        for row, name in zip(rows, opponents, strict=True)
        if row["treasury"] is not None
    ]
    context = {
        "team": club,
        "rows": rows,
        "value_chart": line_chart([row["value"] for row in rows], opponents) if rows else None,
        "fans_chart": line_chart([row["fan_factor"] for row in rows], opponents) if rows else None,
        "treasury_chart": (
            line_chart([value for value, _name in banked], [name for _value, name in banked])
            if banked
            else None
        ),
        "head_to_head": careers.head_to_head(games),
    }
    return render(request, "history/team.html", context)


def _history_rows(
    club: Team, games: list[careers.Game], records: dict[int, TeamMatchRecord]
) -> list[dict[str, Any]]:
    """Each game with the team's value and fan factor after it (as the post-match sequence
    posted them once the match was settled; a match not settled yet keeps the figures before
    it), the winnings banked and both sides' treasuries when its sequence ended (None while
    it runs, and for a match finished before they were kept)."""
    settled = {
        (post.match_id, post.summary.get("team")): post.summary
        for post in Post.objects.filter(
            match__in=[g.match for g in games], summary__step="fan_factor"
        ).only("match_id", "summary")
    }
    rows: list[dict[str, Any]] = []
    for game in games:
        record = records.get(game.match.pk)
        key = "home" if game.match.home_team_id == club.pk else "away"
        fans = settled.get((game.match.pk, key))
        value = winnings = 0
        treasury = None
        if record is not None:
            treasury = record.treasury_after
            value = record.value_after if record.value_after is not None else record.value_before
            winnings = record.captain_share + record.rival_share
        fan_factor = (
            int(fans["before"]) + int(fans["change"])
            if fans is not None
            else (rows[-1]["fan_factor"] if rows else club.fan_factor)
        )
        rows.append(
            {
                "game": game,
                "value": value,
                "fan_factor": fan_factor,
                "winnings": winnings,
                "treasury": treasury,
            }
        )
    return rows


@require_GET
def league_records(request: HttpRequest, league_id: int) -> HttpResponse:
    league = get_object_or_404(League, pk=league_id)
    return render(
        request,
        "history/records.html",
        {"league": league, "records": careers.league_records(league)},
    )
