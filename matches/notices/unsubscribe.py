"""One-click unsubscribe (RFC 8058): every notice carries a link that turns its kind off for
its reader, in the mail (``List-Unsubscribe`` and ``List-Unsubscribe-Post``, which mail
clients show as a button and POST to) and at the foot of its text. The link's token is signed
(it names the person and the kind, and nobody can make one for another), so it needs no
login and no CSRF token: the mail client posts it without either."""

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

SALT = "bbweb.notices.unsubscribe"
NOTICE_KINDS = ("turn", "decision", "warning", "applied", "contest", "mention")
KINDS = (*NOTICE_KINDS, "digest")  # the digest's link turns off every kind it held


def _signer() -> signing.Signer:
    """Without a timestamp: a notice's link is the same in every copy and never expires."""
    return signing.Signer(salt=SALT)


def token(user_id: int, kind: str) -> str:
    return _signer().sign_object([user_id, kind], compress=True)


def read(value: str) -> tuple[int, str] | None:
    """The person and kind of a token; None when it was not made here."""
    try:
        user_id, kind = _signer().unsign_object(value)
    except (signing.BadSignature, TypeError, ValueError):
        return None
    if not isinstance(user_id, int) or kind not in KINDS:
        return None
    return user_id, kind


def url(user_id: int, kind: str) -> str:
    path = reverse("deadlines:unsubscribe", args=[token(user_id, kind)])
    return settings.SITE_URL.rstrip("/") + path


def headers(user_id: int, kind: str) -> dict[str, str]:
    return {
        "List-Unsubscribe": f"<{url(user_id, kind)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def footer(user_id: int, kind: str) -> str:
    """The line at the foot of a notice, in the language active."""
    return "\n\n" + _("No more e-mails of this kind: %(link)s") % {"link": url(user_id, kind)}
