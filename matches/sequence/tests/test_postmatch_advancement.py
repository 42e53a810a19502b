"""Improvement rolls: the coach of the player's side chooses; the deadline picks a skill."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from matches import services
from matches.models import Advancement, Match, Sequence
from matches.sequence.tests.driving import finish_now
from matches.services import MatchError
from teams.models import Player, Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def rolled(demo: tuple[Team, Team], cast: dict[str, User], sequence_faces: list[int]) -> Match:
    """Max Steiner (#7, bob's side) has 2 SPP and gets the MVP: an improvement roll of 4+4."""
    reavers, raiders = demo
    Player.objects.filter(team=reavers, number=7).update(spp=2)
    match = services.create_match(home=reavers, away=raiders, gm=cast["gm"], league=reavers.league)
    sequence_faces.extend([3, 1, 1, 2, 6, 6, 6, 4, 4, 1, 1, 1])
    finish_now(match, winner="home")
    services.reroll_winnings(match.pk, cast["alice"], reroll=False)
    services.choose_mvp(match.pk, cast["carol"], team="home", mje="h7", pje="h3")
    services.choose_mvp(match.pk, cast["alice"], team="away", mje="a1", pje="a2")
    return match


@pytest.mark.parametrize(
    ("who", "code"),
    [
        ("anonymous", "not_in_match"),
        ("erin", "not_in_match"),
        ("gm", "not_in_match"),
        ("carol", "not_in_match"),
        ("alice", "not_your_side"),
    ],
)
def test_only_the_coach_of_the_player_s_side_chooses(
    rolled: Match, cast: dict[str, User], who: str, code: str
) -> None:
    adv = Advancement.objects.get(match=rolled)
    user = AnonymousUser() if who == "anonymous" else cast[who]
    with pytest.raises(MatchError) as refused:
        services.choose_advancement(adv.pk, user, "Block")
    assert refused.value.code == code


def test_the_rival_takes_a_double_skill_for_his_player(
    rolled: Match, cast: dict[str, User]
) -> None:
    adv = Advancement.objects.get(match=rolled)
    assert adv.dice == [4, 4] and adv.double
    with pytest.raises(MatchError) as refused:
        services.choose_advancement(adv.pk, cast["bob"], "+ST")  # 8 is no characteristic
    assert refused.value.code == "bad_choice"
    services.choose_advancement(adv.pk, cast["bob"], "Dodge")  # Agility: a double for him
    max_steiner = Player.objects.get(team=rolled.home_team, number=7)
    assert (max_steiner.spp, max_steiner.gained, max_steiner.value) == (7, ["Dodge"], 120_000)
    assert Match.objects.get(pk=rolled.pk).status == Match.Status.FINISHED


def test_the_deadline_takes_a_random_normal_skill(rolled: Match) -> None:
    later = timezone.now() + timedelta(days=2)
    assert services.expire_sequence_deadlines(later) == 1
    adv = Advancement.objects.get(match=rolled)
    assert adv.choice and not adv.choice.startswith("+") and adv.chosen_by is None
    assert Sequence.objects.get(match=rolled).step == Sequence.Step.DONE
