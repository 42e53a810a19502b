"""A live match through its write path (matches.live.services): challenges, their
consequences, rulings, the drives, idempotency, hidden phone throws and the standings."""

import pytest
from django.contrib.auth.models import User

from matches.live import game, services
from matches.live import standings as live_standings
from matches.live.game import LiveError
from matches.live.models import LiveMatch
from teams.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(teams: tuple[Team, Team], gm: User) -> LiveMatch:
    home, away = teams
    assert home.league is not None
    match = services.start_live_match(gm, home.league, home, away)
    return services.do_kick_off(match.pk, gm, "away")


def _cond(match: LiveMatch, pid: str) -> str:
    match.refresh_from_db()
    return game.condition(match.state, pid).state


def _phase(match: LiveMatch, gm: User, phase: str) -> None:
    match.refresh_from_db()
    while match.state["phase"] != phase:
        match = services.do_next_phase(match.pk, gm)


def test_only_the_leagues_gm_starts_a_live_match(
    teams: tuple[Team, Team], cast: dict[str, User]
) -> None:
    home, away = teams
    assert home.league is not None
    with pytest.raises(LiveError, match="game master"):
        services.start_live_match(cast["alice"], home.league, home, away)


def test_a_bash_between_different_levels_the_higher_wins_a_tie(live: LiveMatch, gm: User) -> None:
    # Grimgor (a3, Black Orc Blocker, ST 4: +1) bashes Anna (h4, Catcher, ST 2: -1).
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a3"], "h4")
    assert game.effective_levels(live.state["challenge"]) == {"a3": 1, "h4": -1}
    live = services.do_throw(live.pk, gm, {"a3": "rock", "h4": "rock"})
    assert live.state["last"]["result"] == {"a3": "a3"}
    assert live.state["challenge"]["purpose"] == "injury"
    assert _cond(live, "h4") == "stunned"


def test_the_lower_redo_rule_gives_a_tie_in_the_redo_to_the_first_winner(
    live: LiveMatch, gm: User
) -> None:
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a3"], "h4")
    live = services.do_throw(live.pk, gm, {"a3": "rock", "h4": "paper"})
    assert live.state["challenge"]["purpose"] == "bash"  # the redo
    live = services.do_throw(live.pk, gm, {"a3": "paper", "h4": "paper"})
    # Anna won the bash: she bashed back, Grimgor is down and she tries to injure him.
    assert live.state["last"]["result"] == {"a3": "h4"}
    assert _cond(live, "a3") == "stunned"
    assert live.state["challenge"]["victim"] == "a3"


def test_three_against_one_each_attacker_gets_plus_two(live: LiveMatch, gm: User) -> None:
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a5", "a6", "a10"], "h5")
    assert game.effective_levels(live.state["challenge"]) == {"a5": 2, "a6": 2, "a10": 2, "h5": 0}
    live = services.do_throw(
        live.pk, gm, {"a5": "rock", "a6": "scissors", "a10": "scissors", "h5": "rock"}
    )
    # a5 won on a tie; a6 and a10 lost and redo, one pair at a time.
    assert game.expected(live.state["challenge"]) == ["a6", "h5"]
    live = services.do_throw(live.pk, gm, {"a6": "rock", "h5": "rock"})
    live = services.do_throw(live.pk, gm, {"a10": "paper", "h5": "rock"})
    assert live.state["last"]["result"] == {"a5": "a5", "a6": "h5", "a10": "a10"}
    assert _cond(live, "h5") == "stunned"
    assert _cond(live, "a6") == "stunned"  # the defender won his pair and knocked him down


def test_a_dodging_defender_harms_nobody_when_he_wins(live: LiveMatch, gm: User) -> None:
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a1"], "h4", dodging=True)
    assert game.effective_levels(live.state["challenge"]) == {"a1": 1, "h4": 1}
    live = services.do_throw(live.pk, gm, {"a1": "rock", "h4": "paper"})
    assert live.state["challenge"] is None
    assert (_cond(live, "a1"), _cond(live, "h4")) == ("standing", "standing")


