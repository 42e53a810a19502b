"""LRB5 game data, read once from ``rules/data/lrb5/`` and exposed as frozen values.

Pure Python (no Django) so that the rules engine and the apps read the same numbers. Where the
data marks a value as disputed, the project's seeds decide (RULES.md): seed 003 prices a
Goblin team's bribes at 50,000 and a Halfling team's Master Chef at 100,000, and lets only
teams without an apothecary hire Igor; the forum's house rules (seed 000) remove the Wizard.

>>> race("human").position("human.blitzer").cost
90000
>>> skill("Block").label("es")
'Placar'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

DATA_DIR = Path(__file__).resolve().parent / "data" / "lrb5"

Access = Literal["normal", "double"]
STATS: tuple[str, ...] = ("MA", "ST", "AG", "AV")
# A stat increase from an improvement roll is written in a player's gained skills as "+MA".
STAT_INCREASES: tuple[str, ...] = tuple(f"+{stat}" for stat in STATS)
STAT_MIN = 1

# Seed 003 (the LRB5 pre-match sequence) where it differs from the data's single price.
_SEED_003_RACE_COSTS: dict[tuple[str, str], int] = {("bribes", "goblin"): 50_000}
# Seed 000, house rule 6: no wizard in this league.
_HOUSE_RULE_EXCLUDED: frozenset[str] = frozenset({"wizard"})
_APOTHECARY_TEAMS_ONLY = "wandering_apothecary"
_NO_APOTHECARY_TEAMS_ONLY = "igor"
# tables.json team_building.fan_factor: "OBBLM default cap 9 at creation".
_FAN_FACTOR_MAX_AT_CREATION = 9
_REROLL_PRICE_FACTOR_AFTER_CREATION = 2
_MERCENARY_SURCHARGE = 30_000
_MERCENARY_SKILL_SURCHARGE = 50_000


class GameDataError(ValueError):
    """A name or id that the LRB5 data does not know."""


class UnknownRace(GameDataError):
    pass


class UnknownPosition(GameDataError):
    pass


class UnknownSkill(GameDataError):
    pass


class UnknownInducement(GameDataError):
    pass


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _spanish(lang: str | None) -> bool:
    return bool(lang) and str(lang).lower().split("-")[0] == "es"


@dataclass(frozen=True)
class Skill:
    name: str
    name_es: str
    category: str
    category_code: str
    aliases: tuple[str, ...]
    summary: str

    def label(self, lang: str | None = None) -> str:
        return self.name_es if _spanish(lang) else self.name


@dataclass(frozen=True)
class Position:
    """A roster position; ``id`` is ``race.slug`` as in races.json (``human.blitzer``)."""

    id: str
    race_id: str
    title: str
    max_qty: int
    cost: int
    ma: int
    st: int
    ag: int
    av: int
    skills: tuple[str, ...]
    normal_categories: tuple[str, ...]
    double_categories: tuple[str, ...]

    @property
    def key(self) -> str:
        """The part of the id after the race: ``blitzer``."""
        return self.id.split(".", 1)[1]

    def label(self, lang: str | None = None) -> str:
        # terms.json has no position titles: the pages name positions from each language's
        # glossary (locale/<lang>/glossary.json, read by bbweb/glossary.py).
        return self.title

    def stat(self, name: str) -> int:
        return {"MA": self.ma, "ST": self.st, "AG": self.ag, "AV": self.av}[name]

    def access(self, skill_name: str) -> Access | None:
        """Whether a player of this position learns the skill on a normal or a double roll."""
        code = skill(skill_name).category_code
        if code in self.normal_categories:
            return "normal"
        if code in self.double_categories:
            return "double"
        return None


@dataclass(frozen=True)
class Race:
    id: str
    name: str
    name_es: str
    reroll_cost: int
    apothecary_allowed: bool
    necromancer: bool
    undead: bool
    raises_rotters: bool
    igor_allowed: bool
    halfling_master_chef_cost: int
    special_rules: tuple[str, ...]
    positions: tuple[Position, ...]

    def label(self, lang: str | None = None) -> str:
        return self.name_es if _spanish(lang) else self.name

    def position(self, position_id: str) -> Position:
        for candidate in self.positions:
            if candidate.id == position_id:
                return candidate
        raise UnknownPosition(position_id)

    @property
    def reroll_cost_after_creation(self) -> int:
        return self.reroll_cost * _REROLL_PRICE_FACTOR_AFTER_CREATION


@dataclass(frozen=True)
class StarPlayer:
    id: str
    name: str
    cost: int
    ma: int
    st: int
    ag: int
    av: int
    skills: tuple[str, ...]
    race_ids: tuple[str, ...]
    hired_with: str | None

    @property
    def hireable(self) -> bool:
        """Grotty comes free with Brick Far'th and is never hired on his own."""
        return not (self.hired_with and self.cost == 0)


