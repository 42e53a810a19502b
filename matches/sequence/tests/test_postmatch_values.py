"""The team values after a match with casualties, recomputed by the verifier from the itemised
rosters and the record: the dead leave the roster, the seriously injured miss the next match,
the badly hurt play it; a roster after the match that hides either fails."""

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from matches import services
from matches.models import Match
from matches.sequence.tests.driving import finish_now
from matches.verification import figures
from matches.verification.exports import export_match
from teams.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def record(demo: tuple[Team, Team], cast: dict[str, User], sequence_faces: list[int]) -> Any:
    reavers, raiders = demo
    match = services.create_match(home=reavers, away=raiders, gm=cast["gm"], league=reavers.league)
    sequence_faces.extend([3, 1, 1, 2, 6, 6, 6] + [1] * 40)
    casualties = {"h1": "minus_ma", "h3": "badly_hurt", "a9": "dead"}
    match = finish_now(match, winner="home", casualties=casualties)
    for _ in range(10):
        if match.status == Match.Status.FINISHED:
            break
        services.expire_sequence_deadlines(timezone.now() + timedelta(days=30))
        match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return export_match(match)


def _after(doc: Any) -> dict[str, Any]:
    found: dict[str, Any] = next(
        e["data"] for e in doc["events"] if e["type"] == "sequence_team_values_after"
    )
    return found


def test_the_values_after_casualties_are_recomputed_from_the_record(record: Any) -> None:
    assert figures.check(record["events"], record["lineup"], None) == []
    after = _after(record)["items"]
    pks = {pid: entry["pk"] for pid, entry in record["lineup"].items()}
    home = {p["player"]: p for p in after["home"]["players"]}
    assert home[pks["h1"]]["missing"] and not home[pks["h3"]]["missing"]
    assert pks["a9"] not in {p["player"] for p in after["away"]["players"]}


@pytest.mark.parametrize("hidden", ["a death", "an injury"])
def test_a_roster_after_the_match_that_hides_a_casualty_fails(record: Any, hidden: str) -> None:
    after = _after(record)
    pks = {pid: entry["pk"] for pid, entry in record["lineup"].items()}
    if hidden == "a death":
        before = next(
            e["data"]
            for e in record["events"]
            if e["type"] == "sequence_winnings" and e["data"]["team"] == "away"
        )
        dead = next(p for p in before["items"]["players"] if p["player"] == pks["a9"])
        after["items"]["away"]["players"].append({**dead, "missing": False})
    else:
        injured = next(p for p in after["items"]["home"]["players"] if p["player"] == pks["h1"])
        injured["missing"] = False
    problems = figures.check(record["events"], record["lineup"], None)
    assert any("after the match" in problem for problem in problems), problems
