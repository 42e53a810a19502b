"""A match the GM ruled on verifies: the verifier follows a rewind, a granted re-roll, a
correction and the end of the match exactly as the server's fold does, and checks the rolls
and the events each of them led to. A forged ruling or a forged roll after it is caught.

The dice seed is new each run and the random player's moves follow the dice, so each test
plays on until the situation it needs arises (within a bound)."""

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from matches import services
from matches.gm.tests.conftest import play
from matches.models import Match, MatchEvent
from matches.record.folding import undone_numbers
from matches.verification.exports import verify
from matches.verification.tests.conftest import (
    Doc,
    event_of,
    exported,
    forged,
    new_cast,
    played_once,
    rechained,
    verify_command,
)

# django_db: the test database is set up for the module's match (tests read only its export)
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("verify_rulings")]

ROUNDS = 60  # calls of five moves each before a test gives up waiting for its situation
ACTING = ("declaration", "granted_reroll")


class Table:
    """Random legal play through the services, noting the stored state after each call that
    ends without a question pending: the state the next declaration starts from."""

    def __init__(self, match: Match, coaches: dict[str, User], rng: random.Random) -> None:
        self.match, self.coaches, self.rng = match, coaches, rng
        self.after: dict[int, dict[str, Any]] = {}
        self.note()

    def note(self) -> None:
        self.match.refresh_from_db()
        last = self.match.events.order_by("-number").values_list("number", flat=True)[0]
        if self.match.state.get("pending") is None:
            self.after.setdefault(last, self.match.state)

    def play(self, steps: int = 5) -> None:
        for last, state in play(self.match, self.coaches, self.rng, steps):
            if state.get("pending") is None:
                self.after.setdefault(last, state)
        self.note()

    def in_play(self) -> bool:
        self.match.refresh_from_db()
        return self.match.status == Match.Status.IN_PLAY

    def until[T](self, found: Callable[[], T | None], what: str) -> T:
        for _ in range(ROUNDS):
            if not self.in_play():
                break
            result = found()
            if result is not None:
                return result
            self.play()
        pytest.fail(f"the match never offered {what}")

    def live(self) -> list[MatchEvent]:
        events = list(self.match.events.order_by("number"))
        gone = undone_numbers(events)
        return [e for e in events if e.number not in gone]

    def safe_start(self, declaration: MatchEvent) -> bool:
        """Play can go on from the state before it with the dice moved on: the random
        player's set-up follows the dice, so not in the middle of a team's set-up."""
        before = self.after.get(declaration.number - 1)
        if before is None:
            return False
        posted = any(team.get("posted") for team in before["teams"].values())
        return not (before["phase"] == "setup" and posted)


def _acting(live: list[MatchEvent], event: MatchEvent) -> MatchEvent | None:
    return next(
        (
            e
            for e in reversed(live)
            if e.type in ACTING and e.number < event.number and e.post_id == event.post_id
        ),
        None,
    )


def _a_roll_to_reroll(table: Table) -> MatchEvent | None:
    live = table.live()
    rolls = []
    for event in live:
        acting = _acting(live, event) if event.data.get("faces") else None
        if acting is not None and acting.type == "declaration" and table.safe_start(acting):
            rolls.append(event)
    return table.rng.choice(rolls) if len(rolls) >= 2 else None


def _a_declaration_after(table: Table, number: int) -> MatchEvent | None:
    later = [
        e
        for e in table.live()
        if e.type == "declaration" and e.number > number and table.safe_start(e)
    ]
    return table.rng.choice(later) if len(later) >= 2 else None


def _a_roll_after(table: Table, number: int) -> MatchEvent | None:
    return next((e for e in table.live() if e.number > number and e.data.get("faces")), None)


def _a_player_to_knock_down(table: Table) -> str | None:
    state = services.load_state(table.match)
    if state.pending is not None or state.phase != "play":
        return None
    standing = sorted(
        p.id
        for p in state.players.values()
        if p.state == "standing" and p.at is not None and p.id != state.carrier
    )
    return table.rng.choice(standing) if standing else None


def _rule(table: Table, gm: User, who: User, ruling: str, **kwargs: Any) -> MatchEvent:
    event = kwargs.pop("event", None)
    post = None if event is not None else table.match.posts.order_by("-number")[0].number
    dispute = services.raise_dispute(
        table.match.pk, who, reason="Look again.", event_number=event, post_number=post
    )
    ruled = services.rule_on_dispute(table.match.pk, gm, dispute.pk, ruling, **kwargs)
    table.note()
    return ruled


def _play_a_ruled_match(rng: random.Random) -> dict[str, Any]:
    """A match in which the GM grants a re-roll, rewinds, corrects a player and ends the
    match (an award or the final whistle as it stands); then the GM closes it."""
    cast = new_cast()
    gm, alice, carol = cast.users["gm"], cast.users["alice"], cast.users["carol"]
    match = services.create_match(home=cast.home, away=cast.away, gm=gm, league=cast.league)
    table = Table(match, cast.coaches, rng)

    roll = table.until(lambda: _a_roll_to_reroll(table), "two rolls to dispute")
    granted = _rule(table, gm, carol, "grant_reroll", event=roll.number)
    table.play()
    target = table.until(
        lambda: _a_declaration_after(table, granted.number), "two declarations to rewind"
    )
    rewind = _rule(table, gm, alice, "rewind", event=target.number)
    table.until(lambda: _a_roll_after(table, rewind.number), "a roll after the rewind")
    player = table.until(lambda: _a_player_to_knock_down(table), "a player to correct")
    correction = _rule(table, gm, alice, "correct", player=player, changes={"state": "prone"})
    table.play()
    if rng.random() < 0.5:
        ended = _rule(table, gm, carol, "award", winner=rng.choice(["home", "away"]))
    else:
        ended = services.end_match(match.pk, gm, note="Time is up.")
    services.end_match(match.pk, gm, note="Closed.")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return {
        "doc": exported(match),
        "granted": granted.number,
        "rewind": rewind.number,
        "correction": correction.number,
        "ended": ended.number,
    }


