"""Who may see a match: anybody when it is public, otherwise only its coaches and its GM
(``services.may_read``, which the services' writes check under the match's lock too)."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from matches.models import Match
from matches.services import MatchError, may_read

__all__ = ["may_read", "readable_match"]


def readable_match(match_id: int, user: AbstractBaseUser | AnonymousUser) -> Match:
    """The match, or ``no_match`` when it does not exist or is private to others (a private
    match's existence is not told to outsiders either)."""
    match = (
        Match.objects.select_related("home_team", "away_team", "league", "gm")
        .filter(pk=match_id)
        .first()
    )
    if match is None or not may_read(match, user):
        raise MatchError("no_match", "There is no such match.")
    return match
