import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from allauth.account.models import EmailAddress
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
MAX_TOKEN_NAME = 60
# The API's rate limit counts requests per token: a user's tokens are few, so that making
# more does not multiply it.
MAX_TOKENS_PER_USER = 10


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ApiToken(models.Model):
    """One of a user's keys to the JSON API, named by its owner. Only its SHA-256 is stored:
    the token itself is shown once, when it is made, and a lost one is replaced, never
    recovered. A token past ``expires_at`` opens nothing."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=MAX_TOKEN_NAME)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="api_token_name_per_user")
        ]

    def __str__(self) -> str:
        return f"API token {self.name!r} of {self.user}"

    @property
    def expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @classmethod
    def issue(cls, user: User, name: str = "API", expires_at: datetime | None = None) -> str:
        """A new token for the user, beside the others, under ``name`` (a token of that name
        is replaced); returns the token."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        cls.objects.update_or_create(
            user=user,
            name=name,
            defaults={
                "digest": _digest(token),
                "created_at": timezone.now(),
                "last_used_at": None,
                "expires_at": expires_at,
            },
        )
        return token

    @classmethod
    def find(cls, token: str) -> "ApiToken | None":
        """The token's row with its user, expired or not, or None (unknown token, or its user
        deactivated); notes its use (at most once a minute) when it still opens the API."""
        found = cls.objects.select_related("user").filter(digest=_digest(token)).first()
        if found is None or not found.user.is_active:
            return None
        now = timezone.now()
        if not found.expired and (
            found.last_used_at is None or now - found.last_used_at >= LAST_USED_EVERY
        ):
            cls.objects.filter(pk=found.pk).update(last_used_at=now)
            found.last_used_at = now
        return found

    @classmethod
    def user_for(cls, token: str) -> User | None:
        """The user the token acts for, or None when it opens nothing (expired included)."""
        found = cls.find(token)
        return None if found is None or found.expired else found.user


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


def email_verified(user: User) -> bool:
    """Whether the account may act for a team or a league: it confirmed an address (allauth),
    or gave none (made by staff or a command, trusted as it is)."""
    addresses = EmailAddress.objects.filter(user_id=user.pk)
    return addresses.filter(verified=True).exists() or not addresses.exists()
