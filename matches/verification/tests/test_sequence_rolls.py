"""The pre- and post-match sequences' rolls are checked against the seed too: the sequence's
own stream (winnings, fan factor, improvement rolls, the draws of a missed deadline) and the
match's opening rolls the sequence shows again (weather, fans)."""

from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from matches import services
from matches.models import Match, Sequence, TeamMatchRecord
from matches.sequence.tests.driving import coach, play_to_the_end
from matches.verification.exports import verify
from matches.verification.tests.conftest import (
    Doc,
    exported,
    forged,
    new_cast,
    played_once,
    rechained,
    verify_command,
)
from teams.models import Player

# django_db: the test database is set up for the module's match (tests read only its export)
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("verify_sequence")]

Path_ = Callable[[dict[str, Any]], Any]


def _after_every_deadline(match: Match) -> None:
    services.expire_sequence_deadlines(timezone.now() + timedelta(days=30))
    match.refresh_from_db()


def play_a_match_with_its_sequences() -> dict[str, Any]:
    """Both sequences with their defaults and choices: the pre-match steps by default, every
    team turn ended at once, the winner re-rolls its winnings die, one team's awards are
    chosen and the other's drawn, one improvement is chosen and the others drawn."""
    cast = new_cast()
    # Two SPP each: the MVP (5) and the second award (4) bring an improvement roll.
    Player.objects.filter(team__in=(cast.home, cast.away)).update(spp=2)
    match = services.create_match(
        home=cast.home, away=cast.away, gm=cast.users["gm"], league=cast.league, prematch=True
    )
    for _ in range(4):  # petty cash twice, inducements twice
        _after_every_deadline(match)
    assert match.status == Match.Status.IN_PLAY
    match = play_to_the_end(match.pk)
    records = {r.key: r for r in TeamMatchRecord.objects.filter(match=match)}
    winner = next(key for key, record in records.items() if record.result == "win")
    loser = "away" if winner == "home" else "home"
    services.reroll_winnings(match.pk, coach(match, f"{winner}:captain"), reroll=True)
    mine = sorted(
        (pid for pid in match.lineup if pid[0] == winner[0]),
        key=lambda pid: (int(match.lineup[pid].get("number") or 0), pid),
    )
    services.choose_mvp(
        match.pk, coach(match, f"{loser}:captain"), team=winner, mje=mine[0], pje=mine[1]
    )
    _after_every_deadline(match)  # the loser's awards are drawn
    chosen = match.advancements.select_related("player").order_by("pk")[0]
    side = "home" if chosen.player.team_id == match.home_team_id else "away"
    services.choose_advancement(
        chosen.pk, coach(match, f"{side}:{chosen.player.side}"), chosen.options[0]
    )
    _after_every_deadline(match)  # the other improvements are drawn
    assert match.status == Match.Status.FINISHED
    return {"doc": exported(match), "read": Sequence.objects.get(match=match).dice_used}


