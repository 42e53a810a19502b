from io import StringIO

import pytest
from django.core.management import call_command

from matches.models import Match
from matches.services import chain_is_intact, fold, load_state
from matches.verification.exports import export_match, verify

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


def test_the_demo_leaves_a_fixture_waiting_in_its_pre_match_with_the_weather_rolled() -> None:
    call_command("load_demo", stdout=StringIO())
    call_command("load_demo", stdout=StringIO())
    waiting = Match.objects.get(status=Match.Status.PRE_MATCH)
    assert waiting.fixture.round == 1 and waiting.league == waiting.fixture.league
    assert (waiting.home_team.name, waiting.away_team.name) == (
        "Orcland Raiders",
        "Reikland Reavers",
    )
    assert waiting.sequence.step == "petty_cash_favourite"
    steps = [p.summary["step"] for p in waiting.posts.filter(kind="system") if "step" in p.summary]
    assert steps == ["weather", "team_values"]
    assert load_state(waiting).weather_rolled
