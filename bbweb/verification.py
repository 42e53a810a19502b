"""Sign-up's e-mail check: a signed link (no table of tokens), valid for three days, sent to
the address given; following it marks the address verified."""

from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import send_mail
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from bbweb.models import EmailCheck

_SALT = "bbweb.email-check"
MAX_AGE = 3 * 24 * 3600


def send_check(request: HttpRequest, user: User) -> None:
    EmailCheck.objects.update_or_create(
        user=user, defaults={"email": user.email, "verified_at": None}
    )
    token = signing.dumps({"user": user.pk, "email": user.email}, salt=_SALT)
    link = request.build_absolute_uri(reverse("verify_email", args=[token]))
    body = _(
        "Hello %(name)s,\n\nfollow this link to confirm your e-mail address and start "
        "playing on bbweb:\n\n%(link)s\n\nThe link works for three days."
    ) % {"name": user.username, "link": link}
    send_mail(_("bbweb: confirm your e-mail address"), body, None, [user.email])


def confirm(token: str) -> User | None:
    """The user whose address the token confirms (now marked verified), or None."""
    try:
        data = signing.loads(token, salt=_SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    check = EmailCheck.objects.select_related("user").filter(user_id=data.get("user")).first()
    if check is None or check.email != data.get("email") or check.user.email != check.email:
        return None
    if check.verified_at is None:
        check.verified_at = timezone.now()
        check.save(update_fields=["verified_at"])
    return check.user
