"""The bomb, throwing a small player and the attackers' choice of who injures (seed 002;
rules/live/README.md's choices), through the live match's write path."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from matches.live import game, quick, services
from matches.live.game import LiveError
from matches.live.models import LiveMatch
from teams.models import Team

pytestmark = pytest.mark.django_db

GOBLINS = """1 Grukk, ST 5, AG 2, Throw Team-Mate, No Hands
2 Snik, ST 2, AG 3, Right Stuff, Dodge, Stunty
3 Gobbo, ST 2, AG 3
4 Bommi, ST 2, AG 3, Sure Hands
"""


@pytest.fixture
def live(teams: tuple[Team, Team], gm: User) -> LiveMatch:
    """The home side is a quick goblin roster (a big thrower, a small one, a bomber); the away
    side the demo's orcs."""
    _, away = teams
    assert away.league is not None
    home = quick.parse("Goblins", GOBLINS)
    match = services.start_live_match(gm, away.league, home, away)
    return services.do_kick_off(match.pk, gm, "away")


def _cond(match: LiveMatch, pid: str) -> str:
    match.refresh_from_db()
    return game.condition(match.state, pid).state


def _phase(match: LiveMatch, gm: User, phase: str) -> LiveMatch:
    match.refresh_from_db()
    while match.state["phase"] != phase:
        match = services.do_next_phase(match.pk, gm)
    return match


# -- the bomb ---------------------------------------------------------------------------------


def _lit(live: LiveMatch, gm: User) -> LiveMatch:
    services.do_ruling(live.pk, gm, "bomb", "h4")
    return services.do_light_bomb(live.pk, gm, "h4")


def test_a_thrown_bomb_explodes_at_the_end_of_the_bash_phase(live: LiveMatch, gm: User) -> None:
    live = _lit(live, gm)
    assert live.state["bomb"] == {"bomber": "h4", "thrown": False}
    live = services.do_throw_bomb(live.pk, gm)
    assert live.state["players"]["h4"]["weapon"] == ""
    live = _phase(live, gm, "bash")
    with pytest.raises(LiveError, match="end of the bash phase"):
        services.do_next_phase(live.pk, gm)
    # Grimgor (a3, ST 4: +1) standing, Snik (h2) knocked over beforehand.
    services.do_ruling(live.pk, gm, "fall", "h2")
    live = services.do_blast(live.pk, gm, ["a3", "h2"])
    ch = live.state["challenge"]
    assert ch["purpose"] == "blast"
    # The bomb +1 against Grimgor's strength only (his Block does not count).
    assert game.effective_levels(ch) == {"ref": 1, "a3": 1}
    live = services.do_throw(live.pk, gm, {"ref": "paper", "a3": "rock"})
    assert _cond(live, "a3") == "stunned"
    ch = live.state["challenge"]
    # Blown over: the injury tests at +2 (a tie goes to the bomb).
    assert (ch["purpose"], game.effective_levels(ch)) == ("injury", {"ref": 2, "a3": 0})
    live = services.do_throw(live.pk, gm, {"ref": "rock", "a3": "rock"})  # injured
    live = services.do_throw(live.pk, gm, {"ref": "rock", "a3": "paper"})  # the redo
    live = services.do_throw(live.pk, gm, {"ref": "rock", "a3": "paper"})  # the bomb lost
    assert _cond(live, "a3") == "injured"
    # Snik on the ground: the injury test straight away at +1.
    ch = live.state["challenge"]
    assert (ch["purpose"], game.effective_levels(ch)) == ("injury", {"ref": 1, "h2": 0})
    live = services.do_throw(live.pk, gm, {"ref": "scissors", "h2": "rock"})
    assert live.state["challenge"] is None
    assert _cond(live, "h2") == "stunned"
    assert live.state["bomb"] is None
    services.do_next_phase(live.pk, gm)  # the throw phase now


def test_an_unthrown_bomb_explodes_in_the_bombers_hands(live: LiveMatch, gm: User) -> None:
    live = _lit(live, gm)
    with pytest.raises(LiveError, match="hands"):
        services.do_next_phase(live.pk, gm)
    live = services.do_blast(live.pk, gm, [])
    assert live.state["challenge"]["defender"] == "h4"
    assert live.state["players"]["h4"]["weapon"] == ""


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda live, gm: services.do_ruling(live.pk, gm, "give_ball", "h4"), "ball carrier"),
        (lambda live, gm: services.do_ruling(live.pk, gm, "fall", "h4"), "cannot light"),
        (lambda live, gm: services.do_next_phase(live.pk, gm), "move phase"),
    ],
)
def test_the_bomb_is_lit_standing_without_the_ball_in_the_move_phase(
    live: LiveMatch, gm: User, setup: object, message: str
) -> None:
    services.do_ruling(live.pk, gm, "bomb", "h4")
    setup(live, gm)  # type: ignore[operator]
    with pytest.raises(LiveError, match=message):
        services.do_light_bomb(live.pk, gm, "h4")