@pytest.fixture(scope="module")
def finished(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    yield from played_once(django_db_blocker, play_a_match_with_its_sequences)


def _sequence_event(doc: Doc, step: str, path: Path_) -> dict[str, Any]:
    """The first event of a step whose data holds ``path``."""
    for event in doc["events"]:
        if event["type"] == f"sequence_{step}":
            try:
                path(event["data"])
            except (KeyError, IndexError, TypeError):
                continue
            found: dict[str, Any] = event
            return found
    raise AssertionError(f"no sequence_{step} event with that")


def test_a_finished_match_verifies_with_its_sequence_rolls(finished: dict[str, Any]) -> None:
    doc = finished["doc"]
    result = verify(doc)
    assert result.problems == []
    assert result.ok
    assert result.rolls > 0
    # Every roll the sequence read is shown in its record and checked, once.
    assert result.sequence_rolls == finished["read"] > 15
    listed = doc["dice"]["sequence_rolls"]
    assert [r["index"] for r in listed] == list(range(finished["read"]))
    assert all(1 <= r["face"] <= r["sides"] for r in listed)


@pytest.mark.parametrize(
    ("step", "faces"),
    [
        ("winnings_dice", lambda d: d["home"]["dice"]),
        ("winnings_dice", lambda d: d["away"]["fan_factor_dice"]),
        ("winnings_reroll", lambda d: d["dice"]),
        ("fan_factor", lambda d: d["dice"]),
        ("mvp", lambda d: d["drawn"]["dice"]),
        ("improvement_rolls", lambda d: d["rolls"][0]["dice"]),
        ("advancement", lambda d: d["dice"]),
        ("advancement", lambda d: d["drawn"]["dice"]),
        ("weather", lambda d: d["dice"]),
        ("fans", lambda d: d["away"]["faces"]),
    ],
)
def test_a_forged_sequence_face_is_caught(
    finished: dict[str, Any], step: str, faces: Path_
) -> None:
    doc = forged(finished["doc"])
    event = _sequence_event(doc, step, lambda d: faces(d)[0])
    shown = faces(event["data"])
    shown[-1] = shown[-1] % 6 + 1
    result = verify(rechained(doc))
    assert not result.ok
    assert any(f"event {event['number']}" in p for p in result.problems), result.problems


def test_a_forged_winnings_die_is_caught(finished: dict[str, Any]) -> None:
    doc = forged(finished["doc"])
    event = _sequence_event(doc, "winnings", lambda d: d["die"])
    event["data"]["die"] = event["data"]["die"] % 6 + 1
    problems = verify(rechained(doc)).problems
    assert any(f"event {event['number']}" in p for p in problems), problems


def test_a_face_read_from_another_place_of_the_stream_is_caught(
    finished: dict[str, Any],
) -> None:
    """A forger who looks in the revealed stream for the face he wants and points to it."""
    doc = forged(finished["doc"])
    event = _sequence_event(doc, "winnings_reroll", lambda d: d["dice_at"][1])
    event["data"]["dice_at"][-1] = finished["read"] + 5
    problems = verify(rechained(doc)).problems
    assert any(f"event {event['number']}" in p for p in problems), problems


def test_a_sequence_record_without_its_stream_indexes_is_reported(
    finished: dict[str, Any],
) -> None:
    """A record made before the sequence's rolls said where they were read: it cannot be
    checked, and the verifier says so."""
    doc = forged(finished["doc"])
    event = _sequence_event(doc, "fan_factor", lambda d: d["dice_at"])
    del event["data"]["dice_at"]
    problems = verify(rechained(doc)).problems
    assert any(f"event {event['number']}" in p and "cannot be checked" in p for p in problems), (
        problems
    )


def _without_indexes(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_indexes(v) for k, v in value.items() if not k.endswith("_at")}
    if isinstance(value, list):
        return [_without_indexes(v) for v in value]
    return value


def test_an_old_record_is_reported_event_by_event(finished: dict[str, Any]) -> None:
    """A whole sequence recorded before its rolls were indexed: each event that shows dice
    says it cannot be checked, and nothing else is blamed on it."""
    doc = forged(finished["doc"])
    del doc["dice"]["sequence_rolls"]  # nor did its exports list them
    del doc["receipt"]  # nor carry a receipt
    for event in doc["events"]:
        if event["type"].startswith("sequence_"):
            event["data"] = _without_indexes(event["data"])
    problems = verify(rechained(doc)).problems
    assert problems
    assert all("cannot be checked" in p for p in problems), problems
    assert any("sequence_winnings_dice" in p for p in problems)


def test_verify_match_counts_the_sequence_rolls(finished: dict[str, Any], tmp_file: Path) -> None:
    doc = finished["doc"]
    result = verify(doc)
    out, err, error = verify_command(doc, tmp_file)
    assert error is None, err
    assert f"OK: {result.rolls} rolls and {finished['read']} sequence rolls" in out
    copy = forged(doc)
    event = _sequence_event(copy, "winnings_dice", lambda d: d["home"]["dice"])
    event["data"]["home"]["dice"][0] = event["data"]["home"]["dice"][0] % 6 + 1
    out, err, error = verify_command(rechained(copy), tmp_file)
    assert error is not None
    assert f"event {event['number']}" in err
    assert "OK" not in out
