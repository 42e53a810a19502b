"""The daily digest: the notices a person chose to receive once a day (``digest_kinds``) wait
as unsent rows (``Notice.digest``) and go in one mail at the hour they chose, in their own time
zone. Beat runs ``send_digests`` every hour; a person whose hour it is gets what waited.

Sent once in effect, as the other notices: the run claims the rows it lists (a lease), sends
the mail, marks them sent; a run that fails gives them back for the next hour's run."""

import logging
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches.models import CoachPreferences, Notice
from matches.notices import emails, unsubscribe
from matches.notices.zones import zone_of

log = logging.getLogger(__name__)


def send_digests(now: datetime | None = None) -> int:
    """Mail the digest of everyone whose chosen hour it is now; how many went."""
    now = now or timezone.now()
    sent = 0
    readers = CoachPreferences.objects.exclude(digest_kinds=[]).select_related("user")
    for preferences in readers:
        if timezone.localtime(now, zone_of(preferences)).hour != preferences.digest_hour:
            continue
        sent += _send_digest(preferences.user, preferences, now)
    return sent


def _send_digest(user: User, preferences: CoachPreferences, now: datetime) -> int:
    if not user.email:
        return 0
    waiting = Notice.objects.filter(user=user, digest=True, sent=False).filter(
        Q(sending_until__isnull=True) | Q(sending_until__lt=now)
    )
    ids = list(waiting.order_by("pk").values_list("pk", flat=True))
    until = now + emails.LEASE
    if not ids or not Notice.objects.filter(pk__in=ids).update(sending_until=until):
        return 0
    mine = Notice.objects.filter(pk__in=ids, sending_until=until)
    notices = list(mine.select_related("match__home_team", "match__away_team").order_by("pk"))
    with translation.override(preferences.language), timezone.override(zone_of(preferences)):
        count = len(notices)
        subject = ngettext(
            "bbweb: your daily digest, %(count)s notice",
            "bbweb: your daily digest, %(count)s notices",
            count,
        ) % {"count": count}
        lines = [f"- {emails.headline(n.kind, n.match)}\n  {emails.link(n.match)}" for n in notices]
        body = "\n".join(lines) + unsubscribe.footer(user.pk, "digest")
        body += "\n" + _("Choose what comes in it, and when: %(link)s") % {
            "link": settings.SITE_URL.rstrip("/") + reverse("deadlines:preferences")
        }
    message = EmailMessage(
        subject, body, None, [user.email], headers=unsubscribe.headers(user.pk, "digest")
    )
    try:
        message.send()
    except OSError as error:
        log.warning("digest to %s failed, tried again next hour: %s", user.pk, error)
        mine.update(sending_until=None)
        return 0
    mine.update(sent=True, sending_until=None)
    return 1
