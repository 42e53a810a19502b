"""The role matrix's POSTs with real forms: each carries the fields a legitimate user sends
from the page, so that a refusal proves the permission check and not a form error. Two
leagues, each with its teams and a match; an account whose address waits for confirmation.

Answers, per role in the order of ROLES below: "login", or the status code, with "+" when the
request changed the database (the one who may act) and without it when it must have changed
nothing at all (the tables the site's forms write, compared row by row)."""

from collections.abc import Callable
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.db.models import Model
from django.test import Client

from bbweb.models import ApiToken
from matches import services
from matches.league.forms import LeagueForm
from matches.models import Dispute, Fixture, LeagueHook, Match, Post
from matches.tests.security.matrix_world import World, answer, build_world
from teams import services as team_services
from teams.models import Invitation, League, MoveProposal, Player, Team
from teams.tests.conftest import starting_plan

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "unverified", "coach", "rival", "captain", "gm", "other_gm", "staff")
# the matrix world's people under these roles' names ("coach": of the other team of the match)
WORLD_ROLES = {"coach": "away_captain"}
# what the site's forms write: a refused POST leaves every row of these as it was
WRITTEN: tuple[type[Model], ...] = (
    Team,
    Player,
    Invitation,
    MoveProposal,
    League,
    LeagueHook,
    Fixture,
    Match,
    Post,
    Dispute,
    ApiToken,
    EmailAddress,
)


def _with_the_other_league(world: World) -> User:
    """The other GM's league gets its own two teams and a match; the unverified account."""
    captains = [User.objects.create_user(n, email=f"{n}@example.org") for n in ("sven", "ines")]
    teams = [
        team_services.create_team(c, starting_plan(race), name=f"{c.username}'s", league=league)
        for c, race, league in zip(
            captains, ("dwarf", "orc"), (world.other_league, world.other_league), strict=True
        )
    ]
    services.create_match(
        home=teams[0], away=teams[1], gm=world.users["other_gm"], league=world.other_league
    )
    unverified = User.objects.create_user("uma", email="uma@example.org")
    EmailAddress.objects.create(user=unverified, email=unverified.email, verified=False)
    return unverified


def _no_fields_once_the_match_is_over(world: World) -> dict[str, Any]:
    """A button's form (no field but the CSRF token), the home team's match over: its roster
    may change again (a player fired or moved), and a refusal is the permission's."""
    Match.objects.filter(pk=world.match.pk).update(status=Match.Status.FINISHED)
    return {}


def _free_team(world: World) -> int:
    """The captain's second team, in no league yet."""
    plan = starting_plan("human")
    return team_services.create_team(world.users["captain"], plan, name="Free Company").pk


def _captains_token(world: World) -> int:
    ApiToken.issue(world.users["captain"], "bot", None)
    return ApiToken.objects.get(name="bot").pk


def _league_settings(world: World) -> dict[str, Any]:
    initial = LeagueForm(instance=world.league).initial
    return {**{k: v for k, v in initial.items() if v is not None}, "name": "Liga renombrada"}


