from django import template

from matches.models import Match
from matches.verification import receipts

register = template.Library()


@register.simple_tag
def receipt(match: Match) -> str:
    """The receipt of the match's record as it stands (matches.verification.receipts)."""
    return receipts.for_match(match)
