"""A headline of the thread names players as links to their careers, its text escaped."""

from types import SimpleNamespace
from typing import Any, cast

from matches.templatetags.match_tags import player_links

LINEUP = {
    "h1": {"pk": 7, "number": 1, "name": "Karl"},
    "a1": {"pk": 8, "number": 1, "name": "Karl <b>Fleischer</b>"},
    "a2": {"number": 2, "name": "Star"},  # a star player: no career page
}


def _links(text: str) -> str:
    return str(player_links(text, cast(Any, SimpleNamespace(lineup=LINEUP))))


def test_each_named_player_links_once_the_longest_name_first() -> None:
    out = _links("#1 Karl <b>Fleischer</b> blocks #1 Karl <script>")
    assert out == (
        '<a href="/players/8/">#1 Karl &lt;b&gt;Fleischer&lt;/b&gt;</a> blocks '
        '<a href="/players/7/">#1 Karl</a> &lt;script&gt;'
    )


def test_a_player_without_a_roster_entry_is_plain_text() -> None:
    assert _links("#2 Star scores") == "#2 Star scores"
