"""Every word in every language: the catalogues are complete, makemessages finds nothing they
lack, the game data's names have a glossary entry, and every page of the site, walked from
the URLconf, reads in the reader's language with no English message left on it.

When one of these fails, its message lists what to translate (msgid by msgid, page by page).
"""

import html
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.translation import get_language_info

from bbweb import glossary
from bbweb.tests import catalogues
from bbweb.tests.catalogues import Entry
from rules import gamedata

ROOT = Path(settings.BASE_DIR)
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
# What makemessages reads: the apps' code and the templates (the same --ignore as the Makefile).
SOURCES = ("bbweb", "matches", "rules", "teams", "templates", "manage.py")


def _report(title: str, lines: list[str]) -> str:
    return f"{title} ({len(lines)}):\n  " + "\n  ".join(lines)


# -- the catalogues ------------------------------------------------------------------------------


def test_the_languages_setting_and_the_catalogues_agree() -> None:
    assert sorted(TRANSLATED) == catalogues.languages()


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_catalogue_is_translated(language: str) -> None:
    missing = [
        f"{entry}{' (fuzzy)' if 'fuzzy' in entry.flags else ''}"
        for entry in catalogues.catalogue(language)
        if not entry.translated
    ]
    assert not missing, _report(f"Untranslated in locale/{language}", missing)


def _makemessages_entries(tmp_path: Path) -> list[Entry]:
    """The msgids makemessages finds in the source, read from a copy of it (the real
    catalogues are left alone)."""
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    (tmp_path / "locale").mkdir()
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "xx", "--no-location", "-v", "0"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    return catalogues.read(tmp_path / "locale" / "xx" / "LC_MESSAGES" / "django.po")


def test_makemessages_finds_no_message_the_catalogues_lack(tmp_path: Path) -> None:
    found = _makemessages_entries(tmp_path)
    assert len(found) > 1000
    for language in TRANSLATED:
        known = {entry.key for entry in catalogues.catalogue(language)}
        missing = [str(entry) for entry in found if entry.key not in known]
        assert not missing, _report(f"Not in locale/{language} (run makemessages)", missing)


# Spanish races and skills come from the data's own glossary (rules/data/lrb5/terms.json, whose
# completeness rules/tests/test_gamedata.py checks); glossary.json adds the positions.
FROM_TERMS_JSON = {"es": ("races", "skills")}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_race_position_and_skill_has_a_name_in_the_language(language: str) -> None:
    names = {
        "races": [race.name for race in gamedata.races()],
        "positions": sorted({p.title for race in gamedata.races() for p in race.positions}),
        "skills": [skill.name for skill in gamedata.skills()],
    }
    own = glossary.glossary(language)
    unnamed = [
        f"{section}: {name}"
        for section, section_names in names.items()
        if section not in FROM_TERMS_JSON.get(language, ())
        for name in section_names
        if name not in own[section]
    ]
    assert not unnamed, _report(f"Not in locale/{language}/glossary.json", unnamed)


def test_the_spanish_reader_sees_the_rulebook_s_position_names() -> None:
    blitzer = gamedata.position("human.catcher")
    assert glossary.position_name(blitzer, "es") == "Receptor"
    assert glossary.position_name(gamedata.position("human.thrower"), "es") == "Lanzador"
    assert glossary.race_name(gamedata.race("human"), "ja") == "ヒューマン"
    assert glossary.skill_name(gamedata.skill("Loner"), "ja") == "ローナー"
    assert glossary.skill_name(gamedata.skill("Block"), "es") == "Placar"  # terms.json
    assert glossary.position_name(blitzer, "en") == "Catcher"


# -- the pages -----------------------------------------------------------------------------------

# Parameters the walk fills from the world it builds; a URL with any other parameter must be
# named here with the reason it is not a page to read.
NOT_PAGES = {
    "account_confirm_email": "a one-time link from an e-mail",
    "account_reset_password_from_key": "a one-time link from an e-mail",
    "api:not_found": "the JSON API's catch-all",
    "gm:control": "a form target (POST only)",
    "live:act": "the referee's buttons' target (POST only)",
}
_PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd+]|%[sd]|%%")
_WORDS = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*")
_DIGESTS = re.compile(r"[0-9a-f]{16,}")


