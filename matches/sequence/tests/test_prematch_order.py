"""Seed 003's order, step by step: the weather first, then the petty cash (the higher-value
team first), the handicap money, the inducements, and at the kick-off the fans and FAME; and
each half of the sequence on its own page."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import services
from matches.models import Match
from matches.sequence.tests.driving import finish_now

pytestmark = pytest.mark.django_db


def _steps(match: Match) -> list[str]:
    posts = match.posts.filter(kind="system").order_by("number")
    return [p.summary["step"] for p in posts if "step" in p.summary]


def _through_the_pre_match(match: Match, cast: dict[str, User]) -> Match:
    for user, side in (("alice", "captain"), ("bob", "rival"), ("carol", "captain")):
        services.transfer_petty_cash(match.pk, cast[user], side=side, amount=0)
    services.transfer_petty_cash(match.pk, cast["dave"], side="rival", amount=0)
    services.buy_inducements(match.pk, cast["alice"], {})
    services.buy_inducements(match.pk, cast["carol"], {})
    return Match.objects.get(pk=match.pk)


def test_the_weather_comes_before_the_petty_cash_and_the_inducements(
    prematch: Match, cast: dict[str, User]
) -> None:
    assert _steps(prematch) == ["weather", "team_values"]
    weather = prematch.posts.get(summary__step="weather").summary
    assert (
        weather["dice_at"] == [0, 1] and weather["result"] == services.load_state(prematch).weather
    )
    match = _through_the_pre_match(prematch, cast)
    assert _steps(match) == [
        "weather",
        "team_values",
        *["petty_cash"] * 4,
        "handicap",
        "inducements",
        "inducements",
        "kick_off",
        "fans",
    ]
    # The match plays the weather the sequence rolled: its start rolled no weather again.
    state = services.load_state(match)
    assert state.weather == weather["result"] and state.weather_rolled
    assert not match.events.filter(type="weather").exists()
    created = match.events.get(type="match_created").data["state"]
    assert created["weather"] == weather["result"] and created["dice_used"] == 0


def test_before_the_match_of_a_finished_match_shows_its_pre_match_only(
    prematch: Match, cast: dict[str, User], sequence_faces: list[int]
) -> None:
    match = _through_the_pre_match(prematch, cast)
    sequence_faces.extend([0, 0, 3, 1, 1, 2, 6, 6, 6, 6, 1, 1])
    finish_now(match, winner="home")
    services.reroll_winnings(match.pk, cast["alice"], reroll=False)
    services.choose_mvp(match.pk, cast["carol"], team="home", mje="h2", pje="h3")
    services.choose_mvp(match.pk, cast["alice"], team="away", mje="a1", pje="a2")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    client = Client()
    client.force_login(cast["alice"])
    detail = client.get(reverse("matches:detail", args=[match.pk])).content.decode()
    assert reverse("sequence:prematch", args=[match.pk]) in detail
    assert reverse("sequence:postmatch", args=[match.pk]) in detail
    before = client.get(reverse("sequence:prematch", args=[match.pk])).content.decode()
    after = client.get(reverse("sequence:postmatch", args=[match.pk])).content.decode()
    for step in ("weather", "petty_cash", "handicap", "inducements", "fans"):
        assert f'data-step="{step}"' in before and f'data-step="{step}"' not in after
    for step in ("result", "winnings", "mvp", "spp", "team_values_after"):
        assert f'data-step="{step}"' in after and f'data-step="{step}"' not in before