# route's name: (URL, the real form's fields, the answers per role)
Case = tuple[Callable[[World], str], Callable[[World], dict[str, Any]], str]
CASES: dict[str, Case] = {
    "a webhook added to the league": (
        lambda w: f"/leagues/{w.league.pk}/hooks/",
        lambda w: {
            "kind": "json",
            "url": "https://hooks.example/new",
            "events": ["turn_posted"],
            "language": "en",
        },
        "login 403 403 403 403 302+ 403 403",
    ),
    "a webhook switched off": (
        lambda w: f"/hooks/{w.hook.pk}/switch/",
        lambda w: {"on": "0"},
        "login 403 403 403 403 302+ 403 403",
    ),
    "a webhook's secret drawn again": (
        lambda w: f"/hooks/{w.hook.pk}/secret/",
        lambda w: {},
        "login 403 403 403 403 302+ 403 403",
    ),
    "a webhook removed": (
        lambda w: f"/hooks/{w.hook.pk}/remove/",
        lambda w: {},
        "login 403 403 403 403 302+ 403 403",
    ),
    "the league's settings edited": (
        lambda w: f"/leagues/{w.league.pk}/edit/",
        _league_settings,
        "login 403 403 403 403 302+ 403 403",
    ),
    "a player renamed": (
        lambda w: f"/teams/{w.home.pk}/players/{w.player.pk}/rename/",
        lambda w: {"name": "Renamed"},
        "login 403 403 403 302+ 403 403 403",
    ),
    "a player fired": (
        lambda w: f"/teams/{w.home.pk}/players/{w.player.pk}/fire/",
        _no_fields_once_the_match_is_over,
        "login 403 403 403 302+ 403 403 403",
    ),
    "a re-roll bought": (
        lambda w: f"/teams/{w.home.pk}/buy/",
        lambda w: {"item": "reroll"},
        "login 403 403 403 302+ 403 403 403",
    ),
    "an invitation accepted": (
        lambda w: f"/teams/invitations/{w.invitation.pk}/accept/",
        lambda w: {},
        "login 403 403 403 403 403 302+ 403",
    ),
    "an invitation declined": (
        lambda w: f"/teams/invitations/{w.invitation.pk}/decline/",
        lambda w: {},
        "login 403 403 403 403 403 302+ 403",
    ),
    "a move to the rival's side accepted": (
        lambda w: f"/teams/moves/{w.proposal.pk}/accept/",
        _no_fields_once_the_match_is_over,
        "login 403 403 302+ 403 403 403 403",
    ),
    "a post in the match's thread": (
        lambda w: f"/matches/{w.match.pk}/posts/",
        lambda w: {"kind": "ooc", "text": "Well played."},
        "login 403 302+ 302+ 302+ 302+ 403 403",
    ),
    "a dispute ruled": (
        lambda w: f"/matches/{w.match.pk}/disputes/{w.dispute.pk}/rule/",
        lambda w: {"ruling": "dismiss", "note": "Nothing rude."},
        "login 404 403 403 403 302+ 404 404",
    ),
    "a dispute raised over a post": (
        lambda w: f"/matches/{w.match.pk}/disputes/raise/",
        lambda w: {"post": w.post.number, "reason": "The dice were not rolled."},
        "login 404 302+ 302+ 302+ 403 404 404",
    ),
    "the match paused by its referee": (
        lambda w: f"/matches/{w.match.pk}/control/pause/",
        lambda w: {"note": "The coaches asked for a week off."},
        "login 404 403 403 403 302+ 404 404",
    ),
    "a free team joins the league": (
        lambda w: f"/leagues/{w.league.pk}/join/",
        lambda w: {"team": _free_team(w)},
        "login 403 403 403 302+ 403 403 403",
    ),
    "another's API token revoked": (
        lambda w: "/accounts/profile/",
        lambda w: {"action": "revoke", "token": _captains_token(w)},
        "login 302 302 302 302+ 302 302 302",
    ),
}


def _state() -> dict[str, list[dict[str, Any]]]:
    return {
        model.__name__: list(model._default_manager.order_by("pk").values()) for model in WRITTEN
    }


def _ask(world: World, users: dict[str, User], url: str, data: Any, role: str) -> str:
    client = Client()
    if role != "anonymous":
        client.force_login(users[role])
    cache.clear()  # no throttle counts carried from one role to the next
    with transaction.atomic():  # each request's writes are undone before the next role asks
        form = data(world)
        before = _state()
        response: Any = client.post(url, form)
        got = answer(response)
        changed = _state() != before
        transaction.set_rollback(True)
    return got + ("+" if changed else "")


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_role_posting_the_real_form_gets_the_answer_the_matrix_gives(case: str) -> None:
    world = build_world()
    unverified = _with_the_other_league(world)
    users = {
        role: unverified if role == "unverified" else world.users[WORLD_ROLES.get(role, role)]
        for role in ROLES
        if role != "anonymous"
    }
    url_of, data, expected = CASES[case]
    url = url_of(world)
    wrong = []
    for role, want in zip(ROLES, expected.split(), strict=True):
        got = _ask(world, users, url, data, role)
        if got != want:
            wrong.append(f"POST {url} as {role}: {got}, the matrix says {want}")
    assert not wrong, "\n".join(wrong)
