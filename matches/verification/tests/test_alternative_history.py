"""An alternative history regenerated as a forger holding the revealed seed would make it: one
coach's declaration changed (where the kick-off lands), every later event played again by the
engine from the seed, the chain, the rolls, the final state and the file's receipt computed
again. Honestly: without a receipt it verifies, since it is a match the rules allow. A receipt
taken at or after the changed declaration catches it; one taken before it still holds. And the
receipt covers each post's text and author, the teams and players as they played and the pre-
and post-match sequences."""

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from matches.verification import receipts
from matches.verification.exports import verify
from matches.verification.tests.conftest import Doc, forged, played_once, rechained, verify_command
from matches.verification.tests.test_sequence_rolls import play_a_match_with_its_sequences
from tools import forgery

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("verify_history")]


@pytest.fixture(scope="module")
def finished(django_db_setup: None, django_db_blocker: Any) -> Iterator[Doc]:
    for played in played_once(django_db_blocker, play_a_match_with_its_sequences):
        yield played["doc"]


def posts_before(doc: Doc, event: int) -> int:
    """The posts written before the post of ``event``."""
    post = next(e["post"] for e in doc["events"] if e["number"] == event)
    return int(max(p["number"] for p in doc["posts"] if p["number"] < post))


@pytest.fixture(scope="module")
def alternative(finished: Doc) -> tuple[Doc, int]:
    return forgery.kick_elsewhere(finished)


def test_the_alternative_history_is_regenerated_and_verifies_without_a_receipt(
    finished: Doc, alternative: tuple[Doc, int], tmp_file: Path
) -> None:
    doc, changed = alternative
    original = {e["number"]: e for e in finished["events"]}
    # Played again from the seed, the history may run longer than the original: an event past
    # the original's last one is rewritten too.
    rewritten = [
        e["number"]
        for e in doc["events"]
        if e["number"] not in original or original[e["number"]]["data"] != e["data"]
    ]
    assert rewritten[0] == changed
    assert len(rewritten) > 1, "only the declaration changed: nothing was regenerated"
    assert doc["receipt"] != finished["receipt"]
    out, err, error = verify_command(doc, tmp_file)
    assert error is None, err  # honestly: a history the rules allow, with nothing to hold it to
    assert out.startswith("OK: ")


def test_it_fails_against_every_receipt_taken_at_or_after_the_changed_declaration(
    finished: Doc, alternative: tuple[Doc, int], tmp_file: Path
) -> None:
    doc, changed = alternative
    taken = [
        receipts.at(finished, changed, posts_before(finished, changed) + 1),
        receipts.at(finished, (changed + len(finished["events"])) // 2, len(finished["posts"])),
        finished["receipt"],
    ]
    for held in taken:
        _out, err, error = verify_command(doc, tmp_file, "--head", held)
        assert error is not None, f"the alternative history gave back {held}"
        assert f"does not give back the receipt {held}" in err


def test_it_passes_against_a_receipt_taken_before_the_changed_declaration(
    finished: Doc, alternative: tuple[Doc, int], tmp_file: Path
) -> None:
    doc, changed = alternative
    held = receipts.at(finished, changed - 1, posts_before(finished, changed))
    out, err, error = verify_command(doc, tmp_file, "--head", held)
    assert error is None, err
    assert f"It gives back the receipt {held}." in out


def _post_by_someone_else(doc: Doc) -> None:
    post = next(p for p in doc["posts"] if p["author"] == "carol")
    post["author"] = "alice"


def _post_text(doc: Doc) -> None:
    post = next(p for p in doc["posts"] if p["kind"] == "system")
    post["text"], post["summary"] = "The GM says so.", {}


def _team_name(doc: Doc) -> None:
    doc["teams"]["away"]["name"] = "Altdorf Allstars"


def _team_coach(doc: Doc) -> None:
    doc["teams"]["home"]["rival"] = "carol"


def _player_as_played(doc: Doc) -> None:
    entry = doc["lineup"]["h1"]
    entry["position"], entry["name"] = "Ogre", "Morg"


def _pre_match_sequence(doc: Doc) -> None:
    step = next(e for e in doc["events"] if e["type"] == "sequence_handicap")
    step["data"]["amount"] += 10_000
    rechained(doc)


def _post_match_sequence(doc: Doc) -> None:
    step = next(e for e in doc["events"] if e["type"] == "sequence_winnings")
    step["data"]["captain_share"] -= 1_000
    step["data"]["rival_share"] += 1_000
    rechained(doc)


COVERED: dict[str, Callable[[Doc], None]] = {
    "a post's author": _post_by_someone_else,
    "a post's text": _post_text,
    "a team's name": _team_name,
    "a team's coach": _team_coach,
    "a player as played": _player_as_played,
    "the pre-match sequence": _pre_match_sequence,
    "the post-match sequence": _post_match_sequence,
}


@pytest.mark.parametrize("change", COVERED.values(), ids=COVERED.keys())
def test_the_receipt_covers_posts_teams_players_and_both_sequences(
    finished: Doc, change: Callable[[Doc], None]
) -> None:
    doc = forged(finished)
    change(doc)
    doc["receipt"] = receipts.of_export(doc)
    problems = verify(doc, head=finished["receipt"]).problems
    assert any("does not give back the receipt" in problem for problem in problems), problems


def test_a_receipt_made_before_the_line_up_was_hashed_still_holds_the_file_to_what_it_covered(
    finished: Doc, tmp_file: Path
) -> None:
    """Receipts handed out before looked for the first state in the first event only, and a
    match with a pre-match sequence starts with that sequence: they hashed no line-up."""
    old = receipts.at(finished, len(finished["events"]), len(finished["posts"]), legacy=True)
    assert old != finished["receipt"]
    _out, err, error = verify_command(finished, tmp_file, "--head", old)
    assert error is None, err
    doc = forged(finished)
    doc["teams"]["away"]["name"] = "Altdorf Allstars"
    assert receipts.check(doc, old) != []
