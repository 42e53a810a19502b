import pytest
from django.contrib.auth.models import User
from django.test import Client

from teams import services
from teams.models import Invitation, League, Team
from teams.tests.conftest import starting_plan

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_gm(gm: User) -> User:
    gm.is_staff = True
    gm.save()
    return gm


def test_a_game_master_manages_the_leagues_teams_and_players(
    client: Client, staff_gm: User, team: Team
) -> None:
    client.force_login(staff_gm)
    assert "Reikland Reavers" in client.get("/admin/teams/team/").content.decode()
    assert client.get(f"/admin/teams/team/{team.pk}/change/").status_code == 200
    assert "Karl" in client.get("/admin/teams/player/").content.decode()
    assert "Liga del Foro" in client.get("/admin/teams/league/").content.decode()
    response = client.post(
        "/admin/teams/league/add/",
        {
            "name": "Copa",
            "gm": staff_gm.pk,
            "starting_treasury": 1_600_000,
            "turn_deadline_hours": 48,
            "decision_deadline_hours": 12,
            "blitz_claim_window_hours": 6,
            "rival_rerolls": "approved",
            "reroll_approval_default": "approve",
            "clock": "deadlines",
            "bank_hours": 72,
            "bank_increment_hours": 12,
            "bank_run_out": "defaults",
            "vacation_days": 7,
            "points_win": 3,
            "points_draw": 1,
            "points_loss": 0,
        },
    )
    assert response.status_code == 302
    assert League.objects.get(name="Copa").starting_treasury == 1_600_000


def test_a_game_master_sees_only_the_leagues_they_run(
    client: Client, staff_gm: User, team: Team, other_team: Team
) -> None:
    client.force_login(staff_gm)
    page = client.get("/admin/teams/team/").content.decode()
    assert "Reikland Reavers" in page and "Orcland Raiders" not in page


def test_a_staff_member_who_is_not_a_game_master_sees_no_teams(
    client: Client, carol: User, team: Team
) -> None:
    carol.is_staff = True
    carol.save()
    client.force_login(carol)
    assert client.get("/admin/teams/team/").status_code == 403


def test_a_coach_cannot_open_the_admin(client: Client, alice: User) -> None:
    client.force_login(alice)
    assert client.get("/admin/teams/team/").status_code == 302


def test_the_admin_refuses_a_skill_the_position_cannot_learn(
    client: Client, staff_gm: User, team: Team
) -> None:
    karl = team.players.get(number=1)
    client.force_login(staff_gm)
    url = f"/admin/teams/player/{karl.pk}/change/"
    data = {
        "team": team.pk,
        "number": 1,
        "name": "Karl",
        "position": "human.blitzer",
        "side": "captain",
        "spp": 0,
        "skills": '["Horns"]',
        "niggling_injuries": 0,
        "ma_loss": 0,
        "st_loss": 0,
        "ag_loss": 0,
        "av_loss": 0,
        "status": "active",
    }
    response = client.post(url, data)
    assert "A Blitzer cannot learn Horns." in response.content.decode()
    data["skills"] = '["Dodge"]'
    assert client.post(url, data).status_code == 302
    karl.refresh_from_db()
    assert karl.skills == ["Dodge"] and karl.value == 90_000 + 30_000


@pytest.fixture
def other_league(db: None) -> League:
    from bbweb.roles import make_game_master

    otto = User.objects.create_user("otto")
    make_game_master(otto)
    return League.objects.create(name="Copa del Sur", gm=otto)


def test_a_game_master_cannot_add_a_player_to_a_team_of_another_league(
    client: Client, staff_gm: User, team: Team, other_league: League
) -> None:
    team.league = other_league
    team.save()
    client.force_login(staff_gm)
    data = {
        "team": team.pk,
        "number": 30,
        "name": "Ringer",
        "position": "human.blitzer",
        "side": "captain",
        "spp": 176,
        "skills": "[]",
        "niggling_injuries": 0,
        "ma_loss": 0,
        "st_loss": 0,
        "ag_loss": 0,
        "av_loss": 0,
        "status": "active",
    }
    response = client.post("/admin/teams/player/add/", data)
    assert response.status_code == 200
    assert not team.players.filter(name="Ringer").exists()
    assert f'value="{team.pk}"' not in client.get("/admin/teams/player/add/").content.decode()


def test_a_game_master_cannot_add_a_team_to_another_league_nor_outside_his_own(
    client: Client, staff_gm: User, carol: User, league: League, other_league: League
) -> None:
    client.force_login(staff_gm)
    data = {
        "name": "Ringers",
        "race": "human",
        "captain": staff_gm.pk,
        "rerolls": 0,
        "fan_factor": 0,
        "assistant_coaches": 0,
        "cheerleaders": 0,
        "captain_treasury": 5_000_000,
        "rival_treasury": 0,
        "players-TOTAL_FORMS": 0,
        "players-INITIAL_FORMS": 0,
    }
    for chosen in (other_league.pk, ""):
        response = client.post("/admin/teams/team/add/", {**data, "league": chosen})
        assert response.status_code == 200
    assert not Team.objects.filter(name="Ringers").exists()
    assert client.post("/admin/teams/team/add/", {**data, "league": league.pk}).status_code == 302
    assert Team.objects.get(name="Ringers").league == league


