"""Where a person reads, players are named, not given by the engine's ids: the rules' errors,
the armour against its value, the block's chance and the foul's risk."""

from django.test import Client

from matches.models import Match
from matches.play import page
from matches.tests.positions import mid_turn
from matches.thread.page import against
from matches.thread.sentences import Names, named


def test_an_engine_message_names_the_players_it_mentions(match: Match) -> None:
    names = Names(match)
    h7, a3 = names.player("h7"), names.player("a3")
    assert h7.startswith("#") and a3.startswith("#")
    assert named(names, "M5 is occupied by h7.") == f"M5 is occupied by {h7}."
    assert named(names, "a3 has already acted this turn.") == f"{a3} has already acted this turn."
    assert named(names, "h99 is not in the match.") == "h99 is not in the match."


def test_armour_reads_against_the_armour_value_and_injury_shows_its_total() -> None:
    armour = {"purpose": "armour", "target": 9, "total": 9, "faces": [4, 5]}
    assert against("armour", armour) == "9 vs AV 8"
    assert against("injury", {"total": 9, "faces": [4, 5]}) == "= 9"
    assert against("dodge", {"target": 4}) == "4+"
    contest = {"rival": [3, 4, 5], "captain": [1, 2, 3], "rival_total": 12, "captain_total": 8}
    assert against("blitz_contest", contest) == "rival 3+4+5 = 12 vs captain 1+2+3 + 2 = 8"


def test_a_plan_names_its_player_and_target_and_says_what_a_block_chance_means(
    match: Match,
) -> None:
    state = mid_turn(match)
    names = Names(match)
    plan = page.Plan(player="h1", action="block", target="a5")
    view = page.plan_view(state, "play", ["home:captain"], plan, names)
    assert view["selected_name"] == names.player("h1")
    assert view["target_name"] == names.player("a5")
    block = next(r for r in view["rolls"] if r["meaning"])
    assert str(block["meaning"]) == "no turnover"


def test_a_refused_declaration_names_the_player_in_the_way(
    match: Match, clients: dict[str, Client]
) -> None:
    mid_turn(match)  # h1 on F5, h2 on G4
    data = {"player": "h1", "action": "move", "path": "G4"}
    response = clients["alice"].post(
        f"/matches/{match.pk}/declare/", data, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert f"G4 is occupied by {Names(match).player('h2')}" in html
    assert "occupied by h2" not in html


def test_a_player_in_hand_at_the_set_up_is_named(match: Match) -> None:
    state = mid_turn(match)
    names = Names(match)
    view = page.plan_view(state, "kick", ["home:captain"], page.Plan(picked="h3"), names)
    assert view["picked_name"] == names.player("h3") != "h3"
