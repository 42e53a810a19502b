"""Who a post mentions: the match's coaches and GM named as ``@username`` (read by the
thread, the notifications and the services)."""

import re

from django.contrib.auth.models import User

from matches.models import Match

MENTION = re.compile(r"(?<![\w@/:.])@([\w.+-]+)")


def mentioned(match: Match, text: str) -> list[User]:
    """The match's coaches and GM named as ``@username`` in the text."""
    prose = re.sub(r"`[^`]*`", "", text)  # a name in code is not a mention
    names = {name.rstrip(".").lower() for name in MENTION.findall(prose)}
    return [user for user in match_people(match) if user.username.lower() in names]


def match_people(match: Match) -> list[User]:
    people = [match.home_team.captain, match.home_team.rival, match.away_team.captain]
    people += [match.away_team.rival, match.gm]
    return list({u.pk: u for u in people if u is not None}.values())
