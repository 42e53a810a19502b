from typing import Any

from django import template

from matches import labels
from matches.models import Match
from matches.sequence.steps import step_text

register = template.Library()


@register.simple_tag
def step(match: Match, summary: dict[str, Any]) -> str:
    """A step's post written out in the reader's language."""
    return step_text(match, summary)


@register.filter
def injury_label(code: str) -> str:
    """A player record's casualty code (``badly_hurt``, ``dead``...) in the reader's language."""
    return labels.label(labels.RESULTS, code) if code else ""