@dataclass(frozen=True)
class Inducement:
    id: str
    name: str
    max: int | None
    cost: int | None
    effect: str
    excluded_by_house_rule: bool

    def cost_for(self, race_id: str) -> int | None:
        """The price for a team of the race (None when it varies: petty cash, stars ...)."""
        if (self.id, race_id) in _SEED_003_RACE_COSTS:
            return _SEED_003_RACE_COSTS[(self.id, race_id)]
        if self.id == "halfling_master_chef":
            return race(race_id).halfling_master_chef_cost
        return self.cost

    def available_to(self, race_id: str) -> bool:
        if self.excluded_by_house_rule:
            return False
        if self.id == _APOTHECARY_TEAMS_ONLY:
            return race(race_id).apothecary_allowed
        if self.id == _NO_APOTHECARY_TEAMS_ONLY:
            return race(race_id).igor_allowed
        return True


@dataclass(frozen=True)
class TeamBuilding:
    treasury: int
    players_min: int
    players_max: int
    max_rerolls: int
    max_fan_factor_at_creation: int
    fan_factor_cost: int
    assistant_coach_cost: int
    cheerleader_cost: int
    apothecary_cost: int


@dataclass(frozen=True)
class ImprovementValues:
    normal_skill: int
    double_skill: int
    stat: tuple[tuple[str, int], ...]

    def for_stat(self, stat_name: str) -> int:
        return dict(self.stat)[stat_name]


# -- reading the JSON ---------------------------------------------------------------------------

type _Json = dict[str, object]


def _load(name: str) -> _Json:
    with (DATA_DIR / f"{name}.json").open(encoding="utf-8") as handle:
        data = json.load(handle)
    if not isinstance(data, dict):
        raise GameDataError(f"{name}.json is not an object")
    return data


def _obj(value: object) -> _Json:
    if not isinstance(value, dict):
        raise GameDataError(f"expected an object, got {value!r}")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise GameDataError(f"expected a list, got {value!r}")
    return value


