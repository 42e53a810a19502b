import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

TOKEN_PREFIX = "bbw_"
# last_used_at says when a token was last used to the minute: written on every request, it
# cost each of them an UPDATE (polls included).
LAST_USED_EVERY = timedelta(minutes=1)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ApiToken(models.Model):
    """A user's key to the JSON API. Only its SHA-256 is stored: the token itself is shown
    once, when it is made, and a lost one is replaced, never recovered."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token"
    )
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"API token of {self.user}"

    @classmethod
    def issue(cls, user: User) -> str:
        """A new token for the user, replacing any previous one; returns the token."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        cls.objects.update_or_create(
            user=user, defaults={"digest": _digest(token), "created_at": timezone.now()}
        )
        return token

    @classmethod
    def user_for(cls, token: str) -> User | None:
        found = cls.objects.select_related("user").filter(digest=_digest(token)).first()
        if found is None or not found.user.is_active:
            return None
        now = timezone.now()
        if found.last_used_at is None or now - found.last_used_at >= LAST_USED_EVERY:
            cls.objects.filter(pk=found.pk).update(last_used_at=now)
        return found.user


class OutboxMessage(models.Model):
    """A Celery task to send, written in the transaction of the change that calls for it (see
    bbweb/outbox.py). ``claimed_until`` is the lease of whoever is publishing it; ``sent_at``
    is set once the broker took it (and again when the task says it will come back: a retry);
    ``done_at`` once the task ran to its end. A row sent and not done for too long is sent
    again."""

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    claimed_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(
                fields=["id"], name="outbox_not_done", condition=models.Q(done_at__isnull=True)
            ),
            models.Index(fields=["created_at"], name="outbox_created_at"),
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)!r}"


@receiver(pre_save, sender=User)
def _a_new_password_ends_the_api_token(
    sender: type[User], instance: User, update_fields: frozenset[str] | None = None, **kwargs: Any
) -> None:
    """A password reset or change ends the sessions (Django) and the API token (here): whoever
    had the old password may have made a token with it."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = User.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        ApiToken.objects.filter(user_id=instance.pk).delete()


class EmailCheck(models.Model):
    """The e-mail address an account gave at sign-up, and when its link was followed. Until
    then the account reads and writes nothing for a team or a league. Accounts made by staff
    or by a command have no check and are trusted as they are."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_check"
    )
    email = models.EmailField()
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("e-mail check")
        verbose_name_plural = _("e-mail checks")

    def __str__(self) -> str:
        return f"{self.email} ({'verified' if self.verified_at else 'waiting'})"


def email_verified(user: User) -> bool:
    return not EmailCheck.objects.filter(user=user, verified_at__isnull=True).exists()
