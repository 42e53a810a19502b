"""Reading the gettext catalogues (locale/*/LC_MESSAGES/django.po) for the translation tests.

A small reader of the .po format as makemessages writes it: comments, flags, msgctxt, msgid,
msgid_plural and msgstr / msgstr[n]; obsolete entries (``#~``) are skipped.
"""

import ast
from dataclasses import dataclass, field
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstrs: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def translated(self) -> bool:
        return bool(self.msgstrs) and all(self.msgstrs) and "fuzzy" not in self.flags

    def __str__(self) -> str:
        context = f"[{self.msgctxt}] " if self.msgctxt else ""
        return f"{context}{self.msgid!r}"


def _unquote(text: str) -> str:
    value = ast.literal_eval(text.strip())
    if not isinstance(value, str):
        raise ValueError(f"not a quoted string: {text!r}")
    return value


def read(path: Path) -> list[Entry]:
    """The entries of a .po file, header excluded."""
    entries: list[Entry] = []
    current = Entry()
    target: tuple[str, int] | None = None
    started = False

    def finish() -> None:
        nonlocal current, started, target
        if started and current.msgid:
            entries.append(current)
        current, started, target = Entry(), False, None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            if started:
                finish()
            continue
        if line.startswith("#,"):
            if started:
                finish()
            current.flags.update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            if started:
                finish()
        elif line.startswith('"'):
            if target is None:
                raise ValueError(f"{path}: a continuation line with nothing to continue: {raw}")
            _append(current, target, _unquote(line))
        else:
            keyword, _, rest = line.partition(" ")
            if keyword in ("msgctxt", "msgid") and started and current.msgstrs:
                finish()
            started = True
            target = _target(keyword)
            _append(current, target, _unquote(rest), new=True)
    finish()
    return entries


def _target(keyword: str) -> tuple[str, int]:
    if keyword.startswith("msgstr["):
        return ("msgstr", int(keyword[7:-1]))
    if keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
        return (keyword, 0)
    raise ValueError(f"unknown .po keyword {keyword!r}")


def _append(entry: Entry, target: tuple[str, int], text: str, *, new: bool = False) -> None:
    name, index = target
    if name == "msgstr":
        if new:
            entry.msgstrs.append(text)
        else:
            entry.msgstrs[index] += text
    elif name == "msgctxt":
        entry.msgctxt = text if new else (entry.msgctxt or "") + text
    elif name == "msgid_plural":
        entry.msgid_plural = text if new else (entry.msgid_plural or "") + text
    else:
        entry.msgid = text if new else entry.msgid + text


def languages() -> list[str]:
    """The languages with a catalogue (a compiled-only folder, such as one `compilemessages -l
    en` leaves, is not one)."""
    return sorted(
        path.name for path in LOCALE_DIR.iterdir() if (path / "LC_MESSAGES" / "django.po").is_file()
    )


def catalogue(language: str) -> list[Entry]:
    return read(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")
