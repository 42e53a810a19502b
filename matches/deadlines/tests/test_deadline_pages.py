"""The pages of the clock: my matches, standing orders, vacations, preferences, the partial."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches import services
from matches.deadlines.tests.conftest import STANDARD, put
from matches.models import CoachPreferences, Match, StandingOrders
from teams.models import League, Team

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_my_matches_lists_what_awaits_me_soonest_first(
    in_play: Match,
    alice: User,
    bob: User,
    dice: list[int],
    reavers: Team,
    raiders: Team,
    gm: User,
    league: League,
) -> None:
    dice += [1, 3, 3, 3, 3, 3, 3]  # the failed dodge below; the start of the second match
    later = services.create_match(home=raiders, away=reavers, gm=gm, league=league)
    put(later, STANDARD, active="away", turn={"home": 2, "away": 3})
    services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    items = services.awaiting(alice)
    assert [(i.match.pk, i.what) for i in items] == [(in_play.pk, "decision"), (later.pk, "turn")]
    assert [(i.match.pk, i.what) for i in services.awaiting(bob)] == [(later.pk, "turn")]
    page = client_for(alice).get("/matches/mine/")
    assert page.status_code == 200
    assert page.content.decode().index("a decision") < page.content.decode().index("your team")


def test_standing_orders_are_seen_only_by_their_owner_and_the_gm(
    in_play: Match, alice: User, carol: User, gm: User
) -> None:
    url = f"/matches/{in_play.pk}/standing-orders/"
    response = client_for(alice).post(
        url,
        {
            "reroll_dodge": "on",
            "block_die": "pushed",
            "block_reroll": "never",
            "wrestle": "ask",
            "break_tackle": "always",
        },
    )
    assert response.status_code == 302
    orders = StandingOrders.objects.get(user=alice)
    assert orders.reroll_dodge and orders.block_die == "pushed"
    assert (orders.block_reroll, orders.wrestle) == ("never", "ask")
    assert 'id="id_reroll_dodge" checked' in client_for(alice).get(url).content.decode()
    assert "checked" not in client_for(carol).get(url).content.decode()
    stranger = User.objects.create_user("eve")
    assert client_for(stranger).get(url).status_code == 403
    assert Client().get(url).status_code == 302
    gm_page = client_for(gm).get(url).content.decode()
    assert "alice" in gm_page and "pushed" in gm_page.lower()


def test_the_rival_is_not_offered_the_captains_approval(in_play: Match, bob: User) -> None:
    page = client_for(bob).get(f"/matches/{in_play.pk}/standing-orders/").content.decode()
    assert "approve_rival_rerolls" not in page


def test_a_coach_takes_a_vacation_that_everyone_in_the_match_sees(
    in_play: Match, bob: User, dave: User
) -> None:
    response = client_for(bob).post(f"/matches/{in_play.pk}/vacation/", {"days": "2"})
    assert response.status_code == 302
    partial = Client().get(f"/matches/{in_play.pk}/deadlines/").content.decode()
    assert "bob is on vacation until" in partial
    assert "vacation-form" not in partial


def test_the_partial_shows_each_side_its_foul_allowance(
    in_play: Match, alice: User, bob: User
) -> None:
    mine = client_for(bob).get(f"/matches/{in_play.pk}/deadlines/").content.decode()
    assert 'data-side="rival"' in mine and "(yours)" in mine
    assert "0/1" in mine


def test_the_partial_says_when_the_turn_clock_is_stopped(
    in_play: Match, alice: User, dice: list[int]
) -> None:
    dice += [1]
    services.declare(in_play.pk, alice, {"player": "h1", "action": "move", "path": ["J8"]})
    partial = Client().get(f"/matches/{in_play.pk}/deadlines/").content.decode()
    assert "clock is stopped" in partial
    assert f"A decision awaits {in_play.home_team.name} (captain)" in partial  # not home:captain


def test_a_coach_chooses_its_notices_and_their_language(alice: User) -> None:
    response = client_for(alice).post(
        "/matches/notifications/",
        {"language": "es", "email_turn": "on", "email_decision": "on"},
    )
    assert response.status_code == 302
    preferences = CoachPreferences.objects.get(user=alice)
    assert preferences.language == "es"
    assert preferences.email_turn and not preferences.email_warning


def test_the_orders_a_coach_never_gave_are_shown_as_the_defaults_applied(
    in_play: Match, alice: User
) -> None:
    page = client_for(alice).get(f"/matches/{in_play.pk}/standing-orders/").content.decode()
    applied = StandingOrders()
    for name in ("block_reroll", "wrestle", "break_tackle"):
        assert f'<option value="{getattr(applied, name)}" selected>' in page
    assert (applied.block_reroll, applied.wrestle, applied.break_tackle) == (
        "ask_when_down",
        "always",
        "always",
    )
