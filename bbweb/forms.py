import unicodedata

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
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

# Letters of other scripts drawn like Latin ones, and digits read as letters: two names with
# the same skeleton look alike on the page (alice with a Cyrillic a, al1ce, ALICE).
_LOOK_ALIKE = str.maketrans(
    {
        "\u0430": "a",
        "\u0432": "b",
        "\u0441": "c",
        "\u0501": "d",
        "\u0435": "e",
        "\u0451": "e",
        "\u04bb": "h",
        "\u0456": "l",
        "\u0457": "l",
        "\u0458": "j",
        "\u043a": "k",
        "\u04cf": "l",
        "\u043c": "m",
        "\u043d": "h",
        "\u043e": "o",
        "\u0440": "p",
        "\u051b": "q",
        "\u0455": "s",
        "\u0442": "t",
        "\u0443": "y",
        "\u0445": "x",
        "\u051d": "w",
        "\u03b1": "a",
        "\u03b2": "b",
        "\u03b5": "e",
        "\u03b7": "n",
        "\u03b9": "l",
        "\u03ba": "k",
        "\u03bd": "v",
        "\u03bf": "o",
        "\u03c1": "p",
        "\u03c4": "t",
        "\u03c5": "u",
        "\u03c7": "x",
        "0": "o",
        "1": "l",
        "i": "l",
        "|": "l",
        "5": "s",
        "_": "",
        "-": "",
        ".": "",
    }
)


def skeleton(name: str) -> str:
    """What a name looks like: NFKC, case and accents folded, look-alike letters merged."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return plain.translate(_LOOK_ALIKE).replace("rn", "m").replace("vv", "w")


class SignUpForm(UserCreationForm[User]):
    email = forms.EmailField(
        label=_("E-mail"), help_text=_("Turn and deadline notices are sent here.")
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        name = unicodedata.normalize("NFKC", super().clean_username() or "")
        shape = skeleton(name)
        if shape in {skeleton(r) for r in RESERVED}:
            raise forms.ValidationError(_("This name is reserved; choose another."))
        # A list, not .iterator(): a server-side cursor left half-read by any() would be closed
        # later, in whatever transaction the connection is in by then.
        taken = User.objects.values_list("username", flat=True)
        if any(skeleton(existing) == shape for existing in taken):
            raise forms.ValidationError(
                _("This name looks too much like another coach's; choose another.")
            )
        return name

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"]).strip()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account already uses this e-mail address; log in or reset its password.")
            )
        return email
