"""The world the role matrix asks about: one private match in play in the GM's league, with
everything a URL of the site can name (a post, a dispute, an invitation, a move, an
improvement roll, a fixture), and the people of the matrix's columns."""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import Group, User
from django.contrib.contenttypes.models import ContentType
from django.http import HttpResponse
from django.urls import URLResolver, get_resolver

from bbweb.roles import GM_GROUP, make_game_master
from matches import services
from matches.live import services as live_services
from matches.live.models import LiveMatch
from matches.models import Advancement, Dispute, Fixture, LeagueHook, Match, Post
from teams import rosters
from teams import services as team_services
from teams.models import Invitation, League, MoveProposal, Player, Team
from teams.tests.conftest import REAVERS, starting_plan

ROLES = (
    "anonymous",
    "stranger",
    "spectator",
    "away_captain",
    "away_rival",
    "rival",
    "captain",
    "gm",
    "other_gm",
    "staff",
)


@dataclass
class World:
    users: dict[str, User]
    league: League
    other_league: League
    home: Team
    away: Team
    match: Match
    post: Post
    dispute: Dispute
    invitation: Invitation
    proposal: MoveProposal
    advancement: Advancement
    fixture: Fixture
    player: Player
    live: LiveMatch
    hook: LeagueHook


def _split(captain: User, rival: User, plan: rosters.TeamPlan, name: str, league: League) -> Team:
    team = team_services.create_team(
        captain, plan, name=name, league=league, rival_username=rival.username
    )
    team_services.accept_invitation(rival, team.invitations.get())
    team.refresh_from_db()
    return team


def build_world() -> World:
    names = {
        "stranger": "dave",
        "spectator": "dave",
        "away_captain": "carol",
        "away_rival": "erin",
        "rival": "bob",
        "captain": "alice",
        "gm": "gm",
        "other_gm": "otto",
        "staff": "root",
    }
    made = {n: User.objects.create_user(n, email=f"{n}@example.org") for n in set(names.values())}
    users = {role: made[name] for role, name in names.items()}
    make_game_master(users["gm"])
    make_game_master(users["other_gm"])
    User.objects.filter(pk=users["staff"].pk).update(is_staff=True, is_superuser=True)
    users["staff"].refresh_from_db()
    league = League.objects.create(name="Liga del Foro", gm=users["gm"])
    other_league = League.objects.create(name="Copa del Sur", gm=users["other_gm"])
    home = _split(users["captain"], users["rival"], REAVERS, "Reikland Reavers", league)
    away = _split(
        users["away_captain"], users["away_rival"], starting_plan("orc"), "Orcland Raiders", league
    )
    match = services.create_match(home=home, away=away, gm=users["gm"], league=league)
    Match.objects.filter(pk=match.pk).update(is_public=False)
    match.refresh_from_db()
    post = services.write_post(match.pk, users["captain"], kind="ooc", text="Good luck!")
    dispute = services.raise_dispute(
        match.pk, users["away_captain"], reason="Rude.", post_number=post.number
    )
    solo = team_services.create_team(users["stranger"], starting_plan("dwarf"), name="Solo")
    invitation = team_services.invite_rival(users["stranger"], solo, "otto")
    player = home.players.get(number=1)
    proposal = MoveProposal.objects.create(player=player, to_side="rival")
    advancement = Advancement.objects.create(
        match=match, player=player, dice=[6, 6], options=["Block"]
    )
    fixture = Fixture.objects.create(league=league, round=1, home=home, away=away)
    live = live_services.start_live_match(users["gm"], league, home, away)
    return World(
        users=users,
        league=league,
        other_league=other_league,
        home=home,
        away=away,
        match=match,
        post=post,
        dispute=dispute,
        invitation=invitation,
        proposal=proposal,
        advancement=advancement,
        fixture=fixture,
        player=player,
        live=live,
        hook=LeagueHook.objects.create(
            league=league, kind="json", url="https://hooks.example/bbweb", events=["turn_posted"]
        ),
    )


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


def every_route() -> list[str]:
    """Every URL pattern of the site, as the full route (the admin's included); a route
    given twice (the site's login before django.contrib.auth's) counts once, as the first
    one answers."""
    return list(dict.fromkeys(_walk(get_resolver().url_patterns)))


def url_for(route: str, world: World) -> str:
    """A URL for the route, its arguments taken from the world (the match, its post...)."""
    admin_ids = {
        "league": world.league.pk,
        "team": world.home.pk,
        "player": world.player.pk,
        "invitation": world.invitation.pk,
        "moveproposal": world.proposal.pk,
        "user": world.users["captain"].pk,
        "group": Group.objects.get(name=GM_GROUP).pk,
    }
    model = route.split("/")[2] if route.startswith("admin/") and route.count("/") > 2 else ""
    pk = world.match.pk
    if route.startswith("matches/advancements/"):
        pk = world.advancement.pk
    elif route.startswith("live/"):
        pk = world.live.pk
    arguments = {
        "<id:pk>": pk,
        "<id:team_id>": world.home.pk,
        "<id:player_id>": world.player.pk,
        "<id:invitation_id>": world.invitation.pk,
        "<id:proposal_id>": world.proposal.pk,
        "<id:number>": world.post.number,
        "<id:dispute_id>": world.dispute.pk,
        "<str:action>": "pause",
        "<slug:action>": "kick_off",
        "<id:league_id>": world.league.pk,
        "<id:fixture_id>": world.fixture.pk,
        "<id:hook_id>": world.hook.pk,
        "<uidb64>": "MQ",
        "<token>": "set-password",
        "<str:token>": "not-a-signed-token",
        "<token:token>": "not-a-players-token",
        "^(?P<rest>.*)$": "nothing-here",
        "<path:content_type_id>": ContentType.objects.get_for_model(Team).pk,
        "<path:object_id>": admin_ids.get(model, 0),
        "<id>": world.users["captain"].pk,
        "^(?P<app_label>auth|account|mfa|socialaccount|teams)/$": "teams/",
        "<str:uidb64>": "MQ",
        "^confirm-email/(?P<key>[-:\\w]+)/$": "confirm-email/not-a-key/",
        "^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$": (
            "password/reset/key/1-no-key/"
        ),
        "(?P<url>.*)$": "nothing-here/",
    }
    url = "/" + route
    for argument, value in arguments.items():
        url = url.replace(argument, str(value))
    return url


def answer(response: HttpResponse) -> str:
    """A redirect to a login page reads "login"; anything else is its status code."""
    if response.status_code == 302 and "login/" in response.get("Location", ""):
        return "login"
    return str(response.status_code)
