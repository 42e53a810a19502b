"""E-mails to coaches. Called on commit, so nobody hears of a change that was rolled back."""

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from matches import services
from matches.models import Decision, Match, Post


def _users_for(match: Match, actor: str) -> list[User]:
    team_key, _sep, side = actor.partition(":")
    team = match.home_team if team_key == "home" else match.away_team
    user = team.captain if side == "captain" or team.rival is None else team.rival
    return [user] if user.email else []


def _link(match: Match) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("matches:detail", args=[match.pk])


def _send(users: list[User], subject: str, body: str) -> None:
    for user in users:
        send_mail(subject, body, None, [user.email], fail_silently=True)


def decision_awaits(decision_id: int) -> None:
    decision = Decision.objects.select_related("match__home_team", "match__away_team").get(
        pk=decision_id
    )
    match = decision.match
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("bbweb: a decision awaits you in %(match)s") % {"match": match}
        body = _("Answer it before %(deadline)s: %(link)s") % {
            "deadline": decision.deadline_at,
            "link": _link(match),
        }
    _send(_users_for(match, decision.to), subject, body)


def turn_starts(match_id: int) -> None:
    match = Match.objects.select_related("home_team", "away_team").get(pk=match_id)
    active = match.state.get("active", "home")
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("bbweb: your team's turn in %(match)s") % {"match": match}
        body = _("Post your turn before %(deadline)s: %(link)s") % {
            "deadline": match.turn_deadline_at,
            "link": _link(match),
        }
    users = _users_for(match, f"{active}:captain") + _users_for(match, f"{active}:rival")
    _send(list({u.pk: u for u in users}.values()), subject, body)


def mentioned(post_id: int) -> None:
    post = Post.objects.select_related("match__home_team", "match__away_team", "author").get(
        pk=post_id
    )
    match = post.match
    users = [u for u in services.mentioned(match, post.text) if u.email and u.pk != post.author_id]
    author = post.author.username if post.author else "bbweb"
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("bbweb: %(author)s mentioned you in %(match)s") % {
            "author": author,
            "match": match,
        }
        body = _("%(text)s\n\nRead the thread: %(link)s") % {
            "text": post.text,
            "link": _link(match),
        }
    _send(users, subject, body)