def test_the_injury_test_repeats_while_the_attacker_wins_up_to_seriously_injured(
    live: LiveMatch, gm: User
) -> None:
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a1"], "h5")
    live = services.do_throw(live.pk, gm, {"a1": "paper", "h5": "rock"})
    live = services.do_throw(live.pk, gm, {"a1": "paper", "h5": "rock"})  # injury 1
    live = services.do_throw(live.pk, gm, {"a1": "paper", "h5": "rock"})  # injury 2
    assert live.state["challenge"]["damage"] == 2
    live = services.do_throw(live.pk, gm, {"a1": "rock", "h5": "rock"})  # a tie stops it
    assert live.state["challenge"] is None
    assert _cond(live, "h5") == "seriously_injured"


def test_a_carrier_knocked_down_challenges_the_referee_to_hold_the_ball(
    live: LiveMatch, gm: User
) -> None:
    services.do_ruling(live.pk, gm, "give_ball", "h3")
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a1"], "h3")
    live = services.do_throw(live.pk, gm, {"a1": "paper", "h3": "rock"})
    live = services.do_throw(live.pk, gm, {"a1": "paper", "h3": "rock"})  # injured
    live = services.do_throw(live.pk, gm, {"a1": "rock", "h3": "paper"})
    ch = live.state["challenge"]
    assert ch["purpose"] == "hold_ball"
    assert game.effective_levels(ch) == {"ref": 0, "h3": 1}  # Sure Hands +2, injured -1
    live = services.do_throw(live.pk, gm, {"ref": "rock", "h3": "rock"})
    assert live.state["ball"]["carrier"] == "h3"


def test_a_yellow_card_lasts_until_the_touchdown(live: LiveMatch, gm: User) -> None:
    services.do_ruling(live.pk, gm, "yellow", "a2")
    assert game.condition(LiveMatch.objects.get(pk=live.pk).state, "a2").out == "yellow"
    services.do_ruling(live.pk, gm, "give_ball", "h1")
    live = services.do_touchdown(live.pk, gm, "h1")
    assert live.state["score"] == {"home": 1, "away": 0}
    assert live.state["phase"] == "kickoff"
    assert game.condition(live.state, "a2").out == ""


def test_a_retried_post_is_applied_once(live: LiveMatch, gm: User) -> None:
    services.do_next_phase(live.pk, gm, key="k1")
    services.do_next_phase(live.pk, gm, key="k1")
    live.refresh_from_db()
    assert live.state["phase"] == "stride"
    assert live.events.filter(type="phase").count() == 1


def test_phone_throws_stay_hidden_until_both_are_in(live: LiveMatch, gm: User) -> None:
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a1"], "h1", phones=True)
    tokens = {pid: p["token"] for pid, p in live.state["players"].items()}
    live = services.do_commit_throw(live.pk, tokens["a1"], "paper", key="t1")
    assert live.state["challenge"]["throws"] == []
    assert live.state["challenge"]["hidden"] == {"a1": "paper"}
    assert "paper" not in str([e.data for e in live.events.all()])
    with pytest.raises(LiveError):
        services.do_commit_throw(live.pk, tokens["a1"], "rock")
    live = services.do_commit_throw(live.pk, tokens["h1"], "rock")
    assert live.state["last"]["throws"] == [["paper", "rock"]]


def test_a_finished_live_match_counts_in_the_standings_when_the_league_says_so(
    live: LiveMatch, gm: User, teams: tuple[Team, Team]
) -> None:
    services.do_ruling(live.pk, gm, "give_ball", "a4")
    services.do_touchdown(live.pk, gm, "a4")
    services.do_finish(live.pk, gm)
    league = teams[0].league
    assert league is not None
    assert [row.played for row in live_standings.league_season(league).table] == [0, 0]
    services.set_live_matches_count(league.pk, gm, True)
    league.refresh_from_db()
    table = live_standings.league_season(league).table
    top = table[0]
    assert (top.team, top.points, top.td_for, top.played) == (teams[1], 3, 1, 1)


