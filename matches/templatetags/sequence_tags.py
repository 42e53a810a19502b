from typing import Any

from django import template
from django.utils.safestring import SafeString

from matches import labels
from matches.models import Match
from matches.sequence.steps import step_text
from matches.templatetags.match_tags import player_links

register = template.Library()


@register.simple_tag
def step(match: Match, summary: dict[str, Any]) -> SafeString:
    """A step's post written out in the reader's language, escaped, each player it names a
    link to his career."""
    return player_links(step_text(match, summary), match)


@register.filter
def injury_label(code: str) -> str:
    """A player record's casualty code (``badly_hurt``, ``dead``...) in the reader's language."""
    return labels.label(labels.RESULTS, code) if code else ""
