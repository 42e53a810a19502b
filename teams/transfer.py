"""The team file: export a team as JSON, and read one back into checked values.

The shape (the same for ``export_team``, ``import_team`` and the team page's download)::

    {"name", "race", "coaches": {"captain": username, "rival": username or null},
     "rerolls", "fan_factor", "assistant_coaches", "cheerleaders", "apothecary",
     "treasury": {"captain": gp, "rival": gp},
     "players": [{"number", "name", "position": "human.blitzer", "side": "captain"|"rival",
                  "spp", "skills": [gained...], "injuries": [...], "status"}]}

Gained skills are skill names or stat increases ("+MA"); injuries are "niggling",
"miss_next_game" and stat losses ("-AV"), repeated as often as they were suffered.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from rules import gamedata
from teams import rosters
from teams.models import Player, Team

# The bounds of the database's columns: a file beyond them is a list of problems, not a crash.
TEXT_MAX = 80  # a team's, a player's, a position's name
USERNAME_MAX = 150
SMALL_MAX = 32_767  # a small whole number (rerolls, player numbers...)
BIG_MAX = 2_147_483_647  # gold and SPP
LIST_MAX = 100  # skills or injuries of one player

INJURIES = ("niggling", "miss_next_game", "-MA", "-ST", "-AG", "-AV")
STATUSES = tuple(Player.Status.values)


def export_team(team: Team) -> dict[str, object]:
    players = sorted(team.players.all(), key=lambda p: (p.number, p.pk))
    return {
        "name": team.name,
        "race": team.race,
        "coaches": {
            "captain": team.captain.get_username(),
            "rival": team.rival.get_username() if team.rival else None,
        },
        "rerolls": team.rerolls,
        "fan_factor": team.fan_factor,
        "assistant_coaches": team.assistant_coaches,
        "cheerleaders": team.cheerleaders,
        "apothecary": team.apothecary,
        "treasury": {"captain": team.captain_treasury, "rival": team.rival_treasury},
        "players": [
            {
                "number": p.number,
                "name": p.name,
                "position": p.position,
                "side": p.side,
                "spp": p.spp,
                "skills": p.gained,
                "injuries": p.injuries,
                "status": p.status,
            }
            for p in players
        ],
    }


@dataclass(frozen=True)
class FilePlayer:
    number: int
    name: str
    position: str
    side: str
    spp: int
    skills: tuple[str, ...]
    injuries: tuple[str, ...]
    status: str

    @property
    def on_roster(self) -> bool:
        return self.status in Player.ON_ROSTER

    def injury_fields(self) -> dict[str, int | bool]:
        return {
            "niggling_injuries": self.injuries.count("niggling"),
            "miss_next_game": "miss_next_game" in self.injuries,
            "ma_loss": self.injuries.count("-MA"),
            "st_loss": self.injuries.count("-ST"),
            "ag_loss": self.injuries.count("-AG"),
            "av_loss": self.injuries.count("-AV"),
        }


@dataclass(frozen=True)
class TeamFile:
    name: str
    race: str
    captain: str
    rival: str | None
    rerolls: int
    fan_factor: int
    assistant_coaches: int
    cheerleaders: int
    apothecary: bool
    captain_treasury: int
    rival_treasury: int
    players: tuple[FilePlayer, ...]

    def plan(self) -> rosters.TeamPlan:
        """The players still on the roster, as a plan to check against the rules."""
        return rosters.TeamPlan(
            race=self.race,
            players=tuple(
                rosters.PlannedPlayer(p.position, p.side, p.number, p.name)
                for p in self.players
                if p.on_roster
            ),
            rerolls=self.rerolls,
            fan_factor=self.fan_factor,
            assistant_coaches=self.assistant_coaches,
            cheerleaders=self.cheerleaders,
            apothecary=self.apothecary,
        )


class _Reader:
    """Reads typed values out of decoded JSON, writing down every mistake instead of stopping."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def wrong(self, where: str, expected: str) -> None:
        self.problems.append(
            _("%(where)s: expected %(expected)s.") % {"where": where, "expected": expected}
        )

    def text(
        self, data: Mapping[str, object], key: str, where: str, *, most: int = TEXT_MAX
    ) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            self.wrong(where, _("a text"))
            return ""
        if len(value.strip()) > most or "\x00" in value:
            self.wrong(
                where, _("a text of at most %(max)d characters, without NUL") % {"max": most}
            )
            return ""
        return value.strip()

    def optional_text(
        self, data: Mapping[str, object], key: str, where: str, *, most: int = TEXT_MAX
    ) -> str | None:
        if data.get(key) in (None, ""):
            return None
        return self.text(data, key, where, most=most)

    def whole(
        self,
        data: Mapping[str, object],
        key: str,
        where: str,
        default: int = 0,
        *,
        most: int = SMALL_MAX,
    ) -> int:
        value = data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
            self.wrong(where, _("a whole number from 0 to %(max)s") % {"max": f"{most:,}"})
            return default
        return value

    def flag(self, data: Mapping[str, object], key: str, where: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            self.wrong(where, _("true or false"))
            return False
        return value

    def texts(self, data: Mapping[str, object], key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if (
            not isinstance(value, list)
            or len(value) > LIST_MAX
            or not all(isinstance(v, str) and len(v) <= TEXT_MAX for v in value)
        ):
            self.wrong(where, _("a list of texts"))
            return ()
        return tuple(str(v) for v in value)

    def mapping(self, data: Mapping[str, object], key: str, where: str) -> Mapping[str, object]:
        value = data.get(key)
        if not isinstance(value, dict):
            self.wrong(where, _("an object"))
            return {}
        return value


def read_team_file(data: object) -> tuple[TeamFile | None, list[str]]:
    """The file's content as values, or None and every problem with its shape."""
    if not isinstance(data, dict):
        return None, [_("The file must hold one JSON object (a team).")]
    read = _Reader()
    coaches = read.mapping(data, "coaches", "coaches")
    treasury = data.get("treasury") or {}
    if not isinstance(treasury, dict):
        read.wrong("treasury", _("an object"))
        treasury = {}
    raw_players = data.get("players")
    if not isinstance(raw_players, list):
        read.wrong("players", _("a list"))
        raw_players = []
    players = []
    for index, raw in enumerate(raw_players, start=1):
        where = _("player %(index)d") % {"index": index}
        if not isinstance(raw, dict):
            read.wrong(where, _("an object"))
            continue
        players.append(
            FilePlayer(
                number=read.whole(raw, "number", f"{where}: number", default=0),
                name=read.text(raw, "name", f"{where}: name"),
                position=read.text(raw, "position", f"{where}: position"),
                side=read.text(raw, "side", f"{where}: side"),
                spp=read.whole(raw, "spp", f"{where}: spp", most=BIG_MAX),
                skills=read.texts(raw, "skills", f"{where}: skills"),
                injuries=read.texts(raw, "injuries", f"{where}: injuries"),
                status=read.text(raw, "status", f"{where}: status")
                if "status" in raw
                else Player.Status.ACTIVE,
            )
        )
    team_file = TeamFile(
        name=read.text(data, "name", "name"),
        race=read.text(data, "race", "race"),
        captain=read.text(coaches, "captain", "coaches.captain", most=USERNAME_MAX),
        rival=read.optional_text(coaches, "rival", "coaches.rival", most=USERNAME_MAX),
        rerolls=read.whole(data, "rerolls", "rerolls"),
        fan_factor=read.whole(data, "fan_factor", "fan_factor"),
        assistant_coaches=read.whole(data, "assistant_coaches", "assistant_coaches"),
        cheerleaders=read.whole(data, "cheerleaders", "cheerleaders"),
        apothecary=read.flag(data, "apothecary", "apothecary"),
        captain_treasury=read.whole(treasury, "captain", "treasury.captain", most=BIG_MAX),
        rival_treasury=read.whole(treasury, "rival", "treasury.rival", most=BIG_MAX),
        players=tuple(players),
    )
    if read.problems:
        return None, read.problems
    return team_file, []


def team_file_problems(team_file: TeamFile, *, budget: int | None) -> list[str]:
    """Every way the team breaks the rules; with a budget it must be a legal new team."""
    problems = rosters.plan_problems(team_file.plan(), budget)
    try:
        race = gamedata.race(team_file.race)
    except gamedata.UnknownRace:
        return problems
    for player in team_file.players:
        label = _("Player #%(number)d %(name)s") % {"number": player.number, "name": player.name}
        if player.status not in STATUSES:
            problems.append(
                _("%(player)s: unknown status “%(status)s” (one of %(statuses)s).")
                % {"player": label, "status": player.status, "statuses": ", ".join(STATUSES)}
            )
        if not player.on_roster:
            problems.extend(_side_and_position(race, player, label))
        unknown = [i for i in player.injuries if i not in INJURIES]
        if unknown:
            problems.append(
                _("%(player)s: unknown injuries %(injuries)s (known: %(known)s).")
                % {"player": label, "injuries": ", ".join(unknown), "known": ", ".join(INJURIES)}
            )
        try:
            pos = race.position(player.position)
        except gamedata.UnknownPosition:
            continue
        problems.extend(f"{label}: {p}" for p in rosters.gained_problems(pos, player.skills))
        if budget is not None and (player.spp or player.skills or player.injuries):
            problems.append(
                _("%(player)s: a new team's players have no SPP, skills or injuries yet.")
                % {"player": label}
            )
        if budget is not None and player.status != Player.Status.ACTIVE:
            problems.append(
                _("%(player)s: a new team's players are all active.") % {"player": label}
            )
    return problems


def _side_and_position(race: gamedata.Race, player: FilePlayer, label: str) -> list[str]:
    """The checks plan_problems makes for players on the roster, for the dead and retired."""
    problems = []
    try:
        race.position(player.position)
    except gamedata.UnknownPosition:
        problems.append(
            _("%(player)s: unknown position “%(position)s” for a %(race)s team.")
            % {"player": label, "position": player.position, "race": race.name}
        )
    if player.side not in rosters.SIDES:
        problems.append(
            _("%(player)s: unknown side “%(side)s”.") % {"player": label, "side": player.side}
        )
    return problems