def test_a_game_master_makes_nobody_else_captain_or_rival_in_the_admin(
    client: Client, staff_gm: User, carol: User, dave: User, team: Team, league: League
) -> None:
    client.force_login(staff_gm)
    data = {
        "name": "Ringers",
        "race": "human",
        "league": league.pk,
        "captain": carol.pk,
        "rival": dave.pk,
        "rerolls": 0,
        "fan_factor": 0,
        "assistant_coaches": 0,
        "cheerleaders": 0,
        "captain_treasury": 5_000_000,
        "rival_treasury": 0,
        "players-TOTAL_FORMS": 0,
        "players-INITIAL_FORMS": 0,
    }
    response = client.post("/admin/teams/team/add/", data)
    assert response.status_code == 200  # carol is not a choice
    assert not Team.objects.filter(name="Ringers").exists()
    change = {
        **data,
        "name": team.name,
        "race": team.race,
        "players-TOTAL_FORMS": 0,
        "players-INITIAL_FORMS": 0,
    }
    response = client.post(f"/admin/teams/team/{team.pk}/change/", change)
    team.refresh_from_db()
    assert (team.captain.username, team.rival and team.rival.username) == ("alice", "bob")
    page = client.get(f"/admin/teams/team/{team.pk}/change/").content.decode()
    assert 'name="captain"' not in page and 'name="rival"' not in page


def test_a_game_master_invites_from_the_admin_and_only_the_coach_accepts(
    client: Client, staff_gm: User, carol: User, solo_team: Team, other_team: Team, league: League
) -> None:
    # carol captains a team of the league: one of its GM's people
    Team.objects.filter(pk__in=[solo_team.pk, other_team.pk]).update(league=league)
    client.force_login(staff_gm)
    response = client.post(
        "/admin/teams/invitation/add/",
        {"team": solo_team.pk, "user": carol.pk, "status": "accepted"},
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(team=solo_team, user=carol)
    assert invitation.status == Invitation.Status.PENDING
    response = client.post(
        f"/admin/teams/invitation/{invitation.pk}/change/",
        {"team": solo_team.pk, "user": carol.pk, "status": "accepted"},
    )
    invitation.refresh_from_db()
    solo_team.refresh_from_db()
    assert invitation.status == Invitation.Status.PENDING and solo_team.rival is None


def test_a_game_master_cannot_open_a_league_for_another_game_master(
    client: Client, staff_gm: User, other_league: League
) -> None:
    client.force_login(staff_gm)
    response = client.post(
        "/admin/teams/league/add/",
        {
            "name": "Copa",
            "gm": other_league.gm_id,
            "starting_treasury": 1_000_000,
            "turn_deadline_hours": 48,
            "decision_deadline_hours": 12,
            "blitz_claim_window_hours": 6,
            "rival_rerolls": "approved",
            "reroll_approval_default": "approve",
            "clock": "deadlines",
            "bank_hours": 72,
            "bank_increment_hours": 12,
            "bank_run_out": "defaults",
            "vacation_days": 7,
            "points_win": 3,
            "points_draw": 1,
            "points_loss": 0,
        },
    )
    assert response.status_code == 200 and not League.objects.filter(name="Copa").exists()


def test_each_game_master_s_admin_shows_only_the_people_teams_and_leagues_of_their_leagues(
    client: Client, staff_gm: User, team: Team, other_league: League, dave: User
) -> None:
    orcs = services.create_team(
        dave, starting_plan("orc"), name="Southern Orcs", league=other_league
    )
    otto = other_league.gm
    User.objects.filter(pk=otto.pk).update(is_staff=True)
    # (the GM, what their admin shows, what it never shows)
    views = (
        (
            staff_gm,
            ["Reikland Reavers", "Liga del Foro", "Karl", "alice", "bob"],
            ["Southern Orcs", "Copa del Sur", "dave"],
        ),
        (
            otto,
            ["Southern Orcs", "Copa del Sur", "dave"],
            ["Reikland Reavers", "Liga del Foro", "Karl", "alice"],
        ),
    )
    for gm, shown, hidden in views:
        client.force_login(gm)
        pages = "".join(
            client.get(url).content.decode()
            for url in (
                "/admin/teams/team/",
                "/admin/teams/player/",
                "/admin/teams/league/",
                "/admin/teams/invitation/add/",
            )
        )
        for text in shown:
            assert text in pages, (gm, text)
        for text in hidden:
            assert text not in pages, (gm, text)
        other = orcs if gm == staff_gm else team
        assert client.get(f"/admin/teams/team/{other.pk}/change/").status_code == 302
    client.force_login(staff_gm)
    response = client.post("/admin/teams/invitation/add/", {"team": team.pk, "user": dave.pk})
    assert response.status_code == 200  # dave is not one of this GM's people
    assert not Invitation.objects.filter(user=dave).exists()
