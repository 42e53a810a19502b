"""What the pitch draws from a state: here, the tackle zones as SVG squares."""

from matches.pitch import pitch_view


def player(pid: str, at: str, state: str = "standing") -> dict[str, object]:
    team = "home" if pid[0] == "h" else "away"
    return {"team": team, "side": "captain", "at": at, "state": state, "number": int(pid[1:])}


def test_a_standing_player_draws_the_eight_squares_around_it_and_a_prone_one_none() -> None:
    state = {"players": {"h1": player("h1", "B2"), "a1": player("a1", "K8", "prone")}}
    zones = pitch_view(state, [])["tackle_zones"]
    assert zones["away"] == ""
    home = str(zones["home"])
    assert home.count("<rect ") == 8
    # B2 is column 1, row 2: its neighbours run from A1 (0, 0) to C3 (60, 60), B2 left out.
    assert '<rect x="0" y="0" width="30" height="30"></rect>' in home
    assert '<rect x="60" y="60" width="30" height="30"></rect>' in home
    assert '<rect x="30" y="30"' not in home