def _str(data: _Json, key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise GameDataError(f"{key}: expected a string, got {value!r}")
    return value


def _int(data: _Json, key: str) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise GameDataError(f"{key}: expected an integer, got {value!r}")
    return value


def _bool(data: _Json, key: str) -> bool:
    value = data[key]
    if not isinstance(value, bool):
        raise GameDataError(f"{key}: expected true or false, got {value!r}")
    return value


def _strs(value: object) -> tuple[str, ...]:
    items = _list(value)
    if not all(isinstance(item, str) for item in items):
        raise GameDataError(f"expected a list of strings, got {value!r}")
    return tuple(str(item) for item in items)


@cache
def _spanish_terms() -> dict[str, dict[str, str]]:
    terms = _load("terms")
    return {
        section: {_str(_obj(t), "en"): _str(_obj(t), "es") for t in _list(terms[section])}
        for section in ("general", "skills", "races")
    }


@cache
def _tables() -> _Json:
    return _load("tables")


def _position_id(race_id: str, data: _Json) -> str:
    """``race.slug-of-the-title``: stable as long as races.json keeps its titles."""
    derived = f"{race_id}.{_slug(_str(data, 'title'))}"
    if data.get("id", derived) != derived:
        raise GameDataError(f"position id {data['id']!r} is not {derived!r}")
    return derived


# -- the API --------------------------------------------------------------------------------------


@cache
def skills() -> tuple[Skill, ...]:
    spanish = _spanish_terms()["skills"]
    result = []
    for item in _list(_load("skills")["skills"]):
        data = _obj(item)
        name = _str(data, "name")
        result.append(
            Skill(
                name=name,
                name_es=spanish.get(name, name),
                category=_str(data, "category"),
                category_code=_str(data, "category_code"),
                aliases=_strs(data["aliases"]),
                summary=_str(data, "summary"),
            )
        )
    return tuple(result)


@cache
def _skills_by_name() -> dict[str, Skill]:
    index: dict[str, Skill] = {}
    for item in skills():
        for name in (item.name, *item.aliases):
            index[name.casefold()] = item
    return index


def skill(name: str) -> Skill:
    """A skill by its name or one of its aliases, in any case (``"mighty blow"``, ``"MB"``)."""
    try:
        return _skills_by_name()[name.strip().casefold()]
    except KeyError:
        raise UnknownSkill(name) from None


@cache
def races() -> tuple[Race, ...]:
    spanish = _spanish_terms()["races"]
    result = []
    for item in _list(_load("races")["races"]):
        data = _obj(item)
        race_id = _str(data, "id")
        positions = []
        for raw in _list(data["positions"]):
            pos = _obj(raw)
            positions.append(
                Position(
                    id=_position_id(race_id, pos),
                    race_id=race_id,
                    title=_str(pos, "title"),
                    max_qty=_int(pos, "max_qty"),
                    cost=_int(pos, "cost"),
                    ma=_int(pos, "MA"),
                    st=_int(pos, "ST"),
                    ag=_int(pos, "AG"),
                    av=_int(pos, "AV"),
                    skills=_strs(pos["skills"]),
                    normal_categories=_strs(pos["normal_categories"]),
                    double_categories=_strs(pos["double_categories"]),
                )
            )
        name = _str(data, "name")
        result.append(
            Race(
                id=race_id,
                name=name,
                name_es=spanish.get(name, name),
                reroll_cost=_int(data, "reroll_cost"),
                apothecary_allowed=_bool(data, "apothecary_allowed"),
                necromancer=_bool(data, "necromancer"),
                undead=_bool(data, "undead"),
                raises_rotters=_bool(data, "raises_rotters"),
                igor_allowed=_bool(data, "igor_allowed"),
                halfling_master_chef_cost=_int(data, "halfling_master_chef_cost"),
                special_rules=_strs(data["special_rules"]),
                positions=tuple(positions),
            )
        )
    return tuple(result)


@cache
def _races_by_key() -> dict[str, Race]:
    index: dict[str, Race] = {}
    for item in races():
        index[item.id] = item
        index[item.name.casefold()] = item
    return index


def race(race_id: str) -> Race:
    """A race by its id (``dark_elf``) or its English name (``Dark Elf``)."""
    try:
        return _races_by_key()[race_id.strip().casefold()]
    except KeyError:
        raise UnknownRace(race_id) from None


def position(position_id: str) -> Position:
    """A position by its id, ``race.slug`` (``human.blitzer``)."""
    race_id, _, _rest = position_id.partition(".")
    try:
        return race(race_id).position(position_id)
    except UnknownRace:
        raise UnknownPosition(position_id) from None


@cache
def team_building() -> TeamBuilding:
    data = _obj(_tables()["team_building"])
    return TeamBuilding(
        treasury=_int(data, "treasury"),
        players_min=_int(data, "players_min"),
        players_max=_int(data, "players_max"),
        max_rerolls=_int(data, "max_team_rerolls"),
        max_fan_factor_at_creation=_FAN_FACTOR_MAX_AT_CREATION,
        fan_factor_cost=_int(_obj(data["fan_factor"]), "cost"),
        assistant_coach_cost=_int(data, "assistant_coach"),
        cheerleader_cost=_int(data, "cheerleader"),
        apothecary_cost=_int(_obj(data["apothecary"]), "cost"),
    )


@cache
def improvement_values() -> ImprovementValues:
    data = _obj(_obj(_tables()["improvement_roll"])["value_increase"])
    return ImprovementValues(
        normal_skill=_int(data, "normal_skill"),
        double_skill=_int(data, "double_skill"),
        stat=tuple((stat, _int(data, stat)) for stat in STATS),
    )


def improvement_cost(pos: Position, gained: str) -> int:
    """What a gained skill (or a ``+MA`` style stat increase) adds to a player's value.

    Raises UnknownSkill for a name the data does not know, and GameDataError for a skill the
    position cannot learn (no normal or double access to its category).
    """
    values = improvement_values()
    if gained in STAT_INCREASES:
        return values.for_stat(gained[1:])
    found = skill(gained)
    access = pos.access(found.name)
    if access is None:
        raise GameDataError(f"{pos.id} cannot learn {found.name}")
    return values.normal_skill if access == "normal" else values.double_skill


@cache
def star_players() -> tuple[StarPlayer, ...]:
    result = []
    for item in _list(_tables()["star_players"]):
        data = _obj(item)
        hired_with = data.get("hired_with")
        result.append(
            StarPlayer(
                id=_slug(_str(data, "name")),
                name=_str(data, "name"),
                cost=_int(data, "cost"),
                ma=_int(data, "MA"),
                st=_int(data, "ST"),
                ag=_int(data, "AG"),
                av=_int(data, "AV"),
                skills=_strs(data["skills"]),
                race_ids=tuple(race(name).id for name in _strs(data["races"])),
                hired_with=hired_with if isinstance(hired_with, str) else None,
            )
        )
    return tuple(result)


def star_players_for(race_id: str) -> tuple[StarPlayer, ...]:
    """The star players a team of the race may induce (Grotty comes with Brick Far'th)."""
    wanted = race(race_id).id
    return tuple(s for s in star_players() if wanted in s.race_ids and s.hireable)


@cache
def inducements() -> tuple[Inducement, ...]:
    result = []
    for item in _list(_tables()["inducements"]):
        data = _obj(item)
        name = _str(data, "name")
        inducement_id = _slug(name)
        max_qty = data.get("max")
        cost = data.get("cost")
        result.append(
            Inducement(
                id=inducement_id,
                name=name,
                max=max_qty if isinstance(max_qty, int) else None,
                cost=cost if isinstance(cost, int) else None,
                effect=_str(data, "effect"),
                excluded_by_house_rule=inducement_id in _HOUSE_RULE_EXCLUDED,
            )
        )
    return tuple(result)


def inducement(inducement_id: str) -> Inducement:
    for item in inducements():
        if item.id == inducement_id:
            return item
    raise UnknownInducement(inducement_id)


def inducements_for(race_id: str) -> tuple[Inducement, ...]:
    """The inducements a team of the race may buy in this league."""
    wanted = race(race_id).id
    return tuple(item for item in inducements() if item.available_to(wanted))


def mercenary_cost(pos: Position, *, extra_skill: bool = False) -> int:
    """Seed 003: the position's cost + 30,000, and 50,000 more for one extra skill."""
    return pos.cost + _MERCENARY_SURCHARGE + (_MERCENARY_SKILL_SURCHARGE if extra_skill else 0)


def glossary(lang: str | None = None) -> dict[str, str]:
    """General game terms (terms.json): English -> the language asked for."""
    general = _spanish_terms()["general"]
    return dict(general) if _spanish(lang) else {en: en for en in general}
