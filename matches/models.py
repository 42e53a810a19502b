from django.db import models
from django.utils.translation import gettext_lazy as _


class Deadline(models.Model):
    """A moment after which the server acts for an absent coach; the beat sweep finds it."""

    kind = models.CharField(_("kind"), max_length=32)
    deadline_at = models.DateTimeField(_("deadline"), db_index=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("deadline")
        verbose_name_plural = _("deadlines")
        indexes = [
            models.Index(
                fields=["deadline_at"],
                condition=models.Q(applied_at__isnull=True),
                name="deadline_pending_idx",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} at {self.deadline_at:%Y-%m-%d %H:%M}"
