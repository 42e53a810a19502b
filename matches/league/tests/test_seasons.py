"""Seasons through the services: two divisions, each its own round robin; a four-team
knockout seeded from the standings that advances by itself as its matches finish; the season
closed with its standings frozen and its awards named; the next opened with the teams that
carry over, as they stand."""

import contextlib
import html
import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches import services
from matches.models import Fixture, Match, Season, SeasonTeam
from matches.record import season as leagues
from matches.sequence.tests.driving import ConstantDice, name_the_awards, through_the_pre_match
from matches.tests.dice import use_dice
from teams import services as team_services
from teams.models import League, Team
from teams.tests.conftest import starting_plan
from tools.demo_matches import concede, play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def known_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every die shows 3 (a D3 shows 2): each match plays the same way every run."""
    use_dice(monkeypatch, lambda match: ConstantDice(3))


@pytest.fixture
def four(cast: dict[str, User], teams: tuple[Team, Team], league: League) -> list[Team]:
    """Two more split teams: erin captains the Dwarfs with dave as rival, and the other way
    round for the Humans."""
    more = []
    for captain, rival, race, name in (
        ("erin", "dave", "dwarf", "Erin's Dwarfs"),
        ("dave", "erin", "human", "Dave's Humans"),
    ):
        team = team_services.create_team(
            cast[captain], starting_plan(race), name=name, league=league, rival_username=rival
        )
        team_services.accept_invitation(cast[rival], team.invitations.get())
        more.append(team)
    return [*teams, *more]


def play_fixture(fixture: Fixture, gm: User, seed: int, commits: Any = None) -> Match:
    """The fixture's match from its pre-match to its end: a few turns, a concession, the
    awards, the improvements drawn when their deadline passes (with ``commits``, what waits
    for each commit runs after it, as on a server)."""
    with commits(execute=True) if commits else contextlib.nullcontext():
        match = services.start_fixture(fixture.pk, gm)
        through_the_pre_match(match)
        play(match, random.Random(seed), turns=2)
        concede(match)
        match = Match.objects.select_related("home_team", "away_team").get(pk=match.pk)
        name_the_awards(match)
        services.expire_sequence_deadlines(timezone.now() + timedelta(days=30))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def divided(league: League, gm: User, four: list[Team]) -> dict[int, str]:
    divisions = {four[0].pk: "North", four[1].pk: "North", four[2].pk: "South", four[3].pk: "South"}
    services.set_divisions(league.pk, gm, divisions)
    return divisions


def test_every_league_has_a_first_season_its_matches_belong_to(
    league: League, teams: tuple[Team, Team], gm: User
) -> None:
    fixtures = services.generate_round_robin(league.pk, gm)
    season = Season.objects.get(league=league)
    assert season.number == 1 and season.is_open
    assert {e.team_id for e in season.entries.all()} == {t.pk for t in teams}
    match = services.start_fixture(fixtures[0].pk, gm)
    assert match.season == season and fixtures[0].season == season


def test_each_division_plays_its_own_round_robin(
    league: League, four: list[Team], gm: User
) -> None:
    divisions = divided(league, gm, four)
    fixtures = services.generate_round_robin(league.pk, gm)
    assert len(fixtures) == 2
    for fixture in fixtures:
        assert divisions[fixture.home_id] == divisions[fixture.away_id] == fixture.division
    assert {f.round for f in fixtures} == {1}


def test_divisions_are_refused_once_the_season_is_scheduled_or_with_a_lonely_team(
    league: League, four: list[Team], gm: User, cast: dict[str, User]
) -> None:
    lonely = {four[0].pk: "North", four[1].pk: "South", four[2].pk: "South", four[3].pk: "South"}
    with pytest.raises(services.MatchError) as refused:
        services.set_divisions(league.pk, gm, lonely)
    assert refused.value.code == "division_too_small"
    with pytest.raises(services.MatchError) as refused:
        services.set_divisions(league.pk, cast["alice"], {t.pk: "" for t in four})
    assert refused.value.code == "not_gm"
    services.generate_round_robin(league.pk, gm)
    with pytest.raises(services.MatchError) as refused:
        divided(league, gm, four)
    assert refused.value.code == "scheduled"
    assert set(Season.objects.get().entries.values_list("division", flat=True)) == {""}


def test_a_knockout_match_offers_no_agreed_draw() -> None:
    from rules.engine.state import MatchState

    state = MatchState(knockout=True)
    assert MatchState.from_json(state.to_json()).knockout
    assert "knockout" not in MatchState().to_json()


def test_the_knockout_is_seeded_across_the_divisions_and_advances_to_a_champion(
    league: League, four: list[Team], gm: User, django_capture_on_commit_callbacks: Any
) -> None:
    commits = django_capture_on_commit_callbacks
    divided(league, gm, four)
    for number, fixture in enumerate(services.generate_round_robin(league.pk, gm)):
        play_fixture(fixture, gm, number)
    season = services.current_season(league)
    table = leagues.season(league, of=season)
    winners = {name: rows[0].team for name, rows in table.divisions.items()}
    runners_up = {name: rows[1].team for name, rows in table.divisions.items()}

    semis = services.seed_playoff(league.pk, gm, size=4)
    assert [f.round for f in semis] == [2, 2] and all(f.knockout for f in semis)
    pairs = {frozenset((f.home_id, f.away_id)) for f in semis}
    assert pairs == {
        frozenset((winners["North"].pk, runners_up["South"].pk)),
        frozenset((winners["South"].pk, runners_up["North"].pk)),
    }
    first = play_fixture(semis[0], gm, 10, commits)
    assert first.state.get("knockout") is True
    assert not Fixture.objects.filter(round=3).exists()  # the other semi-final is not played
    second = play_fixture(semis[1], gm, 11, commits)
    final = Fixture.objects.get(round=3)
    assert final.knockout and final.slot == 1
    assert (final.home, final.away) == (services.winner_of(first), services.winner_of(second))
    with pytest.raises(services.MatchError) as refused:
        services.close_season(league.pk, gm)
    assert refused.value.code == "fixtures_unplayed"
    last = play_fixture(final, gm, 12, commits)
    season.refresh_from_db()
    assert season.champion == services.winner_of(last)
    services.advance_bracket(last.pk)  # once more: nothing changes
    assert Fixture.objects.filter(knockout=True).count() == 3

    closed = services.close_season(league.pk, gm)
    assert closed.closed_at is not None
    assert [row["name"] for row in closed.table if row["division"] == "North"] == [
        row.team.name for row in table.divisions["North"]
    ]
    assert {award["award"] for award in closed.awards} <= {"touchdowns", "casualties", "spp"}
    assert any(award["award"] == "spp" for award in closed.awards)


def test_the_next_season_carries_teams_over_as_they_stand(
    league: League, teams: tuple[Team, Team], gm: User, cast: dict[str, User]
) -> None:
    extra = team_services.create_team(
        cast["erin"], starting_plan("dwarf"), name="Erin's Dwarfs", league=league
    )
    fixtures = services.generate_round_robin(league.pk, gm)
    for number, fixture in enumerate(fixtures):
        play_fixture(fixture, gm, number)
    with pytest.raises(services.MatchError) as refused:
        services.open_next_season(league.pk, gm, [t.pk for t in teams])
    assert refused.value.code == "season_open"
    services.close_season(league.pk, gm)
    home, away = (Team.objects.get(pk=t.pk) for t in teams)
    hurt = home.roster()[0]
    hurt.miss_next_game = True
    hurt.save()
    before = {p.pk: (p.spp, p.niggling_injuries) for p in home.roster()}
    treasury = (home.captain_treasury, home.rival_treasury)

    second = services.open_next_season(league.pk, gm, [home.pk, away.pk])
    assert second.number == 2 and second.is_open
    extra.refresh_from_db()
    assert extra.league is None  # it left; its matches stay in season 1
    assert Season.objects.get(number=1).entries.filter(team=extra).exists()
    fixture = services.generate_round_robin(league.pk, gm)[0]
    assert fixture.season == second and fixture.round == 1
    match = services.start_fixture(fixture.pk, gm)
    assert match.season == second
    assert hurt.pk not in {facts["pk"] for facts in match.lineup.values()}
    home.refresh_from_db()
    now = {p.pk: (p.spp, p.niggling_injuries) for p in home.roster()}
    assert {pk: now[pk] for pk in before} == before  # a journeyman may stand in for the hurt
    assert (home.captain_treasury, home.rival_treasury) == treasury


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_gm_runs_the_season_from_its_page_and_the_league_page_shows_it(
    league: League, four: list[Team], gm: User, django_capture_on_commit_callbacks: Any
) -> None:
    client = _client(gm)
    url = reverse("gm:season", args=[league.pk])
    services.current_season(league)
    assert client.get(url).status_code == 200
    names = {f"division-{team.pk}": name for team, name in zip(four, "NNSS", strict=True)}
    client.post(url, {"do": "divisions", **names})
    assert set(SeasonTeam.objects.values_list("division", flat=True)) == {"N", "S"}
    for number, fixture in enumerate(services.generate_round_robin(league.pk, gm)):
        play_fixture(fixture, gm, number)
    client.post(url, {"do": "playoff", "size": "4"})
    semis = list(Fixture.objects.filter(knockout=True))
    assert len(semis) == 2
    for number, fixture in enumerate(semis):
        play_fixture(fixture, gm, 20 + number, django_capture_on_commit_callbacks)
    final = Fixture.objects.get(knockout=True, slot=1, round=3)
    champion = services.winner_of(play_fixture(final, gm, 30, django_capture_on_commit_callbacks))
    assert champion is not None
    client.post(url, {"do": "close"})
    page = Client().get(reverse("gm:league", args=[league.pk])).content.decode()
    assert "Champion: " + html.escape(champion.name) in page
    assert page.count('data-testid="division"') == 2 and "Knockout" in page
    client.post(url, {"do": "open", "team": [t.pk for t in four]})
    assert Season.objects.filter(league=league).count() == 2
    old = Client().get(reverse("gm:league", args=[league.pk]) + "?season=1").content.decode()
    assert "Champion: " + html.escape(champion.name) in old
    assert Client().get(reverse("gm:league", args=[league.pk]) + "?season=9").status_code == 404
    everything = Client().get(reverse("gm:all_time", args=[league.pk])).content.decode()
    assert html.escape(champion.name) in everything.split('data-testid="champions"')[1]


def test_the_season_page_refuses_others_and_bad_input_changes_nothing(
    league: League, teams: tuple[Team, Team], gm: User, cast: dict[str, User]
) -> None:
    url = reverse("gm:season", args=[league.pk])
    assert _client(cast["alice"]).post(url, {"do": "close"}).status_code == 403
    client = _client(gm)
    for bad in ({"do": "playoff", "size": "3"}, {"do": "open", "team": "x"}, {"do": "nothing"}):
        answer = client.post(url, bad, follow=True)
        assert answer.status_code == 200
        assert list(answer.context["messages"])
    assert not Fixture.objects.exists() and Season.objects.count() <= 1


def test_the_season_page_lists_the_league_teams_before_any_season_is_made(
    league: League, four: list[Team], gm: User
) -> None:
    url = reverse("gm:season", args=[league.pk])
    page = _client(gm).get(url).content.decode()
    assert all(f'name="division-{team.pk}"' in page for team in four)
    names = {f"division-{team.pk}": name for team, name in zip(four, "NNSS", strict=True)}
    _client(gm).post(url, {"do": "divisions", **names})
    assert dict(SeasonTeam.objects.values_list("team_id", "division")) == {
        team.pk: name for team, name in zip(four, "NNSS", strict=True)
    }
