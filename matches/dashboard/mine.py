"""What a person's matches are, read for the home dashboard and "My matches": what awaits them,
what is live, what comes next (matches and the league's fixtures), what is over, and the
matches they referee. Read only."""

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from matches.models import Dispute, Fixture, Match
from matches.services import Awaiting, actors_for, awaiting, coached_by
from teams.models import League

LIVE = (Match.Status.IN_PLAY,)
UPCOMING = (Match.Status.SCHEDULED, Match.Status.PRE_MATCH)
OVER = (Match.Status.POST_MATCH, Match.Status.FINISHED)
FINISHED_SHOWN = 10
FIXTURES_SHOWN = 8


@dataclass
class MyMatch:
    """A match and the reader's part in it: the sides they coach or "game master"."""

    match: Match
    role: str


@dataclass
class Matches:
    awaiting: list[Awaiting]
    live: list[MyMatch]
    upcoming: list[MyMatch]
    finished: list[MyMatch]
    refereed: list[MyMatch]
    fixtures: list[Fixture]
    open_disputes: int

    @property
    def turns(self) -> list[Awaiting]:
        return [item for item in self.awaiting if item.what == "turn"]

    @property
    def decisions(self) -> list[Awaiting]:
        return [item for item in self.awaiting if item.what == "decision"]


def _matches() -> QuerySet[Match]:
    return Match.objects.select_related(
        "home_team__captain",
        "home_team__rival",
        "away_team__captain",
        "away_team__rival",
        "gm",
        "league",
    )


def role_of(match: Match, user: Any) -> str:
    """The reader's part in a match, in words: "Reavers (captain)", or "game master"."""
    sides = []
    for actor in actors_for(match, user):
        team_key, _sep, side = actor.partition(":")
        team = match.home_team if team_key == "home" else match.away_team
        sides.append(f"{team.name} ({_('captain') if side == 'captain' else _('rival')})")
    if match.gm_id == user.pk:
        sides.append(str(_("game master")))
    return ", ".join(sides)


def _mine(matches: QuerySet[Match], user: Any) -> list[MyMatch]:
    """The matches with the reader's part in each; one the GM took the reader's seat in (and
    gave nobody else of the reader's) has no part left and is not listed."""
    mine = (MyMatch(match, role_of(match, user)) for match in matches)
    return [item for item in mine if item.role]


def next_fixtures(user: Any) -> list[Fixture]:
    """The unplayed fixtures of the leagues the reader plays in or runs, the soonest first."""
    leagues = League.objects.filter(
        Q(gm=user) | Q(teams__captain=user) | Q(teams__rival=user)
    ).distinct()
    return list(
        Fixture.objects.filter(league__in=leagues, match__isnull=True)
        .select_related("league", "home", "away")
        .order_by("round", "scheduled_for", "pk")[:FIXTURES_SHOWN]
    )


def matches_of(user: Any) -> Matches:
    """Everything the reader's dashboard and "My matches" list, in a handful of queries."""
    coached = _matches().filter(coached_by(user))
    refereed = _matches().filter(gm=user).exclude(status=Match.Status.FINISHED)
    return Matches(
        awaiting=awaiting(user),
        live=_mine(coached.filter(status__in=LIVE), user),
        upcoming=_mine(coached.filter(status__in=UPCOMING).order_by("created_at"), user),
        finished=_mine(
            coached.filter(status__in=OVER).order_by("-finished_at", "-created_at")[
                :FINISHED_SHOWN
            ],
            user,
        ),
        refereed=_mine(refereed.order_by("status", "-created_at"), user),
        fixtures=next_fixtures(user),
        open_disputes=Dispute.objects.filter(match__gm=user, status=Dispute.Status.OPEN).count(),
    )