def test_only_a_bomber_lights_a_bomb(live: LiveMatch, gm: User) -> None:
    with pytest.raises(LiveError, match="no bomb"):
        services.do_light_bomb(live.pk, gm, "h3")


def test_the_bomber_takes_a_new_bomb_at_the_next_drive(live: LiveMatch, gm: User) -> None:
    live = _lit(live, gm)
    services.do_throw_bomb(live.pk, gm)
    live = _phase(live, gm, "bash")
    live = services.do_blast(live.pk, gm, [])
    services.do_ruling(live.pk, gm, "give_ball", "a3")
    live = services.do_touchdown(live.pk, gm, "a3")
    assert live.state["players"]["h4"]["weapon"] == "bomb"
    services.do_ruling(live.pk, gm, "bomb", "h4")  # taken away: no more bombs
    live = services.do_kick_off(live.pk, gm, "away")
    services.do_ruling(live.pk, gm, "give_ball", "a3")
    live = services.do_touchdown(live.pk, gm, "a3")
    assert live.state["players"]["h4"]["weapon"] == ""


# -- throwing a small player --------------------------------------------------------------------


def test_a_willing_small_player_is_thrown_and_lands_on_his_feet(live: LiveMatch, gm: User) -> None:
    live = _phase(live, gm, "bash")
    live = services.do_throw_player(live.pk, gm, "h1", "h2", willing=True)
    assert live.state["flight"] == {"thrower": "h1", "small": "h2"}
    with pytest.raises(LiveError, match="landed"):
        services.do_next_phase(live.pk, gm)
    live = services.do_land(live.pk, gm, "field")
    ch = live.state["challenge"]
    assert (ch["purpose"], game.effective_levels(ch)) == ("land", {"ref": 0, "h2": 1})
    live = services.do_throw(live.pk, gm, {"ref": "rock", "h2": "rock"})
    assert live.state["challenge"] is None
    assert _cond(live, "h2") == "standing"


def test_a_small_player_landing_on_another_both_fall_and_are_tested(
    live: LiveMatch, gm: User
) -> None:
    services.do_ruling(live.pk, gm, "give_ball", "a3")
    live = _phase(live, gm, "bash")
    services.do_throw_player(live.pk, gm, "h1", "h2", willing=True)
    live = services.do_land(live.pk, gm, "player", "a3")
    assert (_cond(live, "h2"), _cond(live, "a3")) == ("stunned", "stunned")
    ch = live.state["challenge"]
    assert (ch["purpose"], ch["victim"], ch["kind"]) == ("injury", "h2", "levelless")
    live = services.do_throw(live.pk, gm, {"ref": "rock", "h2": "paper"})
    ch = live.state["challenge"]
    assert (ch["purpose"], ch["victim"], ch["kind"]) == ("injury", "a3", "levelless")
    live = services.do_throw(live.pk, gm, {"ref": "rock", "a3": "paper"})
    assert live.state["challenge"]["purpose"] == "hold_ball"  # Grimgor had the ball


def test_a_small_player_thrown_out_of_the_field_meets_the_crowd(live: LiveMatch, gm: User) -> None:
    live = _phase(live, gm, "bash")
    services.do_throw_player(live.pk, gm, "h1", "h2", willing=True)
    live = services.do_land(live.pk, gm, "out")
    assert live.state["challenge"]["purpose"] == "crowd"
    live = services.do_throw(live.pk, gm, {"ref": "rock", "h2": "paper"})
    assert game.condition(live.state, "h2").out == "crowd"


def test_an_unwilling_small_player_on_his_feet_is_not_thrown(live: LiveMatch, gm: User) -> None:
    live = _phase(live, gm, "bash")
    with pytest.raises(LiveError, match="does not want"):
        services.do_throw_player(live.pk, gm, "h1", "h2", willing=False)


