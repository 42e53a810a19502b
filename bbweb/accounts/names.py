"""Usernames that pass for another: Unicode's confusables (TR39, the table
confusable-homoglyphs ships) folded into one skeleton per name, compared against every existing
and reserved name, after NFKC, in small letters and in capitals. The table's pairs are joined
into classes (a character confusable with one confusable with a third looks like the third),
each read as its smallest member: Latin alpha (U+0251), Cyrillic a (U+0430) and a are all a.
Small capitals (U+0299, small capital B) have no pair with their letter in the table and are
read as it; accents are dropped, as the names' rule was before the table."""

import functools
import json
import unicodedata
from importlib import resources

from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Names that would pass for the site or its staff in a thread or an e-mail.
RESERVED = frozenset(
    (
        "admin",
        "administrator",
        "root",
        "staff",
        "system",
        "bbweb",
        "gm",
        "gamemaster",
        "moderator",
        "mod",
        "support",
        "help",
        "info",
        "webmaster",
        "postmaster",
        "noreply",
        "anonymous",
        "everyone",
        "all",
    )
)
# Drawn between the words of a name, they change nothing of how it reads.
_SEPARATORS = str.maketrans("", "", "_-. ")
_SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "


@functools.cache
def _classes() -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Each confusable character's class representative, and the sequences of several
    letters (``rn``) with theirs, longest first."""
    table = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    parent: dict[str, str] = {}

    def root(text: str) -> str:
        while parent.get(text, text) != text:
            parent[text] = parent.get(parent[text], parent[text])
            text = parent[text]
        return text

    for text, glyphs in table.items():
        for glyph in glyphs:
            first, second = sorted((root(text), root(glyph["c"])))
            if first != second:
                parent[second] = first
    single = {text: root(text) for text in parent if len(text) == 1}
    for text in table:
        if len(text) == 1:
            single[text] = root(text)
    sequences = sorted(
        ((text, root(text)) for text in table if len(text) > 1 and text.isascii()),
        key=lambda pair: -len(pair[0]),
    )
    return single, sequences


def _letter(char: str) -> str:
    name = unicodedata.name(char, "")
    if name.startswith(_SMALL_CAPITAL) and len(name) == len(_SMALL_CAPITAL) + 1:
        return name[-1].lower()
    return char


def skeletons(name: str) -> frozenset[str]:
    """What a name looks like, in small letters and in capitals: TR39's skeletons are
    case-sensitive, and ``r00t`` passes for ``ROOT`` where ``root`` does not."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return frozenset((skeleton(folded), skeleton(folded.upper())))


def skeleton(name: str) -> str:
    """What a name looks like: NFKC, accents and separators dropped, small capitals read as
    their letter, then each confusable character as its class."""
    folded = unicodedata.normalize("NFKC", name).translate(_SEPARATORS)
    single, sequences = _classes()
    text = "".join(
        single.get(c, c)
        for c in map(_letter, unicodedata.normalize("NFD", folded))
        if not unicodedata.combining(c)
    )
    for sequence, shape in sequences:
        text = text.replace(sequence, shape)
    return unicodedata.normalize("NFD", text)


def check_name(name: str, *, exclude_pk: int | None = None) -> str:
    """The name as it is kept (NFKC), or a ValidationError if it is reserved or looks like a
    name already taken."""
    name = unicodedata.normalize("NFKC", name)
    shapes = skeletons(name)
    if any(shapes & skeletons(reserved) for reserved in RESERVED):
        raise ValidationError(_("This name is reserved; choose another."), code="reserved")
    # A list, not .iterator(): a server-side cursor left half-read by any() would be closed
    # later, in whatever transaction the connection is in by then.
    others = User.objects.all() if exclude_pk is None else User.objects.exclude(pk=exclude_pk)
    taken = others.values_list("username", flat=True)
    if any(shapes & skeletons(existing) for existing in taken):
        raise ValidationError(
            _("This name looks too much like another coach's; choose another."), code="alike"
        )
    return name


# allauth's ACCOUNT_USERNAME_VALIDATORS: Django's own rule for the characters a name may hold.
VALIDATORS = [UnicodeUsernameValidator()]
