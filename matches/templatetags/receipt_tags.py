from django import template

from matches import receipts
from matches.models import Match

register = template.Library()


@register.simple_tag
def receipt(match: Match) -> str:
    """The receipt of the match's record as it stands (matches.receipts)."""
    return receipts.for_match(match)