def test_an_unwilling_fallen_small_player_is_thrown_if_the_big_one_wins(
    live: LiveMatch, gm: User
) -> None:
    services.do_ruling(live.pk, gm, "fall", "h2")
    live = _phase(live, gm, "bash")
    live = services.do_throw_player(live.pk, gm, "h1", "h2", willing=False)
    ch = live.state["challenge"]
    # The ogre's strength +2 against the goblin's dodge +2 (AG 3, Dodge, Stunty).
    assert (ch["purpose"], game.effective_levels(ch)) == ("throw_player", {"h1": 2, "h2": 2})
    live = services.do_throw(live.pk, gm, {"h1": "rock", "h2": "paper"})
    assert live.state["flight"] is None  # he wriggled free
    services.do_throw_player(live.pk, gm, "h1", "h2", willing=False)
    live = services.do_throw(live.pk, gm, {"h1": "paper", "h2": "rock"})
    assert live.state["flight"] == {"thrower": "h1", "small": "h2"}


@pytest.mark.parametrize(
    ("thrower", "small", "message"),
    [("h3", "h2", "big player"), ("h1", "h3", "small player"), ("h1", "a3", "team-mate")],
)
def test_only_a_big_player_throws_a_small_team_mate(
    live: LiveMatch, gm: User, thrower: str, small: str, message: str
) -> None:
    live = _phase(live, gm, "bash")
    with pytest.raises(LiveError, match=message):
        services.do_throw_player(live.pk, gm, thrower, small, willing=True)


def test_a_small_player_is_thrown_in_the_bash_phase_only(live: LiveMatch, gm: User) -> None:
    with pytest.raises(LiveError, match="instead of a bash"):
        services.do_throw_player(live.pk, gm, "h1", "h2", willing=True)


# -- several winners choose who injures ----------------------------------------------------------


def test_the_referee_picks_which_winning_attacker_makes_the_injury_tests(
    live: LiveMatch, gm: User
) -> None:
    live = _phase(live, gm, "bash")
    live = services.do_start_challenge(live.pk, gm, "bash", ["a5", "a6"], "h3")
    live = services.do_throw(live.pk, gm, {"a5": "rock", "a6": "rock", "h3": "scissors"})
    assert live.state["challenge"] is None
    assert live.state["choose"]["winners"] == ["a5", "a6"]
    assert _cond(live, "h3") == "stunned"
    with pytest.raises(LiveError, match="Pick the attacker"):
        services.do_next_phase(live.pk, gm)
    with pytest.raises(LiveError, match="attackers who won"):
        services.do_choose_injurer(live.pk, gm, "a3")
    live = services.do_choose_injurer(live.pk, gm, "a6")
    ch = live.state["challenge"]
    assert (ch["purpose"], ch["injurer"], ch["victim"]) == ("injury", "a6", "h3")


# -- the referee's buttons ------------------------------------------------------------------------


def test_the_referee_runs_a_bomb_a_throw_and_the_choice_from_the_page(
    live: LiveMatch, gm: User
) -> None:
    client = Client()
    client.force_login(gm)
    url = f"/live/{live.pk}/"
    htmx = {"HX-Request": "true"}

    def act(action: str, data: dict[str, object]) -> str:
        return client.post(f"{url}act/{action}/", data, headers=htmx).content.decode()

    page = act("ruling", {"player": "h4", "ruling": "bomb"})
    assert 'data-testid="bomb-h4"' in page and 'data-testid="light-bomb-h4"' in page
    page = act("light_bomb", {"player": "h4"})
    assert 'data-testid="throw-bomb"' in page and 'data-testid="blast-form"' in page
    page = act("throw_bomb", {})
    assert 'data-testid="throw-bomb"' not in page
    live = _phase(live, gm, "bash")
    page = client.get(url).content.decode()
    assert 'data-testid="throw-player"' in page
    page = act("blast", {"hit": ["a3"]})
    assert "+1 against strength only" in page
    act("throw", {"throw-ref": "rock", "throw-a3": "paper"})  # Grimgor stands
    page = act("throw_player", {"thrower": "h1", "small": "h2"})
    assert 'data-testid="flight"' in page
    page = act("land", {"where": "field"})
    assert 'data-testid="challenge"' in page
    act("throw", {"throw-ref": "rock", "throw-h2": "rock"})
    act("challenge", {"purpose": "bash", "attackers": ["a5", "a6"], "defender": "h3"})
    page = act("throw", {"throw-a5": "rock", "throw-a6": "rock", "throw-h3": "scissors"})
    assert 'data-testid="injurer-a6"' in page
    page = act("injurer", {"player": "a6"})
    live.refresh_from_db()
    assert live.state["challenge"]["injurer"] == "a6"
    assert "makes the injury tests" in page
