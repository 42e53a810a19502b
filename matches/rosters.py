"""From a roster in the database to the engine's team sheet, and back to names for the page."""

from typing import Any

from rules.engine import PlayerSheet, TeamSheet
from teams.models import Player, Team


def engine_id(team_key: str, player: Player) -> str:
    return f"{team_key[0]}{player.number}"


def _skills(player: Player) -> tuple[str, ...]:
    # Characteristic increases are stored among the gained skills as "+MA" and so on; they
    # are already in the stats, so the engine must not see them as skills.
    gained = [skill for skill in player.gained if not skill.startswith("+")]
    return (*player.position_data.skills, *gained)


def team_sheet(team: Team, team_key: str) -> TeamSheet:
    players = tuple(
        PlayerSheet(
            id=engine_id(team_key, player),
            number=player.number,
            ma=player.stat("MA"),
            st=player.stat("ST"),
            ag=player.stat("AG"),
            av=player.stat("AV"),
            skills=_skills(player),
            side=player.side,
            name=player.name,
            position=player.position,
        )
        for player in team.roster()
        if not player.miss_next_game
    )
    return TeamSheet(
        players=players,
        rerolls=team.rerolls,
        apothecary=team.apothecary,
        fan_factor=team.fan_factor,
        cheerleaders=team.cheerleaders,
        assistant_coaches=team.assistant_coaches,
        name=team.name,
        race=team.race,
        necromancer=team.race_data.necromancer,
    )


def lineup(team: Team, team_key: str) -> dict[str, dict[str, Any]]:
    return {
        engine_id(team_key, player): {
            "pk": player.pk,
            "name": player.name,
            "number": player.number,
            "position": player.position_data.title,
            "side": player.side,
        }
        for player in team.roster()
        if not player.miss_next_game
    }
