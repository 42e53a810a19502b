"""The session's user comes with what the navigation shows on every page (teams/backends.py):
whether the user is a GM and how many invitations and proposed moves await the user's answer,
read with the user instead of by queries of their own. A session that Django's plain backend
opened before stays logged in and shows the same."""

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from teams.models import Invitation, MoveProposal, Team

pytestmark = pytest.mark.django_db

BACKENDS = ["teams.backends.PageUserBackend", "django.contrib.auth.backends.ModelBackend"]


def _home(client: Client) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in queries.captured_queries]


def _badge(html: str) -> int:
    found = re.search(r'data-testid="my-teams">[^<]*<span class="badge"[^>]*>(\d+)<', html)
    return int(found.group(1)) if found else 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_answers_awaiting_a_coach_are_counted_on_every_page(
    client: Client, team: Team, other_team: Team, bob: User, backend: str
) -> None:
    # bob, the Reavers' rival, is asked to agree to a move and invited by carol's team.
    MoveProposal.objects.create(player=team.players.get(number=1), to_side="rival")
    Invitation.objects.create(team=other_team, user=bob)
    Invitation.objects.create(team=other_team, user=bob, status=Invitation.Status.DECLINED)
    client.force_login(bob, backend=backend)
    html, sql = _home(client)
    assert _badge(html) == 2
    counted_apart = [q for q in sql if '"teams_invitation"' in q and '"auth_user"' not in q]
    assert bool(counted_apart) == (backend != BACKENDS[0]), counted_apart


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_gm_is_told_apart_on_every_page(
    client: Client, gm: User, alice: User, backend: str
) -> None:
    for user, is_gm in ((gm, True), (alice, False)):
        client.force_login(user, backend=backend)
        html, sql = _home(client)
        assert ('data-testid="gm-queue"' in html) == is_gm
        assert _badge(html) == 0
        asked_apart = [q for q in sql if '"auth_group"' in q and '"auth_user"."id"' not in q]
        assert bool(asked_apart) == (backend != BACKENDS[0]), asked_apart


def test_a_wrong_password_is_checked_once(
    client: Client, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plain backend listed for the older sessions never checks a refused login again."""
    alice.set_password("right horse battery")
    alice.save()
    checked: list[str] = []
    check = User.check_password

    def counted(user: User, raw: str) -> bool:
        checked.append(raw)
        return check(user, raw)

    monkeypatch.setattr(User, "check_password", counted)
    refused = client.post(reverse("login"), {"login": "alice", "password": "wrong"})
    assert refused.status_code == 200 and "_auth_user_id" not in client.session
    assert checked == ["wrong"]
    client.post(reverse("login"), {"login": "alice", "password": "right horse battery"})
    assert client.session["_auth_user_id"] == str(alice.pk)
    assert client.session["_auth_user_backend"] == BACKENDS[0]
