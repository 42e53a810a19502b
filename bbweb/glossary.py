"""The LRB5 data's names (races, positions, skills) in the reader's language.

The rules engine and the game data speak English; the names each community reads live beside
its catalogue, in ``locale/<language>/glossary.json``, keyed by the English name. Spanish races
and skills come from the data's own glossary (terms.json, seed 000's words), so the Spanish
file holds only what terms.json lacks: the positions. A name no glossary knows reads in English.
"""

import json
from functools import cache
from typing import Literal

from django.conf import settings
from django.utils.translation import get_language

from rules import gamedata

Section = Literal["races", "positions", "skills"]
SECTIONS: tuple[Section, ...] = ("races", "positions", "skills")


@cache
def glossary(language: str) -> dict[str, dict[str, str]]:
    """The glossary file of one language (empty when it has none)."""
    for locale_dir in settings.LOCALE_PATHS:
        path = locale_dir / language / "glossary.json"
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            return {section: dict(data.get(section, {})) for section in SECTIONS}
    return {section: {} for section in SECTIONS}


def _language(language: str | None) -> str:
    return (language or get_language() or settings.LANGUAGE_CODE).split("-")[0].lower()


def _lookup(section: Section, english: str, language: str | None, fallback: str) -> str:
    return glossary(_language(language))[section].get(english, fallback)


def position_title(title: str, language: str | None = None) -> str:
    """A position by its English title, as a lineup stores it (``Blitzer``)."""
    return _lookup("positions", title, language, title)


def race_name(race: gamedata.Race, language: str | None = None) -> str:
    lang = _language(language)
    return _lookup("races", race.name, lang, race.label(lang))


def position_name(position: gamedata.Position, language: str | None = None) -> str:
    return _lookup("positions", position.title, language, position.title)


def skill_name(skill: gamedata.Skill, language: str | None = None) -> str:
    lang = _language(language)
    return _lookup("skills", skill.name, lang, skill.label(lang))
