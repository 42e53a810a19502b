"""Inducements: bought by the captain within the limits, the budget and house rule 6."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches import services
from matches.models import Match, Post, TeamMatchRecord
from matches.services import MatchError
from rules import gamedata
from teams.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def shopping(prematch: Match, cast: dict[str, User]) -> Match:
    """The Reavers' captain put 300,000 in petty cash and the rival 100,000; the Raiders
    receive 400,000 of handicap money."""
    Team.objects.filter(pk=prematch.home_team_id).update(
        captain_treasury=300_000, rival_treasury=100_000
    )
    services.transfer_petty_cash(prematch.pk, cast["alice"], side="captain", amount=300_000)
    services.transfer_petty_cash(prematch.pk, cast["bob"], side="rival", amount=100_000)
    services.transfer_petty_cash(prematch.pk, cast["carol"], side="captain", amount=0)
    services.transfer_petty_cash(prematch.pk, cast["dave"], side="rival", amount=0)
    return prematch


@pytest.mark.parametrize(
    ("who", "code"),
    [
        ("anonymous", "not_in_match"),
        ("erin", "not_in_match"),
        ("gm", "not_in_match"),
        ("bob", "not_captain"),
        ("carol", "not_captain"),
    ],
)
def test_only_the_team_s_captain_buys(
    shopping: Match, cast: dict[str, User], who: str, code: str
) -> None:
    user = AnonymousUser() if who == "anonymous" else cast[who]
    with pytest.raises(MatchError) as refused:
        services.buy_inducements(shopping.pk, user, {"counts": {"extra_training": 1}})
    assert refused.value.code == code


def test_a_wizard_cannot_be_bought(shopping: Match, cast: dict[str, User]) -> None:
    with pytest.raises(MatchError) as refused:
        services.buy_inducements(shopping.pk, cast["alice"], {"counts": {"wizard": 1}})
    assert refused.value.code == "illegal_inducements"
    assert "Wizard" in refused.value.message


def test_the_order_stays_within_the_budget(shopping: Match, cast: dict[str, User]) -> None:
    with pytest.raises(MatchError) as refused:
        services.buy_inducements(
            shopping.pk, cast["alice"], {"counts": {"extra_training": 4, "bribes": 1}}
        )
    assert refused.value.code == "illegal_inducements"


def test_unspent_petty_cash_goes_back_to_the_sides_by_contribution(
    shopping: Match, cast: dict[str, User]
) -> None:
    services.buy_inducements(shopping.pk, cast["alice"], {"counts": {"extra_training": 2}})
    team = Team.objects.get(pk=shopping.home_team_id)
    # 400,000 put in, 200,000 spent: 150,000 back to the captain's side, 50,000 to the rival's.
    assert (team.captain_treasury, team.rival_treasury) == (150_000, 50_000)
    assert TeamMatchRecord.objects.get(match=shopping, key="home").inducements_cost == 200_000


def test_stars_mercenaries_and_extra_training_reach_the_engine(
    shopping: Match, cast: dict[str, User]
) -> None:
    star = next(s for s in gamedata.star_players_for("human") if s.cost <= 200_000)
    services.buy_inducements(
        shopping.pk,
        cast["alice"],
        {
            "counts": {"extra_training": 1},
            "stars": [star.id],
            "mercenaries": [{"position": "human.lineman", "skill": "Block"}],
        },
    )
    services.buy_inducements(
        shopping.pk,
        cast["carol"],
        {"counts": {"wandering_apothecary": 1, "bribes": 1}, "stars": [star.id]}
        if "orc" in star.race_ids
        else {"counts": {"bribes": 1}},
    )
    match = Match.objects.get(pk=shopping.pk)
    assert match.status == Match.Status.IN_PLAY
    state = services.load_state(match)
    assert state.teams["home"].base_rerolls == 3
    kinds = {entry.get("kind", "player") for entry in match.lineup.values()}
    assert "mercenary" in kinds
    merc = next(pid for pid, e in match.lineup.items() if e.get("kind") == "mercenary")
    assert "Loner" in state.players[merc].skills and "Block" in state.players[merc].skills
    stars = [pid for pid, e in match.lineup.items() if e.get("kind") == "star"]
    assert len(stars) == (0 if "orc" in star.race_ids else 1)  # both induced him: nobody
    assert Post.objects.filter(match=match, summary__step="weather").exists()
    assert Post.objects.filter(match=match, summary__step="fans").exists()


def test_the_lower_team_buys_after_the_higher_one(shopping: Match, cast: dict[str, User]) -> None:
    with pytest.raises(MatchError) as refused:
        services.buy_inducements(shopping.pk, cast["carol"], {})
    assert refused.value.code == "not_captain"


def test_no_answer_by_the_deadline_buys_nothing(shopping: Match, cast: dict[str, User]) -> None:
    later = timezone.now() + timedelta(days=2)
    assert services.expire_sequence_deadlines(later) == 1
    assert TeamMatchRecord.objects.get(match=shopping, key="home").inducements == {
        "counts": {},
        "stars": [],
        "mercenaries": [],
    }
    team = Team.objects.get(pk=shopping.home_team_id)
    assert (team.captain_treasury, team.rival_treasury) == (300_000, 100_000)
    later = later + timedelta(days=2)
    services.expire_sequence_deadlines(later)
    assert Match.objects.get(pk=shopping.pk).status == Match.Status.IN_PLAY


def test_babes_chefs_bribes_igor_and_apothecaries_reach_the_engine(
    shopping: Match, cast: dict[str, User]
) -> None:
    services.buy_inducements(
        shopping.pk, cast["alice"], {"counts": {"bloodweiser_babes": 2, "bribes": 1}}
    )
    services.buy_inducements(
        shopping.pk, cast["carol"], {"counts": {"wandering_apothecary": 2, "bribes": 1}}
    )
    state = services.load_state(Match.objects.get(pk=shopping.pk))
    home, away = state.teams["home"], state.teams["away"]
    assert (home.babes, home.bribes) == (2, 1)
    assert away.bribes == 1
    raiders = Team.objects.get(pk=shopping.away_team_id)
    assert away.apothecary == 2 + int(raiders.apothecary)
    assert not state.players[next(iter(state.players))].star


def test_the_mercenaries_box_lists_the_positions_it_takes_with_their_price(
    shopping: Match, cast: dict[str, User]
) -> None:
    client = Client()
    client.force_login(cast["alice"])
    page = client.get(reverse("sequence:prematch", args=[shopping.pk])).content.decode()
    listed = page[page.index('data-testid="mercenary-positions"') :]
    assert "<code>human.lineman</code></td><td>Lineman</td>" in listed
    assert "80,000 gp" in listed  # a lineman's 50,000 and the mercenary's 30,000
