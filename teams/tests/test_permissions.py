"""Only a team's coaches change it; each side's coach manages its own players; only the captain
buys for the team and moves players; only the rival answers a move; only the invited coach
answers an invitation. Every write is tried as every role."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.urls import reverse

from teams import services
from teams.models import Invitation, MoveProposal, Player, Team

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "another coach", "rival", "captain", "gm"]


@dataclass
class Write:
    name: str
    allowed: set[str]
    post: Callable[[Client, Team], Any]
    changed: Callable[[Team], bool]
    setup: Callable[[Team, User], None] = lambda team, alice: None


def _player(team: Team, number: int) -> Player:
    return team.players.get(number=number, status__in=Player.ON_ROSTER)


def _url(name: str, team: Team, number: int | None = None) -> str:
    args = [team.pk] if number is None else [team.pk, _player(team, number).pk]
    return reverse(f"teams:{name}", args=args)


def _propose(team: Team, alice: User) -> None:
    services.propose_move(alice, _player(team, 2))


def _proposal(team: Team) -> MoveProposal:
    return MoveProposal.objects.get(player__team=team)


WRITES = [
    Write(
        "hire for the captain's side",
        {"captain"},
        lambda c, t: c.post(
            _url("hire", t), {"position": "human.lineman", "side": "captain", "name": "New"}
        ),
        lambda t: t.players.filter(name="New").exists(),
    ),
    Write(
        "hire for the rival's side",
        {"rival"},
        lambda c, t: c.post(
            _url("hire", t), {"position": "human.lineman", "side": "rival", "name": "New"}
        ),
        lambda t: t.players.filter(name="New").exists(),
    ),
    Write(
        "fire a player of the captain's side",
        {"captain"},
        lambda c, t: c.post(_url("fire", t, 1)),
        lambda t: t.players.get(number=1).status == "fired",
    ),
    Write(
        "fire a player of the rival's side",
        {"rival"},
        lambda c, t: c.post(_url("fire", t, 7)),
        lambda t: t.players.get(number=7).status == "fired",
    ),
    Write(
        "rename a player of the rival's side",
        {"rival"},
        lambda c, t: c.post(_url("rename", t, 8), {"name": "Renamed"}),
        lambda t: t.players.get(number=8).name == "Renamed",
    ),
    Write(
        "buy a reroll",
        {"captain"},
        lambda c, t: c.post(_url("buy", t), {"item": "reroll"}),
        lambda t: Team.objects.get(pk=t.pk).rerolls == 3,
    ),
    Write(
        "buy an apothecary",
        {"captain"},
        lambda c, t: c.post(_url("buy", t), {"item": "apothecary"}),
        lambda t: Team.objects.get(pk=t.pk).apothecary,
    ),
    Write(
        "buy a cheerleader",
        {"captain"},
        lambda c, t: c.post(_url("buy", t), {"item": "cheerleader"}),
        lambda t: Team.objects.get(pk=t.pk).cheerleaders == 1,
    ),
    Write(
        "propose a move",
        {"captain"},
        lambda c, t: c.post(_url("move", t, 2)),
        lambda t: MoveProposal.objects.filter(player__team=t).exists(),
    ),
    Write(
        "accept a move",
        {"rival"},
        lambda c, t: c.post(reverse("teams:accept_move", args=[_proposal(t).pk])),
        lambda t: t.players.get(number=2).side == "rival",
        _propose,
    ),
    Write(
        "refuse a move",
        {"rival"},
        lambda c, t: c.post(reverse("teams:refuse_move", args=[_proposal(t).pk])),
        lambda t: _proposal(t).status == "refused",
        _propose,
    ),
]


@pytest.fixture
def cast(alice: User, bob: User, carol: User, gm: User, other_team: Team) -> dict[str, User]:
    return {"another coach": carol, "rival": bob, "captain": alice, "gm": gm}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("write", WRITES, ids=[w.name for w in WRITES])
def test_every_write_is_allowed_only_to_its_role(
    client: Client, team: Team, cast: dict[str, User], write: Write, role: str
) -> None:
    Team.objects.filter(pk=team.pk).update(captain_treasury=500_000, rival_treasury=500_000)
    write.setup(team, cast["captain"])
    if role != "anonymous":
        client.force_login(cast[role])
    response = write.post(client, team)
    if role in write.allowed:
        assert response.status_code == 302
        assert response["Location"] == team.get_absolute_url()
        assert write.changed(team)
    else:
        if role == "anonymous":
            assert response.status_code == 302
            assert response["Location"].startswith(reverse("login"))
        else:
            assert response.status_code == 403
            assert "Not allowed" in response.content.decode()
        assert not write.changed(team)


INVITATION_ROLES = ["anonymous", "another coach", "captain", "gm", "invited coach"]


@pytest.mark.parametrize("role", INVITATION_ROLES)
def test_only_the_captain_invites_the_rival(
    client: Client, solo_team: Team, cast: dict[str, User], dave: User, role: str
) -> None:
    users = {**cast, "invited coach": dave}
    if role != "anonymous":
        client.force_login(users[role])
    response = client.post(_url("invite", solo_team), {"username": "dave"})
    invited = Invitation.objects.filter(team=solo_team, user=dave).exists()
    assert invited == (role == "captain")
    if role == "anonymous":
        assert response.status_code == 302 and not invited
    elif role != "captain":
        assert response.status_code == 403


@pytest.mark.parametrize("answer", ["accept", "decline"])
@pytest.mark.parametrize("role", INVITATION_ROLES)
def test_only_the_invited_coach_answers_the_invitation(
    client: Client,
    solo_team: Team,
    cast: dict[str, User],
    dave: User,
    role: str,
    answer: str,
) -> None:
    invitation = services.invite_rival(cast["captain"], solo_team, "dave")
    users = {**cast, "invited coach": dave}
    if role != "anonymous":
        client.force_login(users[role])
    response = client.post(reverse(f"teams:{answer}_invitation", args=[invitation.pk]))
    invitation.refresh_from_db()
    solo_team.refresh_from_db()
    if role == "invited coach":
        assert response.status_code == 302
        assert invitation.status == ("accepted" if answer == "accept" else "declined")
        assert solo_team.rival == (dave if answer == "accept" else None)
    else:
        assert response.status_code == (302 if role == "anonymous" else 403)
        assert invitation.status == "pending"
        assert solo_team.rival is None


def test_the_services_refuse_an_anonymous_user_and_the_gm(
    team: Team, gm: User, carol: User
) -> None:
    for user in (AnonymousUser(), gm, carol):
        with pytest.raises(services.NotACoach):
            services.buy_reroll(user, team)
        with pytest.raises(services.NotACoach):
            services.hire_player(user, team, position="human.lineman", side="captain")
    assert Team.objects.get(pk=team.pk).rerolls == 2


def test_the_rival_gets_a_specific_refusal_for_the_captains_business(team: Team, bob: User) -> None:
    with pytest.raises(services.NotTheCaptain):
        services.buy_staff(bob, team, "cheerleader")
    with pytest.raises(services.NotTheCaptain):
        services.propose_move(bob, team.players.get(number=7))
    with pytest.raises(services.NotYourSide):
        services.fire_player(bob, team.players.get(number=1))


def test_the_captain_cannot_answer_a_move_for_the_rival(team: Team, alice: User) -> None:
    proposal = services.propose_move(alice, team.players.get(number=1))
    assert proposal is not None
    with pytest.raises(services.NotTheRival):
        services.accept_move(alice, proposal)
    assert team.players.get(number=1).side == "captain"
