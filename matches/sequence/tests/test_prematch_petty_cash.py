"""Petty cash: the higher-value team's sides decide first, each from its own treasury."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches import services
from matches.models import Match, Post, Sequence, TeamMatchRecord
from matches.record import values
from matches.services import MatchError
from teams.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def gold(prematch: Match) -> Match:
    Team.objects.filter(pk=prematch.home_team_id).update(
        captain_treasury=100_000, rival_treasury=50_000
    )
    return prematch


def test_a_new_league_match_opens_with_the_team_values(prematch: Match) -> None:
    assert prematch.status == Match.Status.PRE_MATCH
    assert prematch.sequence.step == Sequence.Step.PETTY_CASH_FAVOURITE
    post = Post.objects.get(match=prematch, summary__step="team_values")
    items = post.summary.pop("items")  # each team's roster, which the values are recomputed by
    assert post.summary == {
        "step": "team_values",
        "home": 1_000_000,
        "away": 1_000_000,
        "favourite": "home",
    }
    assert {key: values.value(items[key]) for key in ("home", "away")} == {
        "home": 1_000_000,
        "away": 1_000_000,
    }


@pytest.mark.parametrize(
    ("who", "side", "code"),
    [
        ("anonymous", "captain", "not_in_match"),
        ("erin", "captain", "not_in_match"),
        ("gm", "captain", "not_in_match"),
        ("bob", "captain", "not_your_side"),
        ("alice", "rival", "not_your_side"),
        ("carol", "captain", "not_your_side"),
    ],
)
def test_only_the_side_s_coach_moves_its_gold(
    gold: Match, cast: dict[str, User], who: str, side: str, code: str
) -> None:
    user = AnonymousUser() if who == "anonymous" else cast[who]
    with pytest.raises(MatchError) as refused:
        services.transfer_petty_cash(gold.pk, user, side=side, amount=10_000)
    assert refused.value.code == code


def test_each_side_pays_from_its_own_treasury(gold: Match, cast: dict[str, User]) -> None:
    services.transfer_petty_cash(gold.pk, cast["alice"], side="captain", amount=60_000)
    services.transfer_petty_cash(gold.pk, cast["bob"], side="rival", amount=50_000)
    team = Team.objects.get(pk=gold.home_team_id)
    assert (team.captain_treasury, team.rival_treasury) == (40_000, 0)
    record = TeamMatchRecord.objects.get(match=gold, key="home")
    assert record.petty_cash == 110_000
    gold.sequence.refresh_from_db()
    assert gold.sequence.step == Sequence.Step.PETTY_CASH_UNDERDOG


def test_a_side_cannot_move_more_than_it_holds_nor_decide_twice(
    gold: Match, cast: dict[str, User]
) -> None:
    with pytest.raises(MatchError) as refused:
        services.transfer_petty_cash(gold.pk, cast["bob"], side="rival", amount=60_000)
    assert refused.value.code == "not_enough_gold"
    services.transfer_petty_cash(gold.pk, cast["bob"], side="rival", amount=0)
    with pytest.raises(MatchError) as again:
        services.transfer_petty_cash(gold.pk, cast["bob"], side="rival", amount=0)
    assert again.value.code == "already_decided"


def test_the_lower_team_waits_for_the_higher_one(gold: Match, cast: dict[str, User]) -> None:
    with pytest.raises(MatchError) as refused:
        services.transfer_petty_cash(gold.pk, cast["carol"], side="captain", amount=0)
    assert refused.value.code == "not_your_side"  # it is the Reavers' turn


def test_the_handicap_money_goes_to_the_lower_team(gold: Match, cast: dict[str, User]) -> None:
    services.transfer_petty_cash(gold.pk, cast["alice"], side="captain", amount=100_000)
    services.transfer_petty_cash(gold.pk, cast["bob"], side="rival", amount=20_000)
    services.transfer_petty_cash(gold.pk, cast["carol"], side="captain", amount=0)
    services.transfer_petty_cash(gold.pk, cast["dave"], side="rival", amount=0)
    assert TeamMatchRecord.objects.get(match=gold, key="away").handicap == 120_000
    post = Post.objects.get(match=gold, summary__step="handicap")
    assert (post.summary["team"], post.summary["amount"]) == ("away", 120_000)


def test_an_unanswered_side_moves_nothing_when_the_deadline_passes(
    gold: Match, cast: dict[str, User]
) -> None:
    services.transfer_petty_cash(gold.pk, cast["alice"], side="captain", amount=50_000)
    later = timezone.now() + timedelta(days=2)
    assert services.expire_sequence_deadlines(later) == 1
    record = TeamMatchRecord.objects.get(match=gold, key="home")
    assert (record.petty_cash_captain, record.petty_cash_rival) == (50_000, 0)
    assert Post.objects.filter(match=gold, summary__step="petty_cash", summary__default=True)


def _petty_cash_form_shown(match: Match, user: User) -> bool:
    client = Client()
    client.force_login(user)
    page = client.get(reverse("sequence:prematch", args=[match.pk])).content.decode()
    return 'data-testid="petty-cash"' in page


def test_the_form_goes_once_a_side_has_decided_and_stays_gone_into_the_inducements(
    gold: Match, cast: dict[str, User]
) -> None:
    services.transfer_petty_cash(gold.pk, cast["bob"], side="rival", amount=0)
    assert not _petty_cash_form_shown(gold, cast["bob"])
    assert _petty_cash_form_shown(gold, cast["alice"])  # her side has not decided yet
    services.transfer_petty_cash(gold.pk, cast["alice"], side="captain", amount=0)
    services.transfer_petty_cash(gold.pk, cast["carol"], side="captain", amount=0)
    services.transfer_petty_cash(gold.pk, cast["dave"], side="rival", amount=0)
    gold.sequence.refresh_from_db()
    assert gold.sequence.step.startswith("inducements")
    assert not any(_petty_cash_form_shown(gold, cast[who]) for who in ("alice", "bob", "carol"))
