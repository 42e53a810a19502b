"""The live companion's pages through the test client: the league's entry, starting a match,
the referee's actions (plain posts and htmx), the phone page and who may do what."""

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches.live.models import LiveMatch
from teams.models import Team

pytestmark = pytest.mark.django_db
LOCALE = Path(__file__).resolve().parents[3] / "locale"


def _client(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def started(teams: tuple[Team, Team], gm: User) -> LiveMatch:
    home, away = teams
    client = _client(gm)
    response = client.post(
        f"/leagues/{home.league_id}/live/new/", {"home": home.pk, "away": away.pk}
    )
    match = LiveMatch.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/live/{match.pk}/"
    return match


def test_the_league_page_offers_the_gm_to_start_a_live_match(
    teams: tuple[Team, Team], gm: User, cast: dict[str, User]
) -> None:
    url = f"/leagues/{teams[0].league_id}/"
    assert 'data-testid="start-live"' in _client(gm).get(url).content.decode()
    assert 'data-testid="start-live"' not in _client(cast["alice"]).get(url).content.decode()


def test_a_coach_cannot_start_a_live_match(teams: tuple[Team, Team], cast: dict[str, User]) -> None:
    home, away = teams
    _client(cast["alice"]).post(
        f"/leagues/{home.league_id}/live/new/", {"home": home.pk, "away": away.pk}
    )
    assert not LiveMatch.objects.exists()


def test_the_referee_kicks_off_and_runs_a_challenge_by_htmx(started: LiveMatch, gm: User) -> None:
    client = _client(gm)
    page = client.get(f"/live/{started.pk}/").content.decode()
    assert 'data-testid="kick-off-away"' in page
    htmx = {"HX-Request": "true"}
    client.post(f"/live/{started.pk}/act/kick_off/", {"kicking": "away", "key": "a"}, headers=htmx)
    for key in "bc":  # to the bash phase: seed 002 bashes only there
        client.post(f"/live/{started.pk}/act/next_phase/", {"key": key}, headers=htmx)
    response = client.post(
        f"/live/{started.pk}/act/challenge/",
        {"purpose": "bash", "attackers": ["a3"], "defender": "h4", "key": "e"},
        headers=htmx,
    )
    html = response.content.decode()
    assert 'id="live-panel"' in html
    assert "<html" not in html
    assert 'data-testid="level-a3"' in html
    assert "wins a tie and throws a lost throw again once" in html


def test_a_refused_action_says_why(started: LiveMatch, gm: User) -> None:
    response = _client(gm).post(
        f"/live/{started.pk}/act/next_phase/", {"key": "x"}, HTTP_HX_REQUEST="true"
    )
    assert 'data-testid="error"' in response.content.decode()


def test_only_the_referee_acts(started: LiveMatch, cast: dict[str, User]) -> None:
    _client(cast["alice"]).post(f"/live/{started.pk}/act/kick_off/", {"kicking": "away"})
    started.refresh_from_db()
    assert started.state["phase"] == "kickoff"


def test_a_phone_link_shows_its_player_and_an_unknown_one_nothing(started: LiveMatch) -> None:
    token = started.state["players"]["h1"]["token"]
    page = _client().get(f"/live/{started.pk}/phone/{token}/")
    assert "Karl Fleischer" in page.content.decode()
    assert _client().get(f"/live/{started.pk}/phone/nope/").status_code == 404


def test_the_page_reads_in_finnish(started: LiveMatch, gm: User) -> None:
    client = _client(gm)
    client.cookies["django_language"] = "fi"
    page = client.get(f"/live/{started.pk}/").content.decode()
    assert 'lang="fi"' in page
    assert "potkaisee aloituspotkun" in page  # the kick-off buttons


def _catalogue(lang: str) -> dict[tuple[str, str], tuple[list[str], str]]:
    """(context, msgid) -> (msgstr forms, source references) of one catalogue."""
    text = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    out = {}
    for block in text.split("\n\n"):
        if block.lstrip().startswith("#~"):
            continue
        fields: dict[str, str] = {}
        name = ""
        for line in block.splitlines():
            if line.startswith("#"):
                continue
            head, _, rest = line.partition(" ")
            if not line.startswith('"'):
                name, line = head, rest
            fields[name] = fields.get(name, "") + line.strip()[1:-1]
        if fields.get("msgid"):
            forms = [v for k, v in fields.items() if k.startswith("msgstr")]
            refs = " ".join(re.findall(r"^#: (.*)$", block, re.M))
            out[(fields.get("msgctxt", ""), fields["msgid"])] = (forms, refs)
    return out


def test_every_live_message_reads_in_spanish_and_finnish() -> None:
    finnish = _catalogue("fi")
    spanish = _catalogue("es")
    live = [key for key, (_, refs) in finnish.items() if "live/" in refs]
    assert len(live) > 100
    for key in live:
        assert all(finnish[key][0]), key
        assert key in spanish and all(spanish[key][0]), key
