"""What the pitch draws from a state: here, the tackle zones as SVG squares."""

from matches.play.pitch import grid_svg, pitch_view, tokens_svg


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


def test_a_token_says_its_state_its_ball_and_whose_it_is_with_its_name_escaped() -> None:
    state = {
        "players": {
            "h1": {**player("h1", "B2", "prone"), "side": "rival", "has_ball": True},
            "a2": player("a2", "K8"),
        }
    }
    lineup = {"h1": {"name": '<script>alert("x")</script>'}, "a2": {"name": "Grim"}}
    names = {"home": "Reikland Reavers", "away": "Orcland Raiders"}
    board = pitch_view(state, ["home:rival"], lineup, team_names=names)
    svg = str(tokens_svg(board["tokens"], selected="h1"))
    home, away = svg.split("</g>")[:2]
    assert 'class="token team-home side-rival state-prone mine selected"' in home
    assert 'transform="translate(30 30)"' in home and 'data-square="B2"' in home
    assert '<rect class="side-mark"' in home and '<circle class="ball"' in home
    assert '<circle class="body"' in home
    # the state mark stands beside the token's button, where its name does not have to hold it
    mark = '<text class="state-mark" x="33" y="58" aria-hidden="true">P</text>'
    assert away.startswith(mark)
    assert "<script>" not in svg and "&lt;script&gt;alert(&quot;x&quot;)" in home
    assert "Reikland Reavers, B2, prone, has the ball" in home
    assert 'class="token team-away side-captain state-standing"' in away
    assert '<rect class="body"' in away and "side-mark" not in away
    assert away.count("state-mark") == 1
    assert 'aria-label="#2 Grim, Orcland Raiders, K8, standing"' in away


def test_the_match_pages_squares_are_named_buttons_and_the_replays_a_picture() -> None:
    interactive, picture = str(grid_svg(interactive=True)), str(grid_svg())
    assert interactive.count('role="button"') == 390 and interactive.count('tabindex="0"') == 1
    assert 'data-square="K8" tabindex="-1" role="button" aria-label="K8"' in interactive
    assert "role=" not in picture and "aria-label" not in picture and "tabindex" not in picture