def test_a_tackler_who_wins_fells_the_strider_who_must_hold_the_ball(
    live: LiveMatch, gm: User
) -> None:
    services.do_ruling(live.pk, gm, "give_ball", "h4")
    _phase(live, gm, "stride")
    live = services.do_start_challenge(live.pk, gm, "stride", ["a1", "a2"], "h4")
    # Two tacklers: +1 each for the other; Anna strides with Dodge (+1).
    assert game.effective_levels(live.state["challenge"]) == {"a1": 1, "a2": 1, "h4": 1}
    live = services.do_throw(live.pk, gm, {"a1": "rock", "a2": "scissors", "h4": "scissors"})
    live = services.do_throw(live.pk, gm, {"a2": "rock", "h4": "rock"})
    live = services.do_throw(live.pk, gm, {"a2": "rock", "h4": "paper"})
    assert live.state["last"]["result"] == {"a1": "a1", "a2": "h4"}
    assert _cond(live, "h4") == "down"  # fell, not stunned: no injury test for a tackle
    assert live.state["challenge"]["purpose"] == "hold_ball"
    live = services.do_throw(live.pk, gm, {"ref": "paper", "h4": "rock"})
    assert live.state["ball"]["carrier"] is None


def test_a_kick_goes_straight_to_the_injury_test_and_three_levels_kill(
    live: LiveMatch, gm: User
) -> None:
    services.do_ruling(live.pk, gm, "fall", "h6")
    with pytest.raises(LiveError, match="ground"):
        services.do_start_challenge(live.pk, gm, "kick", ["a1"], "h7")
    live = services.do_start_challenge(live.pk, gm, "kick", ["a1"], "h6")
    assert live.state["challenge"]["purpose"] == "injury"
    for _ in range(3):
        live = services.do_throw(live.pk, gm, {"a1": "scissors", "h6": "paper"})
    assert live.state["challenge"] is None
    assert _cond(live, "h6") == "dead"


def test_the_referee_must_win_the_red_card_challenge(live: LiveMatch, gm: User) -> None:
    live = services.do_start_challenge(live.pk, gm, "red_card", [], "a1")
    live = services.do_throw(live.pk, gm, {"ref": "rock", "a1": "rock"})  # a tie: no card
    assert game.condition(live.state, "a1").out == ""
    live = services.do_start_challenge(live.pk, gm, "red_card", [], "a1")
    live = services.do_throw(live.pk, gm, {"ref": "rock", "a1": "scissors"})
    assert game.condition(live.state, "a1").out == "red"


def test_the_crowd_hurts_while_the_referee_wins_and_sends_off_for_the_drive(
    live: LiveMatch, gm: User
) -> None:
    live = services.do_start_challenge(live.pk, gm, "crowd", [], "h2")
    live = services.do_throw(live.pk, gm, {"ref": "rock", "h2": "scissors"})
    live = services.do_throw(live.pk, gm, {"ref": "rock", "h2": "paper"})
    assert live.state["challenge"] is None
    c = game.condition(live.state, "h2")
    assert (c.state, c.out) == ("injured", "crowd")


def test_a_stun_lasts_the_round_it_happens_in_and_the_next(live: LiveMatch, gm: User) -> None:
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a1"], "h6")
    live = services.do_throw(live.pk, gm, {"a1": "paper", "h6": "rock"})
    live = services.do_throw(live.pk, gm, {"a1": "rock", "h6": "paper"})  # no injury
    _phase(live, gm, "move")  # round 2
    assert _cond(live, "h6") == "stunned"
    _phase(live, gm, "throw")
    _phase(live, gm, "move")  # round 3
    assert _cond(live, "h6") == "down"


