"""Game names in the reader's language (from the LRB5 data, not the .po file) and gold."""

from django import template
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from bbweb import glossary
from rules import gamedata
from teams import advancement, rosters
from teams.backends import WAITING_ANSWERS
from teams.models import Invitation, MoveProposal

register = template.Library()


@register.filter
def gp(amount: int) -> str:
    return rosters.gp(int(amount))


@register.filter
def casualty_label(code: str) -> str:
    return advancement.casualty_name(code)


@register.filter
def race_label(race_id: str) -> str:
    try:
        return glossary.race_name(gamedata.race(race_id))
    except gamedata.UnknownRace:
        return race_id


@register.filter
def position_label(position_id: str) -> str:
    try:
        return glossary.position_name(gamedata.position(position_id))
    except gamedata.UnknownPosition:
        return position_id


@register.filter
def position_title_label(title: str) -> str:
    """A position stored by its English title (a match's lineup), in the reader's language."""
    return glossary.position_title(title)


@register.filter
def skill_label(name: str) -> str:
    if name in gamedata.STAT_INCREASES:
        return f"+{rosters.STAT_LABELS[name[1:]]}"
    try:
        return glossary.skill_name(gamedata.skill(name))
    except gamedata.UnknownSkill:
        return name


@register.simple_tag
def waiting_answers(user: AbstractBaseUser | AnonymousUser) -> int:
    """Invitations and proposed moves that wait for this user's answer (for the navigation)."""
    if not user.is_authenticated:
        return 0
    known = getattr(user, WAITING_ANSWERS, None)  # read with the session's user
    if known is not None:
        return int(known)
    invitations = Invitation.objects.filter(user=user.pk, status=Invitation.Status.PENDING)
    moves = MoveProposal.objects.filter(
        player__team__rival=user.pk, status=MoveProposal.Status.PENDING
    )
    # One query on every page: the two counts as one UNION ALL.
    return invitations.values_list("pk").union(moves.values_list("pk"), all=True).count()
