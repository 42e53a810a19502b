"""Who is who in a match: the sides a user coaches, its GM, who may read it. Read only."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from matches.models import Match

AnyUser = AbstractBaseUser | AnonymousUser


def actors_for(match: Match, user: AnyUser) -> list[str]:
    """The TEAM:SIDE strings this user coaches in the match (none for a spectator)."""
    actors: list[str] = []
    for key, team in (("home", match.home_team), ("away", match.away_team)):
        for side in ("captain", "rival"):
            substitute = match.substitutes.get(f"{key}:{side}")
            if substitute is not None:
                if user.is_authenticated and user.pk == substitute:
                    actors.append(f"{key}:{side}")
            elif team.controls(user, side):
                actors.append(f"{key}:{side}")
    return actors


def coached_by(user: AnyUser) -> Q:
    """The matches where the user may coach a side: a side of either team, or a seat the GM
    gave the user as a substitute (``actors_for`` then says which seats are really the
    user's: a coach the GM replaced still matches by his team and holds none)."""
    seats = Q()
    for actor in ("home:captain", "home:rival", "away:captain", "away:rival"):
        seats |= Q(**{f"substitutes__{actor}": user.pk})
    return (
        Q(home_team__captain_id=user.pk)
        | Q(home_team__rival_id=user.pk)
        | Q(away_team__captain_id=user.pk)
        | Q(away_team__rival_id=user.pk)
        | seats
    )


def user_pk(user: AnyUser) -> int:
    """The id of a user already known to be logged in."""
    assert user.pk is not None
    return int(user.pk)


def is_match_gm(match: Match, user: AnyUser) -> bool:
    return user.is_authenticated and user.pk == match.gm_id


def may_read(match: Match, user: AnyUser) -> bool:
    """Anybody reads a public match; a private one only its coaches and its GM."""
    return match.is_public or is_match_gm(match, user) or bool(actors_for(match, user))


def coach_of(match: Match, actor: str) -> int:
    """The user id of a TEAM:SIDE's coach (the captain holds the rival's side until a rival
    joins)."""
    team_key, _sep, side = actor.partition(":")
    team = match.home_team if team_key == "home" else match.away_team
    if side == "captain" or team.rival_id is None:
        return team.captain_id
    return team.rival_id
