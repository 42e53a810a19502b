"""Who may see a match: anybody when it is public, otherwise only its coaches and its GM."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from matches.models import Match
from matches.services import MatchError, actors_for, is_match_gm


def may_read(match: Match, user: AbstractBaseUser | AnonymousUser) -> bool:
    return match.is_public or is_match_gm(match, user) or bool(actors_for(match, user))


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
