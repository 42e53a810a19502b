import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from teams import services
from teams.models import Player, Team

pytestmark = pytest.mark.django_db


def money(team: Team) -> tuple[int, int]:
    team.refresh_from_db()
    return team.captain_treasury, team.rival_treasury


def test_each_side_hires_from_its_own_treasury(team: Team, alice: User, bob: User) -> None:
    services.hire_player(alice, team, position="human.lineman", side="captain", name="Anton")
    assert money(team) == (96_000 - 50_000, 74_000)
    hired = services.hire_player(bob, team, position="human.lineman", side="rival")
    assert money(team) == (46_000, 24_000)
    assert (hired.number, hired.name, hired.side) == (13, "Lineman 13", "rival")
    assert team.players.get(name="Anton").number == 12


def test_a_hire_takes_the_number_asked_for(team: Team, alice: User) -> None:
    player = services.hire_player(
        alice, team, position="human.lineman", side="captain", name="Nr 42", number=42
    )
    assert player.number == 42


def test_a_hire_the_side_cannot_afford_changes_nothing(
    client: Client, team: Team, bob: User
) -> None:
    client.force_login(bob)
    response = client.post(
        reverse("teams:hire", args=[team.pk]),
        {"position": "human.blitzer", "side": "rival", "name": "Too dear"},
        follow=True,
    )
    assert (
        "Not enough gold: that costs 90,000 gp and the rival&#x27;s treasury holds 74,000 gp."
        in (response.content.decode())
    )
    assert money(team) == (96_000, 74_000)
    assert not team.players.filter(name="Too dear").exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"position": "human.troll"}, "Select a valid choice. human.troll is not one of"),
        ({"position": "orc.lineman"}, "Select a valid choice."),
        ({"number": "1"}, "Number 1 is taken."),
        ({"number": "100"}, "less than or equal to 99"),
        ({"side": "referee"}, "Select a valid choice. referee is not one of"),
        ({"name": "x" * 81}, "at most 80 characters"),
    ],
)
def test_bad_hire_input_gets_a_clear_error_and_changes_nothing(
    client: Client, team: Team, alice: User, fields: dict[str, str], message: str
) -> None:
    Team.objects.filter(pk=team.pk).update(captain_treasury=900_000)
    client.force_login(alice)
    data = {"position": "human.lineman", "side": "captain", "name": "", **fields}
    response = client.post(reverse("teams:hire", args=[team.pk]), data, follow=True)
    assert message in response.content.decode()
    assert team.players.count() == 11
    assert money(team) == (900_000, 74_000)


def test_a_position_limit_stops_a_hire(team: Team, alice: User) -> None:
    Team.objects.filter(pk=team.pk).update(captain_treasury=900_000)
    services.hire_player(alice, team, position="human.blitzer", side="captain")
    with pytest.raises(services.RuleBroken, match="already has 4 Blitzer"):
        services.hire_player(alice, team, position="human.blitzer", side="captain")
    assert money(team)[0] == 810_000


def test_the_roster_holds_sixteen_players_at_most(team: Team, alice: User) -> None:
    Team.objects.filter(pk=team.pk).update(captain_treasury=900_000)
    for _ in range(5):
        services.hire_player(alice, team, position="human.lineman", side="captain")
    with pytest.raises(services.RuleBroken, match="The roster is full: 16 players at most"):
        services.hire_player(alice, team, position="human.lineman", side="captain")
    assert team.players.count() == 16


def test_firing_retires_the_player_without_a_refund_and_frees_the_number(
    client: Client, team: Team, alice: User
) -> None:
    client.force_login(alice)
    karl = team.players.get(number=1)
    response = client.post(reverse("teams:fire", args=[team.pk, karl.pk]), follow=True)
    assert "Karl has left the team." in response.content.decode()
    karl.refresh_from_db()
    assert karl.status == "fired"
    assert money(team) == (96_000, 74_000)
    assert team.value == 830_000 - 90_000
    replacement = services.hire_player(
        alice, team, position="human.lineman", side="captain", number=1
    )
    assert replacement.number == 1


def test_a_fired_player_cannot_be_fired_again(team: Team, alice: User) -> None:
    karl = team.players.get(number=1)
    services.fire_player(alice, karl)
    with pytest.raises(services.RuleBroken, match="no longer on the roster"):
        services.fire_player(alice, karl)


def test_the_captain_hires_for_both_sides_until_a_rival_joins(solo_team: Team, alice: User) -> None:
    services.hire_player(alice, solo_team, position="human.lineman", side="rival")
    solo_team.refresh_from_db()
    assert solo_team.rival_treasury == 74_000 - 50_000
    services.fire_player(alice, solo_team.players.get(number=7))


def test_a_coach_renames_a_player_of_their_side(client: Client, team: Team, bob: User) -> None:
    client.force_login(bob)
    lena = team.players.get(number=8)
    client.post(reverse("teams:rename", args=[team.pk, lena.pk]), {"name": "  Lena  Vogel "})
    lena.refresh_from_db()
    assert lena.name == "Lena Vogel"
    response = client.post(
        reverse("teams:rename", args=[team.pk, lena.pk]), {"name": ""}, follow=True
    )
    assert "This field is required." in response.content.decode()
    assert Player.objects.get(pk=lena.pk).name == "Lena Vogel"


def test_a_player_of_another_team_is_not_found(
    client: Client, team: Team, other_team: Team, alice: User
) -> None:
    client.force_login(alice)
    stranger = other_team.players.first()
    assert stranger is not None
    assert client.post(reverse("teams:fire", args=[team.pk, stranger.pk])).status_code == 404
