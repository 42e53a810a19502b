"""The sequence's pages: the steps read in English and in Spanish, and each form posts to
one service call (a refusal for who you are is a 403)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Advancement, Match, TeamMatchRecord
from matches.sequence.tests.driving import finish_now
from teams import services as team_services
from teams.models import Player, Team
from teams.tests.conftest import starting_plan

pytestmark = pytest.mark.django_db


def _client(user: User | None = None, lang: str = "en") -> Client:
    client = Client(headers={"accept-language": lang})
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def after(demo: tuple[Team, Team], cast: dict[str, User], sequence_faces: list[int]) -> Match:
    reavers, raiders = demo
    match = services.create_match(home=reavers, away=raiders, gm=cast["gm"], league=reavers.league)
    sequence_faces.extend([3, 1, 1, 2, 6, 6, 6, 6, 1, 1])
    return finish_now(match, winner="home")


def test_the_pre_match_steps_read_in_english_and_spanish(
    prematch: Match, cast: dict[str, User]
) -> None:
    Team.objects.filter(pk=prematch.home_team_id).update(captain_treasury=100_000)
    services.transfer_petty_cash(prematch.pk, cast["alice"], side="captain", amount=100_000)
    url = reverse("sequence:prematch", args=[prematch.pk])
    english = _client().get(url).content.decode()
    assert "Team values: Reikland Reavers 1,000,000 gp, Orcland Raiders 1,000,000 gp." in english
    assert "Petty cash: the captain&#x27;s side of Reikland Reavers moves 100,000 gp" in english
    spanish = _client(lang="es").get(url).content.decode()
    # Spanish groups digits with a no-break space and writes gold as "mo".
    assert "Valor de los equipos: Reikland Reavers 1\xa0000\xa0000 mo" in spanish
    assert "Caja chica: el bando del capitán de Reikland Reavers pasa 100\xa0000 mo" in spanish


def test_the_petty_cash_form_is_only_for_the_side_s_coach(
    prematch: Match, cast: dict[str, User]
) -> None:
    url = reverse("sequence:prematch", args=[prematch.pk])
    assert 'data-testid="petty-cash"' in _client(cast["bob"]).get(url).content.decode()
    assert 'data-testid="petty-cash"' not in _client(cast["carol"]).get(url).content.decode()
    post = reverse("sequence:petty_cash", args=[prematch.pk])
    assert _client(cast["erin"]).post(post, {"side": "captain", "amount": "0"}).status_code == 403
    assert _client(cast["bob"]).post(post, {"side": "captain", "amount": "0"}).status_code == 403
    assert _client(cast["bob"]).post(post, {"side": "rival", "amount": "0"}).status_code == 302
    assert TeamMatchRecord.objects.get(match=prematch, key="home").petty_cash_rival == 0


def test_a_wizard_posted_through_the_form_is_refused(
    prematch: Match, cast: dict[str, User]
) -> None:
    for user, side in (
        ("alice", "captain"),
        ("bob", "rival"),
        ("carol", "captain"),
        ("dave", "rival"),
    ):
        services.transfer_petty_cash(prematch.pk, cast[user], side=side, amount=0)
    url = reverse("sequence:prematch", args=[prematch.pk])
    page = _client(cast["alice"]).get(url).content.decode()
    assert 'data-testid="inducements"' in page and "count_wizard" not in page
    post = reverse("sequence:inducements", args=[prematch.pk])
    response = _client(cast["alice"]).post(post, {"count_wizard": "1"}, follow=True)
    assert "There is no Wizard in this league" in response.content.decode()
    assert TeamMatchRecord.objects.get(match=prematch, key="home").inducements is None


def test_the_post_match_steps_read_in_english_and_spanish(
    after: Match, cast: dict[str, User]
) -> None:
    services.reroll_winnings(after.pk, cast["alice"], reroll=False)
    services.choose_mvp(after.pk, cast["carol"], team="home", mje="h2", pje="h3")
    services.choose_mvp(after.pk, cast["alice"], team="away", mje="a1", pje="a2")
    url = reverse("sequence:postmatch", args=[after.pk])
    otto, johann = _career_link(after, "h2"), _career_link(after, "h3")
    assert ">#2 Otto Brandt</a>" in otto
    english = _client().get(url).content.decode()
    assert "Final score 1-0: Reikland Reavers wins." in english
    assert (
        f"Awards to Reikland Reavers, chosen by the opposing captain: MVP {otto}, "
        f"second award {johann}." in english
    )
    assert (
        "Winnings of Reikland Reavers (a win): (2 + FAME 0 + 1) x 10,000 = 30,000 gp, less 0 gp "
        "of spiralling expenses: 30,000 gp." in english
    )
    assert "16,000 gp to the captain&#x27;s side, 14,000 gp to the rival&#x27;s side" in english
    spanish = _client(lang="es").get(url).content.decode()
    assert "Resultado final 1-0: gana Reikland Reavers." in spanish
    assert f"Premios para Reikland Reavers, elegidos por el capitán rival: MJE {otto}" in spanish
    assert (
        "Recaudación de Reikland Reavers (victoria): (2 + FAMA 0 + 1) x 10.000 = 30\xa0000 mo"
        in (spanish)
    )
    assert "16\xa0000 mo para el bando del capitán, 14\xa0000 mo para el bando del rival" in spanish
    assert f"PE de Reikland Reavers: {otto} 5 PE (MJE); {johann} 4 PE (PJE)." in spanish


def _career_link(match: Match, engine_id: str) -> str:
    """How a step's sentence names a player of the match: "#N Name", a link to his career."""
    info = match.lineup[engine_id]
    href = reverse("history:player", args=[info["pk"]])
    return f'<a href="{href}">#{info["number"]} {info["name"]}</a>'


