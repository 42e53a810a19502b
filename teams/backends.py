"""The logged-in user as every page reads it: with what the navigation asks of it on each page
(is the user a GM, how many invitations and proposed moves wait for an answer), taken in the one
query that reads the user, where each was a query of its own. The query's SQL is built once per
connection (bbweb/compiled.py): with its three subqueries, building it cost more than running
it."""

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, F, Func, IntegerField, OuterRef, QuerySet, Subquery
from django.http import HttpRequest

from bbweb import compiled, roles
from teams.models import Invitation, MoveProposal

WAITING_ANSWERS = "_bbweb_waiting_answers"  # read by teams_tags.waiting_answers


class PageUserBackend(ModelBackend):
    """Django's model backend (passwords, permissions), whose session user comes with the
    navigation's two facts."""

    def get_user(self, user_id: Any) -> User | None:
        try:
            key = User._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = compiled.by_key(key, _page_user)
        if user is None or not self.user_can_authenticate(user):
            return None
        facts = user.__dict__
        roles.remember_game_master(user, facts["gm_member"])
        setattr(user, WAITING_ANSWERS, facts["invitations_waiting"] + facts["moves_waiting"])
        return user

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        """As the model backend; a refusal ends the search, so that the plain backend listed
        after this one for the older sessions does not hash the password a second time."""
        user = super().authenticate(request, username, password, **kwargs)
        if user is None:
            raise PermissionDenied
        return user


def _page_user() -> "QuerySet[User]":
    return User.objects.annotate(
        gm_member=Exists(Group.objects.filter(name=roles.GM_GROUP, user=OuterRef("pk"))),
        invitations_waiting=_count(
            Invitation.objects.filter(user=OuterRef("pk"), status=Invitation.Status.PENDING)
        ),
        moves_waiting=_count(
            MoveProposal.objects.filter(
                player__team__rival=OuterRef("pk"), status=MoveProposal.Status.PENDING
            )
        ),
    )


def _count(rows: Any) -> Subquery:
    """How many ``rows``: a subquery of one COUNT, which a Func (not an aggregate) keeps
    without a GROUP BY."""
    counted = rows.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")
    return Subquery(counted, output_field=IntegerField())
