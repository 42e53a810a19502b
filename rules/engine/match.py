"""The server's constructor: a new match from two team sheets built by the Django side."""

from __future__ import annotations

from dataclasses import dataclass

from .skills import canonical
from .state import KNOWN_SKILLS, SIDES, WEATHERS, MatchState, Player, Team


@dataclass(frozen=True, slots=True)
class PlayerSheet:
    """One rostered player available for the match (ids unique across both teams)."""

    id: str
    number: int
    ma: int
    st: int
    ag: int
    av: int
    skills: tuple[str, ...] = ()
    side: str = "captain"
    name: str = ""
    position: str = ""
    star: bool = False  # a star player: Loner, no apothecary nor Igor (seed 003)
    mercenary: bool = False  # a mercenary: Loner (seed 003); the apothecary may treat him


@dataclass(frozen=True, slots=True)
class TeamSheet:
    """A team as it plays one match, inducements included (seed 003): star players and
    mercenaries are among ``players``; the rest are the fields below."""

    players: tuple[PlayerSheet, ...]
    rerolls: int = 0
    apothecary: bool = False  # the team's own apothecary
    fan_factor: int = 0
    cheerleaders: int = 0
    assistant_coaches: int = 0
    name: str = ""
    race: str | None = None  # the race id (Stakes)
    bribes: int = 0  # inducements (seed 003): each spent once, 2-6 cancels a sending-off
    igor: bool = False  # one re-roll of a failed Regeneration roll per match
    necromancer: bool = False  # Necromantic and Undead teams (seed 000)
    babes: int = 0  # Bloodweiser Babes: +1 each to the team's KO recovery rolls
    chefs: int = 0  # Halfling Master Chefs: 3D6 each at the start of each half
    wandering_apothecaries: int = 0  # one more apothecary use each
    extra_training: int = 0  # Extra Team Training: team rerolls for this match


def new_match(
    home: TeamSheet,
    away: TeamSheet,
    house_rules: bool = True,
    overtime: bool = True,
    *,
    knockout: bool = False,
    weather: str | None = None,
    dice_used: int = 0,
) -> MatchState:
    """A match in its ``pregame`` phase: every player in the reserves, no turn played. Its
    first declaration is ``start_match`` (weather, fans, coin toss: all through the dice).

    Seed 003's order (weather, then petty cash and inducements, then the rest): declare
    ``pregame_weather`` on a first ``new_match``, choose the inducements, then build the match
    again with the final sheets, ``weather`` and ``dice_used`` of that state (the stream goes
    on after the weather's two dice); its ``start_match`` then rolls no weather."""
    if weather is not None and weather not in WEATHERS:
        raise ValueError(f"weather must be one of {', '.join(WEATHERS)}, not {weather!r}")
    st = MatchState(
        turn={"home": 0, "away": 0},
        house_rules=house_rules,
        phase="pregame",
        overtime=overtime,
        knockout=knockout,
        weather=weather or "nice",
        dice_used=dice_used,
        weather_rolled=weather is not None,
    )
    for name, sheet in (("home", home), ("away", away)):
        for count in ("rerolls", "babes", "chefs", "wandering_apothecaries", "extra_training"):
            if getattr(sheet, count) < 0:
                raise ValueError(f"{name}: {count} must not be negative")
        rerolls = sheet.rerolls + sheet.extra_training
        st.teams[name] = Team(
            rerolls=rerolls,
            base_rerolls=rerolls,
            apothecary=int(sheet.apothecary) + sheet.wandering_apothecaries,
            fame=sheet.fan_factor,  # becomes FAME at start_match
            cheerleaders=sheet.cheerleaders,
            assistant_coaches=sheet.assistant_coaches,
            race=sheet.race,
            bribes=sheet.bribes,
            igor=sheet.igor,
            necromancer=sheet.necromancer,
            babes=sheet.babes,
            chefs=sheet.chefs,
        )
        for ps in sheet.players:
            if ps.id in st.players:
                raise ValueError(f"player id {ps.id!r} appears twice")
            if ps.side not in SIDES:
                raise ValueError(f"player {ps.id}: side must be captain or rival")
            skills = frozenset([canonical(s, KNOWN_SKILLS) for s in ps.skills])
            if ps.star or ps.mercenary:
                skills |= {"Loner"}
            st.players[ps.id] = Player(
                id=ps.id,
                team=name,
                side=ps.side,
                number=ps.number,
                ma=ps.ma,
                st=ps.st,
                ag=ps.ag,
                av=ps.av,
                skills=skills,
                state="reserves",
                star=ps.star,
            )
    return st
