import pytest
from django.db import IntegrityError, transaction

from teams.models import Player, Team

pytestmark = pytest.mark.django_db


def breaks(action: object) -> bool:
    try:
        with transaction.atomic():
            action()  # type: ignore[operator]
    except IntegrityError:
        return True
    return False


def test_the_database_keeps_numbers_unique_on_a_roster(team: Team) -> None:
    def duplicate() -> None:
        Player.objects.create(
            team=team, number=1, name="Twin", position="human.lineman", side="captain"
        )

    assert breaks(duplicate)
    Player.objects.filter(team=team, number=1).update(status="dead")
    assert not breaks(duplicate)


def test_the_database_refuses_a_negative_treasury(team: Team) -> None:
    assert breaks(lambda: Team.objects.filter(pk=team.pk).update(captain_treasury=-1))
    assert breaks(lambda: Team.objects.filter(pk=team.pk).update(rival_treasury=-10))


def test_the_database_refuses_more_than_eight_rerolls(team: Team) -> None:
    assert breaks(lambda: Team.objects.filter(pk=team.pk).update(rerolls=9))


def test_the_database_refuses_the_captain_as_rival(team: Team) -> None:
    assert breaks(lambda: Team.objects.filter(pk=team.pk).update(rival=team.captain))


def test_the_database_refuses_a_bad_side_or_number(team: Team) -> None:
    assert breaks(lambda: Player.objects.filter(team=team, number=1).update(side="referee"))
    assert breaks(lambda: Player.objects.filter(team=team, number=1).update(number=100))
    assert breaks(lambda: Player.objects.filter(team=team, number=1).update(status="zombie"))
