"""The GM's panel on the match page: the disputes waiting for a ruling."""

from typing import Any

from django.http import HttpRequest

from matches.models import Dispute, Match


def gm_panel_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    """What the GM panel of the match page (matches/_gm_panel.html) shows its GM."""
    open_ids = list(
        match.disputes.filter(status=Dispute.Status.OPEN)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return {
        "open_disputes": len(open_ids),
        "first_open": open_ids[0] if open_ids else None,  # the link lands on it
        "next": request.get_full_path(),
    }
