"""Seed 002's limits on the referee (docs/house-rules.md): refused by default with a clear
message, accepted when the referee overrules them, and every overrule in the match's log."""

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from matches.live import game, labels, limits, services
from matches.live.game import LiveError
from matches.live.models import LiveMatch
from teams.models import Team

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "es", "fr", "ja", "fi")


@pytest.fixture
def live(teams: tuple[Team, Team], gm: User) -> LiveMatch:
    home, away = teams
    assert home.league is not None
    match = services.start_live_match(gm, home.league, home, away)
    return services.do_kick_off(match.pk, gm, "away")


def _phase(match: LiveMatch, gm: User, phase: str) -> LiveMatch:
    match.refresh_from_db()
    while match.state["phase"] != phase:
        match = services.do_next_phase(match.pk, gm)
    return match


def _overrules(match: LiveMatch) -> list[str]:
    return [e.data["limit"] for e in match.events.filter(type="overrule").order_by("number")]


def _log(match: LiveMatch) -> list[str]:
    return [labels.describe(e.type, e.data, match.state) for e in match.events.order_by("number")]


def _tackle_h4(live: LiveMatch, gm: User) -> LiveMatch:
    live = _phase(live, gm, "stride")
    live = services.do_start_challenge(live.pk, gm, "stride", ["a1", "a2"], "h4")
    live = services.do_throw(live.pk, gm, {"a1": "rock", "a2": "scissors", "h4": "scissors"})
    live = services.do_throw(live.pk, gm, {"a2": "rock", "h4": "rock"})
    live = services.do_throw(live.pk, gm, {"a2": "rock", "h4": "paper"})
    assert game.condition(live.state, "h4").state == "down"
    assert live.state["challenge"] is None
    return live


@pytest.mark.parametrize("phase", ["move", "stride", "throw"])
def test_a_bash_outside_the_bash_phase_is_refused(live: LiveMatch, gm: User, phase: str) -> None:
    live = _phase(live, gm, phase)
    with pytest.raises(LiveError, match="bash phase only") as refused:
        services.do_start_challenge(live.pk, gm, "bash", ["a3"], "h4")
    assert refused.value.code == limits.BASH_PHASE
    live.refresh_from_db()
    assert live.state["challenge"] is None


def test_a_bash_outside_its_phase_overruled_is_logged(live: LiveMatch, gm: User) -> None:
    live = services.do_start_challenge(live.pk, gm, "bash", ["a3"], "h4", overrule=True)
    assert live.state["phase"] == "move"
    assert live.state["challenge"]["purpose"] == "bash"
    assert _overrules(live) == [limits.BASH_PHASE]
    assert any("Seed 002 overruled" in line and "bash phase" in line for line in _log(live))


def test_a_bash_in_its_phase_needs_no_overrule(live: LiveMatch, gm: User) -> None:
    live = _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a3"], "h4")
    assert live.state["challenge"]["purpose"] == "bash"
    assert _overrules(live) == []


def test_a_tackled_strider_stays_down_until_the_next_round(live: LiveMatch, gm: User) -> None:
    live = _tackle_h4(live, gm)
    with pytest.raises(LiveError, match="until the next round") as refused:
        services.do_ruling(live.pk, gm, "stand_up", "h4")
    assert refused.value.code == limits.TACKLED_DOWN
    live = _phase(live, gm, "bash")
    with pytest.raises(LiveError):
        services.do_ruling(live.pk, gm, "stand_up", "h4")
    live = _phase(live, gm, "move")  # the next round
    live = services.do_ruling(live.pk, gm, "stand_up", "h4")
    assert game.condition(live.state, "h4").state == "standing"
    assert _overrules(live) == []


def test_a_tackled_strider_stood_up_in_the_same_round_by_overrule_is_logged(
    live: LiveMatch, gm: User
) -> None:
    live = _tackle_h4(live, gm)
    live = services.do_ruling(live.pk, gm, "stand_up", "h4", overrule=True)
    assert game.condition(live.state, "h4").state == "standing"
    assert _overrules(live) == [limits.TACKLED_DOWN]
    assert any("Seed 002 overruled" in line and "strider" in line for line in _log(live))


def test_a_bribe_does_not_lift_a_yellow_card(live: LiveMatch, gm: User) -> None:
    live = services.do_ruling(live.pk, gm, "yellow", "h1")
    with pytest.raises(LiveError, match="red card only") as refused:
        services.do_ruling(live.pk, gm, "bribe", "h1")
    assert refused.value.code == limits.BRIBE_RED
    live.refresh_from_db()
    assert game.condition(live.state, "h1").card == "yellow"


def test_a_bribe_lifts_a_red_card(live: LiveMatch, gm: User) -> None:
    live = services.do_ruling(live.pk, gm, "red", "h2")
    live = services.do_ruling(live.pk, gm, "bribe", "h2")
    assert game.condition(live.state, "h2").card == ""
    assert _overrules(live) == []


def test_a_bribe_on_a_yellow_card_overruled_is_logged(live: LiveMatch, gm: User) -> None:
    live = services.do_ruling(live.pk, gm, "yellow", "h1")
    live = services.do_ruling(live.pk, gm, "bribe", "h1", overrule=True)
    assert game.condition(live.state, "h1").card == ""
    assert _overrules(live) == [limits.BRIBE_RED]
    assert any("Seed 002 overruled" in line and "red cards only" in line for line in _log(live))


@pytest.mark.parametrize("limit", [limits.BASH_PHASE, limits.TACKLED_DOWN, limits.BRIBE_RED])
def test_each_refusal_and_its_log_line_read_in_five_languages(limit: str) -> None:
    english = {}
    with translation.override("en"):
        english = {"refusal": limits.refusal(limit), "name": str(limits.NAMES[limit])}
    for language in LANGUAGES[1:]:
        with translation.override(language):
            assert limits.refusal(limit) != english["refusal"], language
            assert "002" in limits.refusal(limit)
            assert str(limits.NAMES[limit]) != english["name"], language