@pytest.fixture(scope="module", params=[1, 2, 3])
def ruled(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[dict[str, Any]]:
    yield from played_once(
        django_db_blocker, lambda: _play_a_ruled_match(random.Random(request.param))
    )


def _problems(doc: Doc) -> list[str]:
    result = verify(rechained(doc))
    assert not result.ok
    return result.problems


def test_a_match_the_gm_ruled_on_verifies(ruled: dict[str, Any]) -> None:
    doc = ruled["doc"]
    types = [e["type"] for e in doc["events"]]
    assert {"rewind", "granted_reroll", "correction"} <= set(types)
    result = verify(doc)
    assert result.problems == []
    assert result.ok
    assert result.rolls == len(doc["dice"]["rolls"]) > 0


def test_the_roll_list_shows_the_new_dice_of_a_granted_reroll(ruled: dict[str, Any]) -> None:
    doc = ruled["doc"]
    events = {e["number"]: e for e in doc["events"]}
    rolls = doc["dice"]["rolls"]
    for roll in rolls:
        assert roll["face"] in events[roll["event"]]["data"]["faces"]
        assert 1 <= roll["face"] <= roll["sides"]
    granted = events[ruled["granted"]]
    new_from = granted["data"]["new_from"]
    redone = [r for r in rolls if r["event"] > granted["number"] and r["index"] >= new_from]
    assert redone, "the re-rolled dice are not listed"
    rewind = events[ruled["rewind"]]
    assert all(
        r["index"] < rewind["data"]["dice_used"] for r in rolls if r["event"] < rewind["number"]
    )


def test_a_forged_face_after_a_ruling_is_caught(ruled: dict[str, Any]) -> None:
    doc = ruled["doc"]
    for after in (ruled["granted"], ruled["rewind"]):
        event = next(e for e in doc["events"] if e["number"] > after and e["data"].get("faces"))
        copy = forged(doc)
        shown = event_of(copy, event["number"])["data"]["faces"]
        shown[0] = shown[0] % 6 + 1
        problems = _problems(copy)
        assert any(f"event {event['number']}" in p for p in problems), problems


def test_a_forged_face_in_an_undone_event_is_caught(ruled: dict[str, Any]) -> None:
    doc = ruled["doc"]
    undone = set(event_of(doc, ruled["rewind"])["data"]["undone"])
    undone |= set(event_of(doc, ruled["granted"])["data"]["undone"])
    event = next(e for e in doc["events"] if e["number"] in undone and e["data"].get("faces"))
    copy = forged(doc)
    shown = event_of(copy, event["number"])["data"]["faces"]
    shown[-1] = shown[-1] % 6 + 1
    problems = _problems(copy)
    assert any(f"event {event['number']}" in p for p in problems), problems


@pytest.mark.parametrize(
    ("ruling", "change"),
    [
        ("granted", lambda data: data.update(new_from=data["new_from"] + 1)),
        ("granted", lambda data: data.update(keep=data["keep"][:-1] or [0])),
        ("rewind", lambda data: data.update(undone=data["undone"][:-1])),
        ("rewind", lambda data: data.update(to=data["to"] + 1)),
        ("rewind", lambda data: data.update(dice_used=0)),
        ("correction", lambda data: data.update(player="h99")),
        ("correction", lambda data: data.update(changes={"state": "asleep"})),
    ],
)
def test_a_forged_ruling_is_caught(
    ruled: dict[str, Any], ruling: str, change: Callable[[dict[str, Any]], None]
) -> None:
    copy = forged(ruled["doc"])
    change(event_of(copy, ruled[ruling])["data"])
    problems = _problems(copy)
    assert any(f"event {ruled[ruling]}" in p for p in problems), problems


def test_a_forged_end_of_the_match_is_caught(ruled: dict[str, Any]) -> None:
    copy = forged(ruled["doc"])
    ended = event_of(copy, ruled["ended"])
    if ended["type"] == "award":
        ended["data"]["score"]["home"] += 1
    else:
        ended["type"] = "correction"
    assert _problems(copy)


def test_events_in_another_order_are_caught(ruled: dict[str, Any]) -> None:
    copy = forged(ruled["doc"])
    events = copy["events"]
    at = next(k for k, e in enumerate(events) if e["number"] == ruled["granted"])
    events[at], events[at + 1] = events[at + 1], events[at]
    for number, event in enumerate(events, start=1):
        event["number"] = number
    assert _problems(copy)


def test_verify_match_says_ok_with_the_counts_or_lists_the_problems(
    ruled: dict[str, Any], tmp_file: Path
) -> None:
    doc = ruled["doc"]
    result = verify(doc)
    out, err, error = verify_command(doc, tmp_file)
    assert error is None, err
    assert f"OK: {result.rolls} rolls" in out
    assert f"{len(doc['events'])} events" in out
    copy = forged(doc)
    event_of(copy, ruled["rewind"])["data"]["undone"] = []
    out, err, error = verify_command(rechained(copy), tmp_file)
    assert error is not None and "problem(s)" in str(error)
    assert f"event {ruled['rewind']}" in err
    assert "OK" not in out