def test_a_tie_at_full_time_goes_to_overtime(live: LiveMatch, gm: User) -> None:
    live = services.do_end_half(live.pk, gm)
    live = services.do_end_half(live.pk, gm)
    assert (live.state["half"], live.state["result"]) == (3, None)
    live = services.do_end_half(live.pk, gm)
    assert live.state["result"]["winner"] is None
    assert live.status == LiveMatch.Status.FINISHED


def test_the_poisoned_dagger_wins_the_first_injury_test_on_a_tie(live: LiveMatch, gm: User) -> None:
    services.do_ruling(live.pk, gm, "dagger", "a1")
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a1"], "h6")
    live = services.do_throw(live.pk, gm, {"a1": "paper", "h6": "rock"})
    assert live.state["challenge"]["tie_to"] == "a1"
    live = services.do_throw(live.pk, gm, {"a1": "rock", "h6": "rock"})  # the dagger's tie
    assert live.state["challenge"]["tie_to"] is None  # only the first test
    live = services.do_throw(live.pk, gm, {"a1": "rock", "h6": "rock"})
    assert _cond(live, "h6") == "injured"


def test_an_injured_player_keeps_his_weapon_only_by_beating_the_referee(
    live: LiveMatch, gm: User
) -> None:
    services.do_ruling(live.pk, gm, "dagger", "h6")
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a1"], "h6")
    live = services.do_throw(live.pk, gm, {"a1": "paper", "h6": "rock"})
    live = services.do_throw(live.pk, gm, {"a1": "paper", "h6": "rock"})  # injured
    live = services.do_throw(live.pk, gm, {"a1": "rock", "h6": "paper"})
    ch = live.state["challenge"]
    assert ch["purpose"] == "hold_weapon"
    assert game.effective_levels(ch) == {"ref": 0, "h6": 0}  # +1 for the weapon, -1 injured
    live = services.do_throw(live.pk, gm, {"ref": "rock", "h6": "scissors"})
    assert live.state["players"]["h6"]["weapon"] == ""


def test_a_thrown_small_player_who_loses_the_landing_falls_and_is_tested_for_injury(
    live: LiveMatch, gm: User
) -> None:
    live = services.do_start_challenge(live.pk, gm, "land", [], "h4")
    assert game.effective_levels(live.state["challenge"]) == {"ref": 0, "h4": 0}
    live = services.do_throw(live.pk, gm, {"ref": "paper", "h4": "rock"})
    assert _cond(live, "h4") == "stunned"
    assert live.state["challenge"]["purpose"] == "injury"
    live = services.do_throw(live.pk, gm, {"ref": "paper", "h4": "scissors"})
    assert _cond(live, "h4") == "stunned"


def test_with_phones_the_referee_throws_his_own_hidden_throw_against_the_carrier(
    live: LiveMatch, gm: User
) -> None:
    services.do_ruling(live.pk, gm, "give_ball", "h3")
    _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a1"], "h3", phones=True)
    tokens = {pid: p["token"] for pid, p in live.state["players"].items()}
    services.do_commit_throw(live.pk, tokens["a1"], "paper")
    services.do_commit_throw(live.pk, tokens["h3"], "rock")  # knocked down
    services.do_commit_throw(live.pk, tokens["a1"], "rock")
    live = services.do_commit_throw(live.pk, tokens["h3"], "paper")  # no injury
    assert live.state["challenge"]["purpose"] == "hold_ball"
    with pytest.raises(LiveError):
        services.do_throw(live.pk, gm, {"ref": "rock", "h3": "rock"})
    live = services.do_throw(live.pk, gm, {"ref": "scissors"})
    assert live.state["challenge"]["hidden"] == {"ref": "scissors"}
    live = services.do_commit_throw(live.pk, tokens["h3"], "paper")
    assert live.state["ball"]["carrier"] == "h3"  # Sure Hands +2: he redoes the lost throw
    services.do_throw(live.pk, gm, {"ref": "rock"})
    live = services.do_commit_throw(live.pk, tokens["h3"], "scissors")
    assert live.state["ball"]["carrier"] is None
