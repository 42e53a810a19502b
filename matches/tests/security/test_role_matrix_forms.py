"""The role matrix's POSTs with real forms: each carries the fields a legitimate user sends
from the page, so that a refusal proves the permission check and not a form error. Two
leagues, each with its teams and a match; an account whose address waits for confirmation.

Answers, per role in the order of ROLES below: "login", or the status code, with "+" when the
request changed the database (the one who may act) and without it when it must have changed
nothing at all (the tables the site's forms write, compared row by row)."""

from collections import Counter
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
from matches.live.models import LiveEvent, LiveMatch
from matches.models import (
    Advancement,
    AuditEntry,
    CoachPreferences,
    Dispute,
    Fixture,
    LeagueHook,
    Match,
    Post,
    Season,
    SeasonTeam,
    Sequence,
    StandingOrders,
    TeamMatchRecord,
    Vacation,
)
from matches.record import economy
from matches.sequence.tests.driving import finish_now, name_the_awards
from matches.tests.security.matrix_world import World, answer, build_world
from rules import gamedata
from teams import rosters
from teams import services as team_services
from teams.forms import CreateTeamForm
from teams.models import Invitation, League, MoveProposal, Player, Team
from teams.tests.conftest import REAVERS, starting_plan

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
    Season,
    SeasonTeam,
    AuditEntry,
    Advancement,
    TeamMatchRecord,
    StandingOrders,
    Vacation,
    CoachPreferences,
    LiveMatch,
    LiveEvent,
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


def _settings_of(league: League) -> dict[str, Any]:
    """The league form's fields as the page fills them for this league (a new one: the
    defaults)."""
    initial = LeagueForm(instance=league).initial
    return {k: v for k, v in initial.items() if v is not None}


def _league_settings(world: World) -> dict[str, Any]:
    return {**_settings_of(world.league), "name": "Liga renombrada"}


def _new_league(world: World) -> dict[str, Any]:
    return {**_settings_of(League()), "name": "Liga Nueva"}


def _over(world: World, fields: dict[str, Any]) -> dict[str, Any]:
    """The fields, the home team's match over (its teams free for another match, its roster
    free to change)."""
    _no_fields_once_the_match_is_over(world)
    return fields


def _the_new_team(world: World) -> dict[str, Any]:
    """The team builder's fields for the Reavers' roster, in no league, with no rival."""
    counts = Counter((p.side, p.position) for p in REAVERS.players)
    players = {
        CreateTeamForm.count_field(pos, side): counts[(side, pos.id)]
        for pos in gamedata.race(REAVERS.race).positions
        for side in rosters.SIDES
    }
    return {
        "race": REAVERS.race,
        "name": "Altdorf Eagles",
        "league": "",
        "rerolls": REAVERS.rerolls,
        "fan_factor": REAVERS.fan_factor,
        "assistant_coaches": 0,
        "cheerleaders": 0,
        "rival": "",
        **players,
    }


def _the_season_closed(world: World) -> dict[str, Any]:
    """The season closed by the GM once the match is over: the next one opens with both
    teams carrying over."""
    _no_fields_once_the_match_is_over(world)
    services.close_season(world.league.pk, world.users["gm"])
    return {"do": "open", "team": [world.home.pk, world.away.pk]}


def _the_roll_after_the_match(world: World) -> str:
    """The home team wins its match; the awards named (the MJE to Karl, #1 of the captain's
    side, who had 2 SPP), the post-match opens his improvement roll: its page."""
    Player.objects.filter(pk=world.player.pk).update(spp=2)
    name_the_awards(finish_now(world.match, winner="home"))
    roll = Advancement.objects.filter(match=world.match, player=world.player)
    return f"/matches/advancements/{roll.latest('pk').pk}/"


def _the_fixture_s_pre_match(world: World, *, petty_cash_decided: bool = False) -> int:
    """The home team's match over, the GM opens the fixture's match: its pre-match starts
    with the petty cash of the higher-value team (the away team's Orcs). Decided: both teams
    put nothing into it, and the inducements wait for the away team's captain."""
    _no_fields_once_the_match_is_over(world)
    match = services.start_fixture(world.fixture.pk, world.users["gm"])
    for _team in range(2 if petty_cash_decided else 0):
        key = services.pre_match_team(Sequence.objects.get(match=match), petty=True)
        team = match.home_team if key == "home" else match.away_team
        services.transfer_petty_cash(match.pk, team.captain, side="captain", amount=0)
        services.transfer_petty_cash(match.pk, team.rival or team.captain, side="rival", amount=0)
    return match.pk


