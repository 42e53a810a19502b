"""The live companion's template helpers: a fresh idempotency key per form, and the league
page's entry."""

import uuid
from typing import Any

from django import template

from matches.live.models import LiveMatch

register = template.Library()


@register.simple_tag
def live_key() -> str:
    """A new key for each form rendered: a retry of the same form sends the same one."""
    return uuid.uuid4().hex


@register.inclusion_tag("live/_league.html", takes_context=True)
def live_league(context: dict[str, Any], league: Any) -> dict[str, Any]:
    user = context["request"].user
    return {
        "league": league,
        "is_gm": user.is_authenticated and user.pk == league.gm_id,
        "live_matches": LiveMatch.objects.filter(league=league)[:20],
        "csrf_token": context.get("csrf_token"),
    }
