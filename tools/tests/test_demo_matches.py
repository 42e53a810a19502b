from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from matches.models import Fixture, Match
from matches.services import MatchError, chain_is_intact, fold, load_state, start_fixture
from matches.verification.exports import export_match, verify
from tools.demo_matches import concede, settle_post_match

pytestmark = pytest.mark.django_db


def test_load_demo_creates_a_match_in_play_and_a_finished_one_and_is_idempotent() -> None:
    call_command("load_demo", stdout=StringIO())
    call_command("load_demo", stdout=StringIO())
    in_play = Match.objects.get(status=Match.Status.IN_PLAY)
    finished = Match.objects.get(status=Match.Status.FINISHED)
    state = load_state(in_play)
    assert state.phase == "play"
    assert in_play.events.filter(type="declaration").count() > 5
    assert in_play.posts.filter(kind="ic").count() == 2
    assert finished.revealed_seed == finished.dice_seed
    assert load_state(finished).phase == "finished"
    for match in (in_play, finished):
        assert chain_is_intact(match)
        assert fold(match).to_json(compact=True) == match.state


def test_the_demo_s_finished_match_went_through_the_post_match_sequence_and_verifies() -> None:
    call_command("load_demo", stdout=StringIO())
    finished = Match.objects.get(status=Match.Status.FINISHED)
    assert finished.sequence.step == "done"
    assert finished.events.filter(type="sequence_winnings").exists()
    result = verify(export_match(finished))
    assert result.problems == []
    assert result.ok and result.rolls > 0


def test_the_demo_schedules_the_return_fixture_and_opens_it_only_once_the_match_in_play_ends() -> (
    None
):
    call_command("load_demo", stdout=StringIO())
    call_command("load_demo", stdout=StringIO())
    fixture = Fixture.objects.get()
    assert fixture.round == 1 and fixture.match is None
    assert (fixture.home.name, fixture.away.name) == ("Orcland Raiders", "Reikland Reavers")
    gm = User.objects.get(username="gm")
    with pytest.raises(MatchError) as refused:
        start_fixture(fixture.pk, gm)
    assert refused.value.code == "team_busy"
    assert "Orcland Raiders is already in a match that has not finished" in refused.value.message
    in_play = Match.objects.get(status=Match.Status.IN_PLAY)
    concede(in_play)
    settle_post_match(in_play)
    played = Match.objects.filter(status=Match.Status.FINISHED).order_by("-pk")
    assert played.count() == 2
    for match in played:  # the later match first: each record holds on its own
        result = verify(export_match(match))
        assert result.ok and result.problems == [], (match.pk, result.problems)
    waiting = start_fixture(fixture.pk, gm)
    assert waiting.status == Match.Status.PRE_MATCH
    assert waiting.sequence.step == "petty_cash_favourite"
    steps = [p.summary["step"] for p in waiting.posts.filter(kind="system") if "step" in p.summary]
    assert steps == ["weather", "team_values"]
    assert load_state(waiting).weather_rolled
