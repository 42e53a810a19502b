"""House rule 5 as a league's setting: the captain approves each of the rival's team rerolls
(the design), or either side uses them freely (seed 000 taken literally). The GM sets it in the
league's form, the league page shows it, and a match of the league plays by it."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services
from matches.deadlines.tests.conftest import STANDARD, put
from matches.league.tests.test_league_pages import SETTINGS
from matches.models import Decision, Match, Post
from teams.models import League, Team

pytestmark = pytest.mark.django_db


def _gm_sets(league: League, gm: User, rival_rerolls: str) -> None:
    client = Client()
    client.force_login(gm)
    url = reverse("gm:league_edit", args=[league.pk])
    form = client.get(url).content.decode()
    assert 'name="rival_rerolls"' in form
    data = {**SETTINGS, "name": league.name, "rival_rerolls": rival_rerolls}
    assert client.post(url, data).status_code == 302
    league.refresh_from_db()


def _rivals_failed_dodge(league: League, reavers: Team, raiders: Team, gm: User) -> Match:
    match = services.create_match(home=reavers, away=raiders, gm=gm, league=league)
    return put(match, STANDARD, rerolls_free=services.load_state(match).rerolls_free)


def test_only_the_league_gm_changes_the_rerolls_setting(league: League, alice: User) -> None:
    client = Client()
    client.force_login(alice)
    url = reverse("gm:league_edit", args=[league.pk])
    data = {**SETTINGS, "name": league.name, "rival_rerolls": "free"}
    assert client.post(url, data).status_code == 403
    league.refresh_from_db()
    assert league.rival_rerolls == League.RivalRerolls.APPROVED


def test_with_free_rerolls_the_rivals_reroll_is_used_at_once(
    league: League,
    gm: User,
    alice: User,
    bob: User,
    reavers: Team,
    raiders: Team,
    dice: list[int],
) -> None:
    _gm_sets(league, gm, "free")
    page = Client().get(reverse("gm:league", args=[league.pk])).content.decode()
    assert "Either side uses them freely" in page
    dice += [1, 4, 3, 3, 3, 3, 3, 3]  # the start of the match; then (from the first die again,
    # the position put in place) Max's dodge fails and the reroll succeeds
    match = _rivals_failed_dodge(league, reavers, raiders, gm)
    services.declare(match.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    outcome = services.answer(match.pk, bob, "team")
    assert outcome.decision is None
    assert not Decision.objects.filter(match=match, kind="reroll_approval").exists()
    match.refresh_from_db()
    state = services.load_state(match)
    assert state.pending is None
    assert state.players["h7"].at is not None and state.players["h7"].state == "standing"
    assert state.teams["home"].rerolls == 1
    first = match.events.get(type="match_created").data["state"]
    assert first["rerolls_free"] is True  # in the record: the fold plays by it too


def test_with_approval_the_captain_is_asked_about_the_rivals_reroll(
    league: League,
    gm: User,
    alice: User,
    bob: User,
    reavers: Team,
    raiders: Team,
    dice: list[int],
) -> None:
    _gm_sets(league, gm, "approved")
    page = Client().get(reverse("gm:league", args=[league.pk])).content.decode()
    assert "The captain approves each" in page
    dice += [1, 4, 3, 3, 3, 3, 3, 3]
    match = _rivals_failed_dodge(league, reavers, raiders, gm)
    services.declare(match.pk, bob, {"player": "h7", "action": "move", "path": ["J9"]})
    outcome = services.answer(match.pk, bob, "team")
    assert outcome.decision is not None
    assert (outcome.decision.kind, outcome.decision.to) == ("reroll_approval", "home:captain")
    services.answer(match.pk, alice, "approve")
    match.refresh_from_db()
    assert services.load_state(match).teams["home"].rerolls == 1
    assert match.posts.filter(kind=Post.Kind.DECISION, author=alice).exists()
