"""The only write path of matches: every change of a match goes through a function here."""

from django.db import transaction
from django.utils import timezone

from matches.models import Deadline


def expire_deadlines(limit: int = 100) -> int:
    """Apply every deadline that has passed, each exactly once; returns how many were applied.

    Rows are taken with SKIP LOCKED so that two sweeps running at once share the work
    instead of applying a deadline twice.
    """
    applied = 0
    with transaction.atomic():
        due = (
            Deadline.objects.select_for_update(skip_locked=True)
            .filter(applied_at__isnull=True, deadline_at__lte=timezone.now())
            .order_by("deadline_at")[:limit]
        )
        for deadline in due:
            deadline.applied_at = timezone.now()
            deadline.save(update_fields=["applied_at"])
            applied += 1
    return applied
