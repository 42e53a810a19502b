import pytest
from django.contrib.auth.models import User
from django.test import Client

from teams.models import Player, Team

pytestmark = pytest.mark.django_db


def roster(client: Client, team: Team, lang: str = "en") -> str:
    response = client.get(team.get_absolute_url(), headers={"accept-language": lang})
    assert response.status_code == 200
    return response.content.decode()


def test_anyone_reads_the_roster_with_both_sides_and_the_totals(client: Client, team: Team) -> None:
    page = roster(client, team)
    assert "Reikland Reavers" in page
    assert "Captain&#x27;s side · alice" in page and "Rival&#x27;s side · bob" in page
    assert "Players' value 400,000 gp · treasury 96,000 gp" in page
    assert "Players' value 310,000 gp · treasury 74,000 gp" in page
    assert '<td class="num" data-testid="team-value"><strong>830,000 gp</strong></td>' in page
    assert "Sure Hands, Pass" in page


def test_a_player_shows_stat_losses_gained_skills_injuries_and_value(
    client: Client, team: Team
) -> None:
    Player.objects.filter(team=team, number=4).update(
        spp=8, skills=["Block"], ma_loss=1, niggling_injuries=2, miss_next_game=True
    )
    page = roster(client, team)
    row = page[page.index('data-testid="player-4"') :]
    row = row[: row.index("</tr>")]
    assert '<td class="num stat down">5</td>' in row
    assert '<strong class="gained">Block</strong>' in row
    assert "2 niggling injuries, misses the next game, -1 MA" in row
    assert "70,000 gp" in row
    assert '<td class="num">8</td>' in row


def test_the_roster_page_reads_in_spanish_with_game_names_from_the_glossary(
    client: Client, team: Team
) -> None:
    Player.objects.filter(team=team, number=4).update(skills=["Dodge"], niggling_injuries=1)
    page = roster(client, team, "es")
    assert '<html lang="es">' in page
    assert "Humanos" in page  # race, from terms.json
    assert "Placar" in page and "Manos Seguras, Pasar" in page  # skills, from terms.json
    assert '<strong class="gained">Esquivar</strong>' in page
    assert "Bando del capitán · alice" in page
    assert "Valor del equipo" in page
    assert "1 lesión persistente" in page
    assert "Descargar como JSON" in page
    # 830,000 and a Dodge (a double for a Lineman); "mo" are monedas de oro, grouped in Spanish.
    assert "860\xa0000 mo" in page
    assert "Segundas oportunidades (SO)" in page and "Médico" in page


def test_the_team_list_and_my_teams_show_the_team(client: Client, team: Team, bob: User) -> None:
    assert "Reikland Reavers" in client.get("/teams/").content.decode()
    client.force_login(bob)
    page = client.get("/teams/mine/").content.decode()
    assert "Reikland Reavers" in page and "Rival coach" in page


def test_the_navigation_links_to_the_teams(client: Client, alice: User) -> None:
    page = client.get("/").content.decode()
    assert 'href="/teams/"' in page and 'href="/teams/mine/"' not in page
    client.force_login(alice)
    assert 'href="/teams/mine/"' in client.get("/").content.decode()


def test_a_missing_team_is_a_404(client: Client, db: None) -> None:
    assert client.get("/teams/999/").status_code == 404


def test_former_players_are_listed_apart(client: Client, team: Team) -> None:
    Player.objects.filter(team=team, number=5).update(status="dead")
    page = roster(client, team)
    assert 'data-testid="player-5"' not in page
    hans = Player.objects.get(team=team, number=5)
    assert f'<a href="/players/{hans.pk}/">#5 Hans</a> (Lineman, Dead)' in page


def test_only_the_coaches_see_the_management_forms(
    client: Client, team: Team, alice: User, bob: User, carol: User
) -> None:
    assert 'data-testid="hire"' not in roster(client, team)
    client.force_login(carol)
    page = roster(client, team)
    assert 'data-testid="hire"' not in page and 'data-testid="buy"' not in page
    client.force_login(bob)
    page = roster(client, team)
    assert 'data-testid="hire"' in page and 'data-testid="buy"' not in page
    assert 'data-testid="fire-7"' in page and 'data-testid="fire-1"' not in page
    client.force_login(alice)
    page = roster(client, team)
    assert 'data-testid="buy"' in page
    assert 'data-testid="fire-1"' in page and 'data-testid="fire-7"' not in page
