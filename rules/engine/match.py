"""The server's constructor: a new match from two team sheets built by the Django side."""

from __future__ import annotations

from dataclasses import dataclass

from .skills import canonical
from .state import KNOWN_SKILLS, SIDES, MatchState, Player, Team


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


@dataclass(frozen=True, slots=True)
class TeamSheet:
    players: tuple[PlayerSheet, ...]
    rerolls: int = 0
    apothecary: bool = False
    fan_factor: int = 0
    cheerleaders: int = 0
    assistant_coaches: int = 0
    name: str = ""
    race: str | None = None  # the race id (Stakes)
    bribes: int = 0  # inducements (seed 003)
    igor: bool = False
    necromancer: bool = False  # Necromantic and Undead teams (seed 000)


def new_match(
    home: TeamSheet, away: TeamSheet, house_rules: bool = True, overtime: bool = True
) -> MatchState:
    """A match in its ``pregame`` phase: every player in the reserves, no turn played. Its
    first declaration is ``start_match`` (weather, fans, coin toss: all through the dice)."""
    st = MatchState(
        turn={"home": 0, "away": 0},
        house_rules=house_rules,
        phase="pregame",
        overtime=overtime,
    )
    for name, sheet in (("home", home), ("away", away)):
        st.teams[name] = Team(
            rerolls=sheet.rerolls,
            base_rerolls=sheet.rerolls,
            apothecary=sheet.apothecary,
            fame=sheet.fan_factor,  # becomes FAME at start_match
            cheerleaders=sheet.cheerleaders,
            assistant_coaches=sheet.assistant_coaches,
            race=sheet.race,
            bribes=sheet.bribes,
            igor=sheet.igor,
            necromancer=sheet.necromancer,
        )
        for ps in sheet.players:
            if ps.id in st.players:
                raise ValueError(f"player id {ps.id!r} appears twice")
            if ps.side not in SIDES:
                raise ValueError(f"player {ps.id}: side must be captain or rival")
            st.players[ps.id] = Player(
                id=ps.id,
                team=name,
                side=ps.side,
                number=ps.number,
                ma=ps.ma,
                st=ps.st,
                ag=ps.ag,
                av=ps.av,
                skills=frozenset(canonical(s, KNOWN_SKILLS) for s in ps.skills)
                | ({"Loner"} if ps.star else set()),
                state="reserves",
                star=ps.star,
            )
    return st
