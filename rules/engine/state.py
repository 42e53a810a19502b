"""The match state: plain slotted dataclasses, a hand-written copy, and the JSON shape of
SCENARIOS.md ("expect")."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .board import NAMES, parse_square
from .skills import canonical

TEAMS = ("home", "away")
SIDES = ("captain", "rival")
WEATHERS = ("sweltering_heat", "very_sunny", "nice", "pouring_rain", "blizzard")
PLAYER_STATES = ("standing", "prone", "stunned", "reserves", "ko", "casualty", "sent_off")
ON_PITCH = frozenset(("standing", "prone", "stunned"))
# pregame: before the pre-match rolls; setup: the teams post their set-ups (the kicking team
# first); kickoff: the kicking team places the kick; perfect_defence / quick_snap: a kick-off
# result lets one team set up again or step one square, the ball in the air; blitz: the
# kicking team's free turn of the Blitz! result, the ball in the air; play: team turns;
# finished: the final whistle (``result``).
PHASES = (
    "pregame",
    "setup",
    "kickoff",
    "perfect_defence",
    "quick_snap",
    "blitz",
    "play",
    "finished",
)
PLAY_PHASES = frozenset(("play", "blitz"))
SETUP_PHASES = frozenset(("setup", "perfect_defence", "quick_snap"))
OFF_PITCH = -1  # kick_landing when the kick left the pitch
CASUALTIES = (
    "badly_hurt",
    "miss_next_game",
    "niggling_injury",
    "minus_ma",
    "minus_av",
    "minus_ag",
    "minus_st",
    "dead",
)

_SKILLS_JSON = Path(__file__).resolve().parent.parent / "data" / "lrb5" / "skills.json"


def _known_skills() -> frozenset[str]:
    try:
        data = json.loads(_SKILLS_JSON.read_text(encoding="utf-8"))
    except OSError:
        return frozenset()
    return frozenset(str(s["name"]) for s in data["skills"])


KNOWN_SKILLS: frozenset[str] = _known_skills()


def other(team: str) -> str:
    return "away" if team == "home" else "home"


def _sq(value: Any) -> int | None:
    return None if value is None else parse_square(value)


def _sq_name(sq: int | None) -> str | None:
    return None if sq is None else NAMES[sq]


@dataclass(slots=True)
class Player:
    id: str
    team: str
    side: str = "captain"
    number: int | None = None
    ma: int = 6
    st: int = 3
    ag: int = 3
    av: int = 8
    skills: frozenset[str] = frozenset()
    at: int | None = None
    state: str = "standing"
    acted: bool = False
    casualty: str | None = None
    used: frozenset[str] = frozenset()  # once-per-turn skills used this team turn
    no_tz: bool = False  # Bone-Head / Really Stupid: no tackle zone until its next action
    rooted: bool = False  # Take Root
    stunned_now: bool = False  # stunned in its own team's current turn: stays stunned once
    collapsed: bool = False  # sweltering heat: sits out the next kick-off
    star: bool = False  # a star player: no apothecary, no Igor (seed 003)
    played: bool = False  # set up on the pitch in this drive (Secret Weapon)
    casualty_also: str | None = None  # Decay: the second casualty result

    def copy(self) -> Player:
        return Player(
            self.id,
            self.team,
            self.side,
            self.number,
            self.ma,
            self.st,
            self.ag,
            self.av,
            self.skills,
            self.at,
            self.state,
            self.acted,
            self.casualty,
            self.used,
            self.no_tz,
            self.rooted,
            self.stunned_now,
            self.collapsed,
            self.star,
            self.played,
            self.casualty_also,
        )

    def has(self, skill: str) -> bool:
        return skill in self.skills


@dataclass(slots=True)
class Team:
    rerolls: int = 0
    reroll_used: bool = False
    blitz_used: bool = False
    blitz_side: str = "captain"
    blitz_claimed: bool = False
    pass_used: bool = False
    hand_off_used: bool = False
    fouls_used: dict[str, int] = field(default_factory=lambda: {"captain": 0, "rival": 0})
    apothecary: int = 0  # apothecary uses left: the team's own plus wandering ones (seed 003)
    ended: frozenset[str] = frozenset()  # sides that ended their part of this team turn
    base_rerolls: int | None = None  # restored at half time (None: the rerolls at the start)
    leader_used: bool = False  # the Leader reroll of this half was used
    fame: int = 0
    cheerleaders: int = 0
    assistant_coaches: int = 0
    posted: frozenset[str] = frozenset()  # sides that posted their set-up in this phase
    race: str | None = None  # the race id (Stakes, the Necromancer's Zombie)
    bribes: int = 0  # unused bribes (seed 003)
    igor: bool = False  # an unused Igor: one Regeneration re-roll per match
    necromancer: bool = False  # an unused Raise the Dead (seed 000)
    rotters: tuple[str, ...] = ()  # dead opponents who join as Rotters after the match
    babes: int = 0  # Bloodweiser Babes: +1 each to the team's KO recovery rolls (seed 003)
    chefs: int = 0  # Halfling Master Chefs: 3D6 each at the start of each half (seed 003)

    def copy(self) -> Team:
        return Team(
            self.rerolls,
            self.reroll_used,
            self.blitz_used,
            self.blitz_side,
            self.blitz_claimed,
            self.pass_used,
            self.hand_off_used,
            dict(self.fouls_used),
            self.apothecary,
            self.ended,
            self.base_rerolls,
            self.leader_used,
            self.fame,
            self.cheerleaders,
            self.assistant_coaches,
            self.posted,
            self.race,
            self.bribes,
            self.igor,
            self.necromancer,
            self.rotters,
            self.babes,
            self.chefs,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rerolls": self.rerolls,
            "reroll_used": self.reroll_used,
            "blitz_used": self.blitz_used,
            "blitz_side": self.blitz_side,
            "blitz_claimed": self.blitz_claimed,
            "pass_used": self.pass_used,
            "hand_off_used": self.hand_off_used,
            "fouls_used": {
                "captain": self.fouls_used.get("captain", 0),
                "rival": self.fouls_used.get("rival", 0),
            },
            # true/false for 0 or 1 use (the old form), a count from 2 on
            "apothecary": self.apothecary if self.apothecary > 1 else self.apothecary == 1,
            "ended": sorted(self.ended),
            "base_rerolls": self.rerolls if self.base_rerolls is None else self.base_rerolls,
            "leader_used": self.leader_used,
            "fame": self.fame,
            "cheerleaders": self.cheerleaders,
            "assistant_coaches": self.assistant_coaches,
            "posted": sorted(self.posted),
            "race": self.race,
            "bribes": self.bribes,
            "igor": self.igor,
            "necromancer": self.necromancer,
            "rotters": list(self.rotters),
            "babes": self.babes,
            "chefs": self.chefs,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Team:
        fouls = d.get("fouls_used", {})
        if not isinstance(fouls, dict):
            raise ValueError("fouls_used must be an object {captain, rival}")
        blitz_side = d.get("blitz_side", "captain")
        if blitz_side not in SIDES:
            raise ValueError(f"blitz_side must be captain or rival, not {blitz_side!r}")
        return cls(
            rerolls=_int(d.get("rerolls", 0), "rerolls"),
            reroll_used=bool(d.get("reroll_used", False)),
            blitz_used=bool(d.get("blitz_used", False)),
            blitz_side=blitz_side,
            blitz_claimed=bool(d.get("blitz_claimed", False)),
            pass_used=bool(d.get("pass_used", False)),
            hand_off_used=bool(d.get("hand_off_used", False)),
            fouls_used={
                "captain": _int(fouls.get("captain", 0), "fouls_used.captain"),
                "rival": _int(fouls.get("rival", 0), "fouls_used.rival"),
            },
            apothecary=_count(d.get("apothecary", 0), "apothecary"),
            ended=frozenset(d.get("ended", ())),
            base_rerolls=_int(d.get("base_rerolls", d.get("rerolls", 0)), "base_rerolls"),
            leader_used=bool(d.get("leader_used", False)),
            fame=_int(d.get("fame", 0), "fame"),
            cheerleaders=_int(d.get("cheerleaders", 0), "cheerleaders"),
            assistant_coaches=_int(d.get("assistant_coaches", 0), "assistant_coaches"),
            posted=frozenset(d.get("posted", ())),
            race=None if d.get("race") is None else str(d["race"]),
            bribes=_int(d.get("bribes", 0), "bribes"),
            igor=bool(d.get("igor", False)),
            necromancer=bool(d.get("necromancer", False)),
            rotters=tuple(str(r) for r in d.get("rotters", ())),
            babes=_count(d.get("babes", 0), "babes"),
            chefs=_count(d.get("chefs", 0), "chefs"),
        )


def _int(v: Any, name: str) -> int:
    if type(v) is int:  # the common case first: a state holds thousands of them
        return v
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{name} must be an integer, not {v!r}")
    return v


def _count(v: Any, name: str) -> int:
    """A count that is never negative; true/false read as 1/0 (older files)."""
    if isinstance(v, bool):
        return int(v)
    n = _int(v, name)
    if n < 0:
        raise ValueError(f"{name} must not be negative, not {n}")
    return n


@dataclass(slots=True)
class Pending:
    """A decision the engine waits for. ``actor``, ``declaration`` and ``answers`` say how to
    continue: resolve the same declaration from the same state with ``answers + (answer,)``."""

    kind: str
    to: str
    options: list[Any]
    default: Any
    actor: str = ""
    declaration: dict[str, Any] | None = None
    answers: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "to": self.to,
            "options": list(self.options),
            "default": self.default,
            "actor": self.actor,
            "declaration": self.declaration,
            "answers": list(self.answers),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Pending:
        return cls(
            str(d["kind"]),
            str(d["to"]),
            list(d.get("options", [])),
            d.get("default"),
            str(d.get("actor", "")),
            d.get("declaration"),
            list(d.get("answers", [])),
        )


@dataclass(slots=True)
class MatchState:
    half: int = 1
    turn: dict[str, int] = field(default_factory=lambda: {"home": 1, "away": 0})
    active: str = "home"
    weather: str = "nice"
    score: dict[str, int] = field(default_factory=lambda: {"home": 0, "away": 0})
    turnover: bool = False
    house_rules: bool = True
    teams: dict[str, Team] = field(default_factory=lambda: {"home": Team(), "away": Team()})
    players: dict[str, Player] = field(default_factory=dict)
    ball_at: int | None = None
    carrier: str | None = None
    pending: Pending | None = None
    dice_used: int = 0
    board: dict[int, str] = field(default_factory=dict)  # square -> player id (derived)
    phase: str = "play"
    kicking: str = "away"  # the team kicking off the current drive
    first_kick: str = "away"  # the team that kicked off the first half
    kick_landing: int | None = None  # the ball in the air (OFF_PITCH: it left the pitch)
    ref_gone: bool = False  # Get the Ref: nobody is sent off for the rest of the half
    overtime: bool = True  # a tie at full time goes to overtime (else the match is drawn)
    knockout: bool = False  # a cup match: no agreed draw, a tie goes on to overtime
    result: dict[str, Any] | None = None
    weather_rolled: bool = False  # the pre-match weather is known (``pregame_weather``)
    rerolls_free: bool = False  # house rule 5: the rival uses team rerolls with no approval

    # -- copying ---------------------------------------------------------------------------
    def copy(self) -> MatchState:
        """Players are shared, not copied: the resolver copies a player before changing it."""
        return MatchState(
            self.half,
            dict(self.turn),
            self.active,
            self.weather,
            dict(self.score),
            self.turnover,
            self.house_rules,
            {"home": self.teams["home"].copy(), "away": self.teams["away"].copy()},
            dict(self.players),
            self.ball_at,
            self.carrier,
            self.pending,
            self.dice_used,
            dict(self.board),
            self.phase,
            self.kicking,
            self.first_kick,
            self.kick_landing,
            self.ref_gone,
            self.overtime,
            self.knockout,
            self.result,
            self.weather_rolled,
            self.rerolls_free,
        )

    def deep_copy(self) -> MatchState:
        st = self.copy()
        st.players = {k: p.copy() for k, p in self.players.items()}
        return st

    def rebuild_board(self) -> None:
        self.board = {p.at: pid for pid, p in self.players.items() if p.at is not None}

    def ball_square(self) -> int | None:
        if self.carrier is not None:
            return self.players[self.carrier].at
        return self.ball_at

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self, compact: bool = False) -> dict[str, Any]:
        """The SCENARIOS.md shape. ``compact`` leaves out every player and team key that holds
        its default (``from_json`` restores them): the form to store."""
        ball_sq = self.ball_square()
        players = {pid: self._player_json(p) for pid, p in self.players.items()}
        teams = {t: self.teams[t].to_json() for t in TEAMS}
        kl = self.kick_landing
        whole = {
            "phase": self.phase,
            "kicking": self.kicking,
            "first_kick": self.first_kick,
            "kick_landing": "off" if kl == OFF_PITCH else _sq_name(kl),
            "ref_gone": self.ref_gone,
            "overtime": self.overtime,
            **({"knockout": True} if self.knockout else {}),
            "result": self.result,
            "weather_rolled": self.weather_rolled,
            "rerolls_free": self.rerolls_free,
            "half": self.half,
            "turn": {"home": self.turn["home"], "away": self.turn["away"]},
            "active": self.active,
            "weather": self.weather,
            "score": {"home": self.score["home"], "away": self.score["away"]},
            "turnover": self.turnover,
            "house_rules": self.house_rules,
            "teams": teams,
            "players": players,
            "ball": {"at": _sq_name(ball_sq), "carrier": self.carrier},
            "pending": None if self.pending is None else self.pending.to_json(),
            "dice_used": self.dice_used,
        }
        return compacted(whole) if compact else whole

    def _player_json(self, p: Player) -> dict[str, Any]:
        return {
            "team": p.team,
            "side": p.side,
            "number": p.number,
            "ma": p.ma,
            "st": p.st,
            "ag": p.ag,
            "av": p.av,
            "skills": sorted(p.skills),
            "at": _sq_name(p.at),
            "state": p.state,
            "has_ball": self.carrier == p.id,
            "acted": p.acted,
            "casualty": p.casualty,
            "used": sorted(p.used),
            "no_tz": p.no_tz,
            "rooted": p.rooted,
            "stunned_now": p.stunned_now,
            "collapsed": p.collapsed,
            "star": p.star,
            "played": p.played,
            "casualty_also": p.casualty_also,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> MatchState:
        """The inverse of ``to_json``; missing keys take the setup defaults."""
        st = cls._base(d, house_rules=bool(d.get("house_rules", True)))
        players = d.get("players", {})
        if isinstance(players, dict):
            players = [{"id": pid, **pd} for pid, pd in players.items()]
        carrier: str | None = None
        for pd in players:
            p = _player_from(pd)
            if p.id in st.players:
                raise ValueError(f"player {p.id!r} appears twice")
            st.players[p.id] = p
            if pd.get("has_ball"):
                carrier = p.id
        ball = d.get("ball") or {}
        if not isinstance(ball, dict):
            raise ValueError("ball must be an object")
        st.carrier = ball.get("carrier") or carrier
        if st.carrier is not None:
            if st.carrier not in st.players:
                raise ValueError(f"ball.carrier {st.carrier!r} is not a player")
            if st.players[st.carrier].at is None:
                raise ValueError(f"ball.carrier {st.carrier!r} is not on the pitch")
            st.ball_at = None
        else:
            st.ball_at = _sq(ball.get("at"))
        pend = d.get("pending")
        st.pending = Pending.from_json(pend) if pend else None
        st.dice_used = _int(d.get("dice_used", 0), "dice_used")
        phase = d.get("phase", "play")
        if phase not in PHASES:
            raise ValueError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
        st.phase = phase
        for key in ("kicking", "first_kick"):
            value = d.get(key, other(st.active) if key == "kicking" else "away")
            if value not in TEAMS:
                raise ValueError(f"{key} must be home or away, not {value!r}")
            setattr(st, key, value)
        kl = d.get("kick_landing")
        st.kick_landing = OFF_PITCH if kl == "off" else _sq(kl)
        st.ref_gone = bool(d.get("ref_gone", False))
        st.overtime = bool(d.get("overtime", True))
        st.knockout = bool(d.get("knockout", False))
        result = d.get("result")
        if result is not None and not isinstance(result, dict):
            raise ValueError("result must be an object or null")
        st.result = result
        st.weather_rolled = bool(d.get("weather_rolled", False))
        st.rerolls_free = bool(d.get("rerolls_free", False))
        st.rebuild_board()
        if len(st.board) != sum(1 for p in st.players.values() if p.at is not None):
            raise ValueError("two players stand on the same square")
        return st

    @classmethod
    def from_setup(cls, setup: dict[str, Any], house_rules: bool = True) -> MatchState:
        """A state from a scenario ``setup`` object and its defaults."""
        return cls.from_json({**setup, "house_rules": house_rules})

    @classmethod
    def _base(cls, d: dict[str, Any], house_rules: bool) -> MatchState:
        active = d.get("active", "home")
        if active not in TEAMS:
            raise ValueError(f"active must be home or away, not {active!r}")
        turn = d.get("turn") or {}
        turn = {active: turn.get(active, 1), other(active): turn.get(other(active), 0)}
        weather = d.get("weather", "nice")
        if weather not in WEATHERS:
            raise ValueError(f"weather must be one of {', '.join(WEATHERS)}, not {weather!r}")
        teams_d = d.get("teams") or {}
        score = d.get("score") or {}
        return cls(
            half=_int(d.get("half", 1), "half"),
            turn={t: _int(turn[t], f"turn.{t}") for t in TEAMS},
            active=active,
            weather=weather,
            score={t: _int(score.get(t, 0), f"score.{t}") for t in TEAMS},
            turnover=bool(d.get("turnover", False)),
            house_rules=house_rules,
            teams={t: Team.from_json(teams_d.get(t) or {}) for t in TEAMS},
        )


@functools.lru_cache(maxsize=4096)
def _skill_set(skills: tuple[str, ...]) -> frozenset[str]:
    """The registry's spelling of a player's skills (a state's players share few sets)."""
    return frozenset(canonical(s, KNOWN_SKILLS) for s in skills)


def _player_int(pd: dict[str, Any], key: str, default: int | None, pid: str) -> int:
    value = pd.get(key, default)
    if type(value) is int:  # the message is made only for a value that is wrong
        return value
    return _int(value, f"player {pid}: {key}")


def _player_from(pd: dict[str, Any]) -> Player:
    pid = pd.get("id")
    if not isinstance(pid, str) or not pid:
        raise ValueError(f"a player needs a string id: {pd!r}")
    team = pd.get("team")
    if team not in TEAMS:
        raise ValueError(f"player {pid}: team must be home or away, not {team!r}")
    side = pd.get("side", "captain")
    if side not in SIDES:
        raise ValueError(f"player {pid}: side must be captain or rival, not {side!r}")
    state = pd.get("state", "standing")
    if state not in PLAYER_STATES:
        raise ValueError(f"player {pid}: unknown state {state!r}")
    at = _sq(pd.get("at"))
    if state in ON_PITCH and at is None:
        raise ValueError(f"player {pid}: a {state} player needs a square (at)")
    if state not in ON_PITCH:
        at = None
    cas = pd.get("casualty")
    cas2 = pd.get("casualty_also")
    for c in (cas, cas2):
        if c is not None and c not in CASUALTIES:
            raise ValueError(f"player {pid}: unknown casualty {c!r}")
    skills = pd.get("skills", [])
    if not isinstance(skills, list):
        raise ValueError(f"player {pid}: skills must be a list")
    try:
        skill_set = _skill_set(tuple(str(s) for s in skills))
    except ValueError as e:
        raise ValueError(f"player {pid}: {e}") from None
    number = pd.get("number")
    return Player(
        id=pid,
        team=team,
        side=side,
        number=None if number is None else _player_int(pd, "number", None, pid),
        ma=_player_int(pd, "ma", 6, pid),
        st=_player_int(pd, "st", 3, pid),
        ag=_player_int(pd, "ag", 3, pid),
        av=_player_int(pd, "av", 8, pid),
        skills=skill_set,
        at=at,
        state=state,
        acted=bool(pd.get("acted", False)),
        casualty=cas,
        used=frozenset(pd.get("used", ())),
        no_tz=bool(pd.get("no_tz", False)),
        rooted=bool(pd.get("rooted", False)),
        stunned_now=bool(pd.get("stunned_now", False)),
        collapsed=bool(pd.get("collapsed", False)),
        star=bool(pd.get("star", False)),
        played=bool(pd.get("played", False)),
        casualty_also=cas2,
    )


def compacted(whole: dict[str, Any]) -> dict[str, Any]:
    """``to_json()``'s shape without the player and team keys that hold their defaults: what
    ``to_json(compact=True)`` gives, from a whole one already made."""
    return {
        **whole,
        "teams": {
            t: {k: v for k, v in tj.items() if _TEAM_DEFAULTS.get(k, _NO) != v}
            for t, tj in whole["teams"].items()
        },
        "players": {
            pid: {k: v for k, v in pj.items() if _PLAYER_DEFAULTS.get(k, _NO) != v}
            for pid, pj in whole["players"].items()
        },
    }


_NO = object()
_PLAYER_DEFAULTS: dict[str, Any] = {
    "side": "captain",
    "number": None,
    "ma": 6,
    "st": 3,
    "ag": 3,
    "av": 8,
    "skills": [],
    "at": None,
    "state": "standing",
    "has_ball": False,
    "acted": False,
    "casualty": None,
    "used": [],
    "no_tz": False,
    "rooted": False,
    "stunned_now": False,
    "collapsed": False,
    "star": False,
    "played": False,
    "casualty_also": None,
}
_TEAM_DEFAULTS: dict[str, Any] = {
    "reroll_used": False,
    "blitz_used": False,
    "blitz_side": "captain",
    "blitz_claimed": False,
    "pass_used": False,
    "hand_off_used": False,
    "fouls_used": {"captain": 0, "rival": 0},
    "apothecary": False,
    "ended": [],
    "leader_used": False,
    "fame": 0,
    "cheerleaders": 0,
    "assistant_coaches": 0,
    "posted": [],
    "race": None,
    "bribes": 0,
    "igor": False,
    "necromancer": False,
    "rotters": [],
    "babes": 0,
    "chefs": 0,
}
