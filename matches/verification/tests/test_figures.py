"""The post-match figures are recomputed from the events and the rules: an export whose
winnings, fan factor, SPP, MVPs or team values were forged (and its hash chain computed again)
fails with a message that names the figure."""

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from matches.record import economy
from matches.verification import figures, receipts
from matches.verification.exports import verify
from matches.verification.tests.conftest import Doc, forged, played_once, rechained, verify_command
from matches.verification.tests.test_sequence_rolls import play_a_match_with_its_sequences

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("verify_figures")]


@pytest.fixture(scope="module")
def finished(django_db_setup: None, django_db_blocker: Any) -> Iterator[Doc]:
    for played in played_once(django_db_blocker, play_a_match_with_its_sequences):
        yield played["doc"]


def step(doc: Doc, name: str, team: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = next(
        e["data"]
        for e in doc["events"]
        if e["type"] == f"sequence_{name}" and team in (None, e["data"].get("team"))
    )
    return found


def more_winnings(doc: Doc) -> None:
    data = step(doc, "winnings", "away")
    data["gross"] += 50_000
    data["winnings"] += 50_000
    data["captain_share"] += 50_000


def a_better_fan_factor(doc: Doc) -> None:
    step(doc, "fan_factor", "away")["change"] += 1


def more_spp(doc: Doc) -> None:
    step(doc, "spp")["home"][0]["spp"] += 3


def a_touchdown_nobody_scored(doc: Doc) -> None:
    row = step(doc, "spp")["away"][0]
    row["touchdowns"] += 1
    row["spp"] += 3


def an_mvp_of_the_other_team(doc: Doc) -> None:
    step(doc, "mvp", "home")["mje"]["id"] = "a3"


def an_award_left_out(doc: Doc) -> None:
    step(doc, "spp")["away"].pop()


def another_result(doc: Doc) -> None:
    data = step(doc, "result")
    data["winner"] = "away" if data["winner"] == "home" else "home"


def a_higher_team_value_after(doc: Doc) -> None:
    step(doc, "team_values_after")["home"] += 50_000


def a_higher_team_value_before(doc: Doc) -> None:
    step(doc, "team_values")["away"] += 50_000


def a_skill_nobody_earned_with_its_value(doc: Doc) -> None:
    """The forger itemises the skill too, so the value's arithmetic holds."""
    data = step(doc, "team_values_after")
    player = next(
        p
        for p in data["items"]["away"]["players"]
        if p["position"].endswith("lineman") and not p["gained"]
    )
    player["gained"].append("Block")
    data["away"] += 20_000


def a_larger_share_for_the_captain(doc: Doc) -> None:
    """The captain's side value raised and the shares split again by it, as the rules would."""
    data = step(doc, "winnings", "home")
    data["captain_value"] += 200_000
    total = data["captain_value"] + data["rival_value"]
    data["captain_share"] = data["winnings"] * data["captain_value"] // total
    data["rival_share"] = data["winnings"] - data["captain_share"]


def a_player_healed(doc: Doc) -> None:
    """A player the record shows injured, shown available after the match."""
    data = step(doc, "team_values_after")
    player = data["items"]["home"]["players"][0]
    player["missing"] = not player["missing"]


FORGERIES: dict[str, Callable[[Doc], None]] = {
    "winnings": more_winnings,
    "fan factor": a_better_fan_factor,
    "SPP": more_spp,
    "a touchdown": a_touchdown_nobody_scored,
    "MVP": an_mvp_of_the_other_team,
    "an award": an_award_left_out,
    "result": another_result,
    "team value after": a_higher_team_value_after,
    "team value before": a_higher_team_value_before,
    "a skill and its value": a_skill_nobody_earned_with_its_value,
    "side values": a_larger_share_for_the_captain,
    "an injury": a_player_healed,
}


def test_the_genuine_figures_verify_the_team_values_included(finished: Doc, tmp_file: Path) -> None:
    assert verify(finished).ok, verify(finished).problems
    out, err, error = verify_command(finished, tmp_file)
    assert error is None, err
    assert "the team values included, are recomputed from the events" in out


def test_a_record_made_before_the_rosters_were_itemised_still_verifies_and_says_so(
    finished: Doc, tmp_file: Path
) -> None:
    doc = forged(finished)
    for event in doc["events"]:
        event["data"].pop("items", None)
    doc["receipt"] = receipts.of_export(rechained(doc))
    out, err, error = verify_command(doc, tmp_file)
    assert error is None, err
    assert "the team values are checked for their arithmetic only" in out


@pytest.mark.parametrize("forge", FORGERIES.values(), ids=FORGERIES.keys())
def test_a_forged_post_match_figure_fails_even_with_the_chain_computed_again(
    finished: Doc, forge: Callable[[Doc], None], tmp_file: Path
) -> None:
    doc = forged(finished)
    forge(doc)
    doc["receipt"] = receipts.of_export(rechained(doc))
    _out, err, error = verify_command(doc, tmp_file)
    assert error is not None, "the forgery verified"
    assert "the record does not verify" in str(error) and err
    assert "receipt" not in err, "the forger computed the file's receipt again: not the catch"


def test_a_match_paid_before_the_largest_remainder_verifies_by_the_rounding_it_was_paid_with(
    finished: Doc,
) -> None:
    """Its winnings events name no rounding: the rival's share rounded down, the rest to the
    captain. The same shares under today's rule's name are a forgery."""
    for team in ("home", "away"):
        data = step(finished, "winnings", team)
        assert data["rounding"] == economy.LARGEST_REMAINDER
    doc = forged(finished)
    paid_before = []
    for team in ("home", "away"):
        data = step(doc, "winnings", team)
        del data["rounding"]
        total = data["captain_value"] + data["rival_value"]
        rival = data["winnings"] * data["rival_value"] // total // 1_000 * 1_000
        data["captain_share"], data["rival_share"] = data["winnings"] - rival, rival
        paid_before.append(
            economy.split_winnings(data["winnings"], data["captain_value"], data["rival_value"])
            != (data["captain_share"], data["rival_share"])
        )
    assert verify(_rechained_with_its_receipt(doc)).ok, verify(doc).problems
    if any(paid_before):  # the two rules differ for this match: today's name does not fit
        for team in ("home", "away"):
            step(doc, "winnings", team)["rounding"] = economy.LARGEST_REMAINDER
        assert not verify(_rechained_with_its_receipt(doc)).ok


def _rechained_with_its_receipt(doc: Doc) -> Doc:
    """The chain and the file's own receipt computed again, as a forger who changed only
    figures would: what catches it then is the figures' check."""
    rechained(doc)
    doc["receipt"] = receipts.of_export(doc)
    return doc


def _a_match_closed_at_its_awards(*settled: Doc) -> list[Doc]:
    """h11's block takes a1 off as a casualty (2 SPP); the GM ends the match, the home captain
    gives the away team's awards, and the GM closes the match before the away captain chose:
    the awards are never settled, unless ``settled`` holds the steps that settle them."""
    kinds: list[tuple[str, Doc]] = [
        ("block_result", {"face": 6, "player": "h11", "target": "a1"}),
        ("knocked_down", {"player": "a1"}),
        ("injury", {"crowd": False, "player": "a1", "result": "casualty", "faces": [5, 6]}),
        ("match_ended", {"gm": 1, "note": "Time is up."}),
        ("sequence_result", {"step": "result", "winner": None, "score": {"home": 0, "away": 0}}),
        ("sequence_mvp", {"team": "away", "mje": {"id": "a2"}, "pje": {"id": "a3"}}),
        *((str(e["type"]), e["data"]) for e in settled),
        ("match_closed", {"gm": 1, "note": "Closed."}),
    ]
    return [
        {"number": number, "type": kind, "data": data}
        for number, (kind, data) in enumerate(kinds, start=1)
    ]


LINEUP = {pid: {"name": pid, "kind": "player"} for pid in ("h11", "a1", "a2", "a3")}


def test_a_match_closed_before_its_awards_were_settled_owes_no_spp() -> None:
    """The post-match gives SPP only when it settles the awards (with the winnings): a match
    the GM closes before then lists none, and the SPP its players earned are not missing."""
    assert figures.check(_a_match_closed_at_its_awards(), LINEUP, None) == []


def test_once_the_awards_are_settled_the_spp_earned_must_be_listed() -> None:
    listed_none = {"type": "sequence_spp", "data": {"home": [], "away": []}}
    problems = figures.check(_a_match_closed_at_its_awards(listed_none), LINEUP, None)
    assert problems == [
        "the SPP of a2 are not listed (5 earned)",
        "the SPP of a3 are not listed (4 earned)",
        "the SPP of h11 are not listed (2 earned)",
    ]