def _nothing_bought(world: World) -> dict[str, Any]:
    """The inducements form as the away team's captain sends it untouched: every count 0."""
    counted = [i.id for i in gamedata.inducements_for(world.away.race) if i.id in economy.COUNTED]
    return {**{f"count_{item}": 0 for item in counted}, "mercenaries": ""}


def _the_awards(world: World) -> dict[str, Any]:
    """The MVP form for the home team, as the away team's captain sees it: its first two
    players who were in the match."""
    mje, pje = services.mvp_eligible(world.match, "home")[:2]
    return {"team": "home", "mje": mje, "pje": pje}


def _the_roll_s_first_option(world: World) -> dict[str, Any]:
    adv = Advancement.objects.filter(match=world.match, player=world.player).latest("pk")
    return {"choice": adv.options[0]}


# route's name: (URL, the real form's fields, the answers per role). The URL's callable runs
# once and may bring the world to the state the page needs (a post-match, a pre-match); the
# fields' callable runs again for each role, in the transaction its request is undone with.
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
    # -- the league's GM: the league, its schedule, its seasons
    "a league created": (
        lambda w: "/leagues/new/",
        _new_league,
        "login 403 403 403 403 302+ 302+ 302+",
    ),
    "a fixture added by hand": (
        lambda w: f"/leagues/{w.league.pk}/schedule/",
        lambda w: {"round": 2, "home": w.home.pk, "away": w.away.pk, "scheduled_for": "2030-05-04"},
        "login 403 403 403 403 302+ 403 403",
    ),
    "the season scheduled by round robin": (
        lambda w: f"/leagues/{w.league.pk}/schedule/round-robin/",
        lambda w: {"first_date": "2030-05-04", "days_between": 7},
        "login 403 403 403 403 302+ 403 403",
    ),
    "the season's divisions set": (
        lambda w: f"/leagues/{w.league.pk}/season/",
        lambda w: {
            "do": "divisions",
            f"division-{w.home.pk}": "Norte",
            f"division-{w.away.pk}": "Norte",
        },
        "login 403 403 403 403 302+ 403 403",
    ),
    "the season's knockout seeded": (
        lambda w: f"/leagues/{w.league.pk}/season/",
        lambda w: {"do": "playoff", "size": 2, "seed": ["", ""]},
        "login 403 403 403 403 302+ 403 403",
    ),
    "the season closed": (
        lambda w: f"/leagues/{w.league.pk}/season/",
        lambda w: _over(w, {"do": "close"}),
        "login 403 403 403 403 302+ 403 403",
    ),
    "the next season opened": (
        lambda w: f"/leagues/{w.league.pk}/season/",
        _the_season_closed,
        "login 403 403 403 403 302+ 403 403",
    ),
    "a fixture's match opened": (
        lambda w: f"/fixtures/{w.fixture.pk}/start/",
        _no_fields_once_the_match_is_over,
        "login 403 403 403 403 302+ 403 403",
    ),
    # -- the teams: the captain manages the roster, each side's coach its own side
    "a rival invited to the captain's free team": (
        lambda w: f"/teams/{_free_team(w)}/invite/",
        lambda w: {"username": "dave"},
        "login 403 403 403 302+ 403 403 403",
    ),
    "a rookie hired for the captain's side": (
        lambda w: f"/teams/{w.home.pk}/hire/",
        lambda w: _over(w, {"position": "human.lineman", "side": "captain", "name": "Rookie"}),
        "login 403 403 403 302+ 403 403 403",
    ),
    "a rookie hired for the rival's side": (
        lambda w: f"/teams/{w.home.pk}/hire/",
        lambda w: _over(w, {"position": "human.lineman", "side": "rival", "name": "Rookie"}),
        "login 403 403 302+ 403 403 403 403",
    ),
    "a player's move to the rival's side proposed": (
        lambda w: f"/teams/{w.home.pk}/players/{w.home.players.get(number=2).pk}/move/",
        _no_fields_once_the_match_is_over,
        "login 403 403 403 302+ 403 403 403",
    ),
    "a move to the rival's side refused": (
        lambda w: f"/teams/moves/{w.proposal.pk}/refuse/",
        lambda w: {},
        "login 403 403 302+ 403 403 403 403",
    ),
    "a team created": (
        lambda w: "/teams/new/",
        _the_new_team,
        "login 200 302+ 302+ 302+ 302+ 302+ 302+",
    ),
    # -- notices and clocks: one's own preferences, a coach's own orders and vacation
    "one's notification preferences saved": (
        lambda w: "/matches/notifications/",
        lambda w: {
            "language": "es",
            "time_zone": "Europe/Madrid",
            "email_turn": "on",
            "email_decision": "on",
            "email_mention": "on",
            "digest_kinds": ["warning", "applied"],
            "digest_hour": 9,
            "reminders": "24, 4",
        },
        "login 302+ 302+ 302+ 302+ 302+ 302+ 302+",
    ),
    "a vacation from the league's deadlines": (
        lambda w: f"/matches/{w.match.pk}/vacation/",
        lambda w: {"days": 3},
        "login 403 302+ 302+ 302+ 403 403 403",
    ),
    "a coach's standing orders": (
        lambda w: f"/matches/{w.match.pk}/standing-orders/",
        lambda w: {
            "reroll_dodge": "on",
            "reroll_gfi": "on",
            "block_die": "best",
            "block_reroll": "when_down",
            "wrestle": "always",
            "break_tackle": "always",
            "intercept": "never",
            "intercept_player": "",
        },
        "login 403 302+ 302+ 302+ 200 403 403",
    ),
    # -- the live companion (3-LIVE-BB): the league's GM referees
    "a live match started": (
        lambda w: f"/leagues/{w.league.pk}/live/new/",
        lambda w: {
            "home": w.home.pk,
            "home_name": "",
            "home_roster": "",
            "away": w.away.pk,
            "away_name": "",
            "away_roster": "",
        },
        "login 302 302 302 302 302+ 302 302",
    ),
    "live matches counted in the standings": (
        lambda w: f"/leagues/{w.league.pk}/live/counts/",
        lambda w: {"count": "0" if w.league.live_matches_count else "1"},
        "login 302 302 302 302 302+ 302 302",
    ),
    "a live match's kick-off": (
        lambda w: f"/live/{w.live.pk}/act/kick_off/",
        lambda w: {"key": "5f0c8e0a7d8b4c1e9a6b3d2f1e0c9b8a", "kicking": "away"},
        "login 302 302 302 302 302+ 302 302",
    ),
    # -- the match: scheduled by a GM, controlled by its GM, a roll taken by the side's coach
    "a match scheduled": (
        lambda w: "/matches/new/",
        lambda w: _over(w, {"home": w.home.pk, "away": w.away.pk, "house_rules": "on"}),
        "login 403 403 403 403 302+ 200 302+",
    ),
    "the match locked while disputed": (
        lambda w: f"/matches/{w.match.pk}/control/lock/",
        lambda w: {"next": f"/matches/{w.match.pk}/disputes/"},
        "login 404 403 403 403 302+ 404 404",
    ),
    "the match's deadline extended": (
        lambda w: f"/matches/{w.match.pk}/control/extend/",
        lambda w: {"next": f"/matches/{w.match.pk}/disputes/", "hours": 24},
        "login 404 403 403 403 302+ 404 404",
    ),
    "the favourite's petty cash": (
        lambda w: f"/matches/{_the_fixture_s_pre_match(w)}/prematch/petty-cash/",
        lambda w: {"side": "captain", "amount": 10000},
        "403 403 302+ 403 403 403 403 403",
    ),
    "the favourite's inducements": (
        lambda w: (
            f"/matches/{_the_fixture_s_pre_match(w, petty_cash_decided=True)}/prematch/inducements/"
        ),
        _nothing_bought,
        "403 403 302+ 403 403 403 403 403",
    ),
    "the winner's winnings die kept": (
        lambda w: f"/matches/{finish_now(w.match, winner='home').pk}/postmatch/reroll/",
        lambda w: {"reroll": "no"},
        "404 404 403 403 302+ 403 404 404",
    ),
    "the awards given by the opposing captain": (
        lambda w: f"/matches/{finish_now(w.match, winner='home').pk}/postmatch/mvp/",
        _the_awards,
        "404 404 302+ 403 403 403 404 404",
    ),
    "an improvement roll's skill taken": (
        _the_roll_after_the_match,
        _the_roll_s_first_option,
        "404 404 403 403 302+ 403 404 404",
    ),
    # -- the account pages: each acts on its own account
    "one's own API token made": (
        lambda w: "/accounts/profile/",
        lambda w: {"action": "make", "name": "bot", "lifetime": "30"},
        "login 200+ 200+ 200+ 200+ 200+ 200+ 200+",
    ),
    "an address added to one's account": (
        lambda w: "/accounts/email/",
        lambda w: {"action_add": "", "email": "second@example.net"},
        "login 302+ 302+ 302+ 302+ 302+ 302+ 302+",
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
