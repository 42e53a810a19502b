"""A team plays one match at a time: the GM's scheduling and opening a fixture refuse a team
already in a match that has not finished, in the reader's language, and change nothing. A
match's record is verified against the roster its teams had when it began; a second match under
way would change that roster under it."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Fixture, Match
from teams import services as team_services
from teams.models import League, Team
from teams.tests.conftest import starting_plan

pytestmark = pytest.mark.django_db

BUSY = {
    "en": "Team human is already in a match that has not finished",
    "es": "Team human ya está en un partido que no ha terminado",
    "fi": "Team human pelaa jo ottelua, joka ei ole päättynyt",
}


@pytest.fixture
def four(league: League) -> list[Team]:
    return [
        team_services.create_team(
            User.objects.create_user(f"coach{i}"),
            starting_plan(race),
            name=f"Team {race}",
            league=league,
        )
        for i, race in enumerate(["human", "orc", "dwarf", "skaven"])
    ]


def _client(user: User, language: str) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def _open(league: League, gm: User, home: Team, away: Team, round: int) -> Fixture:
    fixture = services.add_fixture(league.pk, gm, round=round, home_id=home.pk, away_id=away.pk)
    services.start_fixture(fixture.pk, gm)
    fixture.refresh_from_db()
    return fixture


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_gm_cannot_open_a_fixture_of_a_team_whose_match_has_not_finished(
    league: League, four: list[Team], gm: User, language: str
) -> None:
    first = _open(league, gm, four[0], four[1], round=1)
    second = services.add_fixture(league.pk, gm, round=2, home_id=four[2].pk, away_id=four[0].pk)
    client = _client(gm, language)
    response = client.post(reverse("gm:fixture_start", args=[second.pk]), follow=True)
    said = [str(m) for m in get_messages(response.wsgi_request)] or [response.content.decode()]
    assert any(BUSY[language] in text for text in said), said
    second.refresh_from_db()
    assert second.match is None and Match.objects.count() == 1

    assert first.match is not None
    Match.objects.filter(pk=first.match.pk).update(status=Match.Status.POST_MATCH)
    with pytest.raises(services.MatchError) as refused:
        services.start_fixture(second.pk, gm)
    assert refused.value.code == "team_busy", "the post-match still changes the roster"

    Match.objects.filter(pk=first.match.pk).update(status=Match.Status.FINISHED)
    client.post(reverse("gm:fixture_start", args=[second.pk]))
    second.refresh_from_db()
    assert second.match is not None and second.match.status == Match.Status.PRE_MATCH


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_schedule_page_names_the_busy_team_and_schedules_nothing(
    league: League, four: list[Team], gm: User, language: str
) -> None:
    _open(league, gm, four[0], four[1], round=1)
    data: dict[str, Any] = {"home": four[2].pk, "away": four[0].pk, "house_rules": "on"}
    response = _client(gm, language).post(reverse("matches:schedule"), data)
    assert response.status_code == 200
    assert BUSY[language] in response.content.decode()
    assert Match.objects.count() == 1
    free = {"home": four[2].pk, "away": four[3].pk, "house_rules": "on"}
    assert _client(gm, language).post(reverse("matches:schedule"), free).status_code == 302
    assert Match.objects.count() == 2


def test_either_team_being_busy_refuses_and_the_other_is_left_free(
    league: League, four: list[Team], gm: User
) -> None:
    _open(league, gm, four[0], four[1], round=1)
    with pytest.raises(services.MatchError) as refused:
        services.schedule_match(gm, home=four[2], away=four[1])
    assert "Team orc is already in a match" in refused.value.message
    assert services.schedule_match(gm, home=four[2], away=four[3]).status == (
        Match.Status.PRE_MATCH
    )