def _patterns(
    patterns: list[URLPattern | URLResolver], prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _patterns(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif pattern.name:
            yield f"{namespace}{pattern.name}", prefix + str(pattern.pattern)


def _fragments(entry: Entry) -> list[str]:
    """The English pieces of a message a page would show as they are: the text between its
    placeholders, when two words or more."""
    pieces = _PLACEHOLDER.split(entry.msgid) + _PLACEHOLDER.split(entry.msgid_plural or "")
    return [p.strip(" .,:;()·") for p in pieces if len(_WORDS.findall(p)) >= 2]


def _english_left(language: str) -> list[tuple[str, set[str], Entry]]:
    """The English of each message translated otherwise: (the fragment, its words, the entry)."""
    entries = catalogues.catalogue(language)
    translations = " ".join(s for entry in entries for s in entry.msgstrs)
    return [
        (fragment, {word.lower() for word in _WORDS.findall(fragment)}, entry)
        for entry in entries
        if entry.msgstrs and entry.msgstrs[0] != entry.msgid
        for fragment in _fragments(entry)
        if fragment not in translations
    ]


def _english_words(language: str) -> set[str]:
    """The site's English words (of its msgids) that no translation into the language uses."""
    entries = catalogues.catalogue(language)
    kept = " ".join(s for entry in entries for s in entry.msgstrs)
    kept += " " + " ".join(
        name for names in glossary.glossary(language).values() for name in names.values()
    )
    # the language menu names each language in its own words
    kept += " " + " ".join(get_language_info(code)["name_local"] for code, _ in settings.LANGUAGES)
    kept_words = {word.lower() for word in _WORDS.findall(kept)}
    english = {word.lower() for entry in entries for word in _WORDS.findall(entry.msgid)}
    shared = SHARED_WORDS.get(language, set())
    return {word for word in english - kept_words - shared if len(word) >= 4}


# Words as much the language's as English's, which the pages of django-allauth (in allauth's
# own catalogue) use where the site's catalogue has no occasion to.
SHARED_WORDS = {"fr": {"e-mail", "active"}}


def _readable_text(page: str) -> str:
    """What a person reads: the text and the titles, labels and placeholders, without the
    scripts and without what users wrote (the thread's posts, in their own language)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'<div class="(?:post-)?text">.*?</div>', " ", page, flags=re.S)
    page = re.sub(r"<textarea\b.*?</textarea>", " ", page, flags=re.S)
    # the time zones' IANA names (Australia/Broken_Hill) are the same in every language
    page = re.sub(r'<select name="time_zone".*?</select>', " ", page, flags=re.S)
    attributes = re.findall(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    text = html.unescape(text + " " + " ".join(attributes))
    # the dice's commitments and the records' digests: hexadecimal, where "dead" or "face" can
    # turn up by chance, not words
    text = _DIGESTS.sub(" ", text)
    return re.sub(r"\s+", " ", text)


@pytest.fixture
def world(db: None) -> dict[str, list[int | str]]:
    """The demo league (a match in play, a finished one), a match in its pre-match sequence, a
    dispute, and a live match under way: every parameter of the URLconf, by name."""
    from matches import services
    from matches.live import services as live_services
    from matches.models import Advancement, Dispute, Match
    from teams.models import League, Player, Team

    call_command("load_demo", stdout=StringIO())
    gm, alice = User.objects.get(username="gm"), User.objects.get(username="alice")
    home, away = Team.objects.order_by("pk")[:2]
    league = League.objects.get()
    in_play = Match.objects.get(status=Match.Status.IN_PLAY)
    services.create_match(home=home, away=away, gm=gm, league=league, prematch=True)
    first_event = in_play.events.order_by("number").values_list("number", flat=True)[3]
    services.raise_dispute(in_play.pk, alice, reason="Wrong dice", event_number=first_event)
    live = live_services.start_live_match(gm, league, home, away)
    live = live_services.do_kick_off(live.pk, gm, "home")
    phone = next(iter(live.state["players"].values()))["token"]
    hook = _a_hook_with_its_log(league, in_play)
    return {
        "pk": list(Match.objects.values_list("pk", flat=True)),
        "live_pk": [live.pk],
        "advancement_pk": list(Advancement.objects.values_list("pk", flat=True)[:1]),
        "team_id": [home.pk, away.pk],
        "player_id": [Player.objects.filter(team=home).values_list("pk", flat=True)[0]],
        "league_id": [league.pk],
        "dispute_id": list(Dispute.objects.values_list("pk", flat=True)),
        "number": [1],
        "fixture_id": [],
        "invitation_id": [],
        "proposal_id": [],
        "token": [phone],
        "hook_id": [hook],
    }


def _a_hook_with_its_log(league: Any, match: Any) -> int:
    """A league webhook that failed once then delivered (its page shows the log)."""
    from matches.models import HookAttempt, HookDelivery, LeagueHook

    hook = LeagueHook.objects.create(
        league=league, kind="json", url="https://example.org/hook", events=["turn_begins"]
    )
    delivery = HookDelivery.objects.create(
        hook=hook, match=match, event="turn_begins", key="turn_begins:1", payload={}
    )
    HookAttempt.objects.create(delivery=delivery, status_code=502, ok=False)
    HookAttempt.objects.create(delivery=delivery, status_code=204, ok=True)
    return hook.pk


def _urls(world: dict[str, list[int | str]]) -> Iterator[tuple[str, str]]:
    unknown = []
    for name, route in _patterns(get_resolver().url_patterns):
        if name in NOT_PAGES or route.startswith(("admin", "api/")):
            continue
        params = re.findall(r"<(?:\w+:)?(\w+)>", route)
        options: list[list[int | str]] = []
        for param in params:
            key = param
            if param == "pk" and name.startswith("live:"):
                key = "live_pk"
            elif param == "pk" and name == "sequence:advance":
                key = "advancement_pk"
            if key not in world:
                unknown.append(f"{name} ({route}): no value for <{param}>")
                break
            options.append(world[key])
        else:
            for values in _product(options):
                url = route
                for value in values:
                    url = re.sub(r"<[^>]+>", str(value), url, count=1)
                yield name, "/" + url
    assert not unknown, _report("URLs the walk cannot fill (add them to NOT_PAGES?)", unknown)


def _product(options: list[list[int | str]]) -> Iterator[tuple[int | str, ...]]:
    if not options:
        yield ()
        return
    for first in options[0]:
        for rest in _product(options[1:]):
            yield (first, *rest)


def _names_in_the_world() -> set[str]:
    """Words of what users named (teams, players, leagues, usernames): not the site's."""
    from teams.models import League, Player, Team

    names = [
        *Team.objects.values_list("name", flat=True),
        *Player.objects.values_list("name", flat=True),
        *League.objects.values_list("name", flat=True),
        *User.objects.values_list("username", flat=True),
    ]
    return {word.lower() for name in names for word in _WORDS.findall(name)}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_page_reads_in_the_language_with_no_english_left(
    world: dict[str, list[int | str]], language: str
) -> None:
    readers: dict[str, User | None] = {
        "anonymous": None,
        **{name: User.objects.get(username=name) for name in ("alice", "bob", "gm")},
    }
    urls = list(_urls(world))
    messages = _english_left(language)
    words = _english_words(language) - _names_in_the_world()
    seen: set[str] = set()
    left: dict[tuple[str, str], list[str]] = {}  # (page, what is left) -> the readers who see it
    for reader_name, reader in readers.items():
        client = Client()
        if reader is not None:
            client.force_login(reader)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for name, url in urls:
            response = client.get(url)
            if response.status_code != 200 or "text/html" not in response["Content-Type"]:
                continue
            seen.add(name)
            body = response.content.decode()
            # a whole page says its language; a fragment the page polls for does not
            assert "<html" not in body or f'<html lang="{language}"' in body, url
            text = _readable_text(body)
            on_page = {word.lower() for word in _WORDS.findall(text)}
            found = [
                f"{fragment!r} from {entry}"
                for fragment, fragment_words, entry in messages
                if fragment_words <= on_page and fragment in text
            ]
            stray = sorted({w for w in _WORDS.findall(text) if w.lower() in words})
            if stray:
                found.append(f"English words: {', '.join(stray)}")
            for what in found:
                left.setdefault((url, what), []).append(reader_name)
    expected = {
        "home",
        "login",
        "signup",
        "profile",
        "teams:list",
        "teams:mine",
        "teams:create",
        "teams:detail",
        "matches:list",
        "matches:detail",
        "sequence:prematch",
        "sequence:postmatch",
        "deadlines:mine",
        "deadlines:preferences",
        "deadlines:standing_orders",
        "gm:queue",
        "gm:match_disputes",
        "gm:leagues",
        "gm:league",
        "gm:schedule",
        "gm:hooks",
        "live:match",
    }
    assert expected <= seen, f"pages never rendered: {sorted(expected - seen)}"
    report = [f"[{language}] {url} ({', '.join(who)}): {what}" for (url, what), who in left.items()]
    assert not left, _report("English left on the pages", sorted(report))


@pytest.mark.parametrize(
    ("language", "moment", "gold"),
    [
        ("en", "1 Dec 2026, 11:07 CET", "1,234,567 gp"),
        ("es", "01/12/2026 11:07 CET", "1 234 567 mo"),
        ("fi", "1.12.2026 11.07 CET", "1 234 567 kr"),
        ("fr", "01/12/2026 11:07 CET", "1 234 567 po"),
        ("ja", "2026/12/01 11:07 CET", "1,234,567 gp"),
    ],
)
def test_dates_and_gold_read_as_the_reader_writes_them(
    language: str, moment: str, gold: str
) -> None:
    from datetime import datetime

    from django.utils import formats, timezone, translation

    from teams.rosters import gp

    when = timezone.make_aware(datetime(2026, 12, 1, 11, 7))
    with translation.override(language):
        assert formats.date_format(when, "SHORT_DATETIME_FORMAT") == moment
        assert gp(1_234_567).replace("\xa0", " ") == gold