def test_the_mvp_form_is_offered_to_the_opposing_captain_only(
    after: Match, cast: dict[str, User]
) -> None:
    url = reverse("sequence:postmatch", args=[after.pk])
    assert 'data-testid="mvp-home"' in _client(cast["carol"]).get(url).content.decode()
    assert 'data-testid="mvp-home"' not in _client(cast["alice"]).get(url).content.decode()
    post = reverse("sequence:mvp", args=[after.pk])
    data = {"team": "home", "mje": "h1", "pje": "h2"}
    for who in ("alice", "bob", "dave", "erin", "gm"):
        assert _client(cast[who]).post(post, data).status_code == 403, who
    assert _client().post(post, data).status_code == 403
    assert _client(cast["carol"]).post(post, data).status_code == 302
    assert TeamMatchRecord.objects.get(match=after, key="home").mje == "h1"


def test_a_journeyman_is_hired_from_the_page_by_the_coach_of_his_side_only(
    after: Match, cast: dict[str, User]
) -> None:
    raiders = Team.objects.get(pk=after.away_team_id)
    Team.objects.filter(pk=raiders.pk).update(rival_treasury=60_000)
    journeyman = Player.objects.create(
        team=raiders,
        number=40,
        name="Grub",
        position="orc.lineman",
        side="rival",
        status=Player.Status.JOURNEYMAN,
    )
    url = reverse("sequence:postmatch", args=[after.pk])
    row = f'data-testid="journeyman-{journeyman.pk}"'
    hire = reverse("sequence:hire_journeyman", args=[after.pk, journeyman.pk])
    for who in ("alice", "carol"):
        page = _client(cast[who]).get(url).content.decode()
        assert row in page and hire not in page, who
        assert _client(cast[who]).post(hire).status_code == 403, who
    page = _client(cast["dave"]).get(url).content.decode()
    assert hire in page and "50,000 gp" in page and "60,000 gp" in page
    assert "Sustitutos" in _client(cast["dave"], lang="es").get(url).content.decode()
    assert _client(cast["dave"]).post(hire).status_code == 302
    journeyman.refresh_from_db()
    raiders.refresh_from_db()
    assert journeyman.status == Player.Status.ACTIVE
    assert raiders.rival_treasury == 10_000
    assert row not in _client(cast["dave"]).get(url).content.decode()


def test_a_private_match_s_sequence_pages_answer_as_missing_to_outsiders(
    after: Match, cast: dict[str, User]
) -> None:
    Match.objects.filter(pk=after.pk).update(is_public=False)
    karl = Player.objects.filter(team=after.home_team).first()
    assert karl is not None
    adv = Advancement.objects.create(match=after, player=karl, dice=[6, 6], options=["Block"])
    pages = [
        reverse("sequence:prematch", args=[after.pk]),
        reverse("sequence:postmatch", args=[after.pk]),
        reverse("sequence:advance", args=[adv.pk]),
    ]
    missing = [
        reverse("sequence:prematch", args=[after.pk + 100]),
        reverse("sequence:postmatch", args=[after.pk + 100]),
    ]
    for outsider in (None, cast["erin"]):
        for url in pages + missing:
            assert _client(outsider).get(url).status_code == 404, (outsider, url)
        refused = _client(outsider).post(reverse("sequence:mvp", args=[after.pk]), {"team": "home"})
        assert refused.status_code == 404
    for insider in (cast["alice"], cast["carol"], cast["gm"]):
        for url in pages:
            assert _client(insider).get(url).status_code == 200, (insider, url)
    Match.objects.filter(pk=after.pk).update(is_public=True)
    assert _client().get(pages[1]).status_code == 200


def test_a_journeyman_of_another_match_s_team_is_not_hired_through_this_match(
    after: Match, cast: dict[str, User]
) -> None:
    elsewhere = team_services.create_team(cast["erin"], starting_plan("orc"), name="Elsewhere")
    player = elsewhere.players.first()
    assert player is not None
    url = reverse("sequence:hire_journeyman", args=[after.pk, player.pk])
    assert _client(cast["erin"]).post(url).status_code == 404
