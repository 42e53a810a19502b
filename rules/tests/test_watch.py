"""``resolve(..., watch=...)`` shows a replay each event as it is recorded, with the state at
that moment, and changes nothing of the resolution."""

import random

from rules.engine import Answer, Event, FairDice, MatchState, Pending, Watch, new_match, resolve
from rules.engine.board import NAMES
from rules.engine.randomplay import choose, random_sheet


def _defaults(pending: Pending) -> Answer:
    return Answer(pending.kind, pending.default)


def _noting(seen: list[tuple[Event, dict[str, str | None]]]) -> Watch:
    def watch(event: Event, now: MatchState) -> None:
        seen.append((event, {pid: _square(p.at) for pid, p in now.players.items()}))

    return watch


def _square(at: int | None) -> str | None:
    return NAMES[at] if at is not None else None


def test_a_watched_resolution_sees_every_event_and_ends_where_the_unwatched_one_does() -> None:
    rng = random.Random(5)
    state = new_match(random_sheet(rng, "h"), random_sheet(rng, "a"), True)
    dice = FairDice(b"watch", "watch")
    moves = 0
    for _ in range(400):
        if state.phase == "finished":
            break
        actor, declaration = choose(state, rng, whole=True)
        plain = resolve(state, actor, declaration, (), dice, _defaults)
        seen: list[tuple[Event, dict[str, str | None]]] = []
        watched = resolve(state, actor, declaration, (), dice, _defaults, watch=_noting(seen))
        assert [e.to_json() for e in watched.events] == [e.to_json() for e in plain.events]
        assert [event for event, _where in seen] == watched.events
        assert watched.state.to_json() == plain.state.to_json()
        for event, where in seen:
            if event.type == "move":
                assert where[event.data["player"]] == event.data["to"]
                moves += 1
        state = plain.state
    assert moves > 20
