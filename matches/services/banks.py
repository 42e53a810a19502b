"""banks: the time bank, a league's clock beside fixed deadlines (``League.clock``).

Each TEAM:SIDE of a match has a bank of time (``League.bank_hours``) and gains
``League.bank_increment_hours`` when a turn of its team begins. A bank runs only while its side
must act: its part of its team's turn, its set-up, its kick, or a decision addressed to it;
every other bank stands, as the turn clock stands during the other side's decision. A coach's
vacation stops its sides' banks: they start running again when the vacation ends.

``Match.banks`` holds ``{"left": {actor: seconds}, "since": {actor: ISO time}, "credited":
turn}``: what each bank held when it last started or stopped, and since when the running ones
run (a moment to come while their coach is away). The moment the first running bank runs out
is kept where the sweep already looks, through the same indexes: ``Match.turn_deadline_at``
during a turn, the open ``Decision.deadline_at`` during a question.
"""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from matches.models import Match, Post
from matches.services import clockwork, core
from rules.engine import MatchState, ruleset_for
from rules.engine.lineup import SETUP_PHASES, setups_awaited
from teams.models import League

TEAMS = ("home", "away")


def uses_bank(match: Match) -> bool:
    return match.league_id is not None and league_of(match).clock == League.Clock.BANK


def asks_gm(match: Match) -> bool:
    """Whether a bank that runs out pauses the match for the GM (else the defaults apply)."""
    return uses_bank(match) and league_of(match).bank_run_out == League.BankRunOut.GM


def league_of(match: Match) -> League:
    assert match.league is not None, "the time bank is a league's clock"
    return match.league


def sides_of(match: Match) -> tuple[str, ...]:
    return ("captain", "rival") if match.state.get("house_rules", True) else ("captain",)


@dataclass
class Banks:
    left: dict[str, float]
    since: dict[str, datetime] = field(default_factory=dict)
    credited: str = ""

    @classmethod
    def of(cls, match: Match) -> "Banks":
        """The match's banks; full ones for every side before its first turn."""
        data: dict[str, Any] = match.banks or {}
        if not data:
            full = timedelta(hours=league_of(match).bank_hours).total_seconds()
            actors = [f"{team}:{side}" for team in TEAMS for side in sides_of(match)]
            return cls({actor: full for actor in actors})
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Banks":
        since = {a: datetime.fromisoformat(at) for a, at in data.get("since", {}).items()}
        return cls(dict(data["left"]), since, data.get("credited", ""))

    def to_json(self) -> dict[str, Any]:
        since = {actor: at.isoformat() for actor, at in self.since.items()}
        return {"left": dict(self.left), "since": since, "credited": self.credited}

    def left_at(self, actor: str, now: datetime) -> float:
        started = self.since.get(actor)
        ran = max((now - started).total_seconds(), 0.0) if started is not None else 0.0
        return max(self.left.get(actor, 0.0) - ran, 0.0)

    def ends(self, actor: str) -> datetime:
        return self.since[actor] + timedelta(seconds=self.left[actor])

    def settle(self, now: datetime) -> None:
        """Every running bank stops at ``now``, debited for the time it ran."""
        for actor in list(self.since):
            self.left[actor] = self.left_at(actor, now)
        self.since = {}


def acting(state: MatchState) -> list[str]:
    """The sides that must act now, when no question is open."""
    rs = ruleset_for(state)
    if state.phase in SETUP_PHASES:
        return [f"{team}:{side}" for team, side in setups_awaited(state, rs.sides())]
    if state.phase == "kickoff":
        return [rs.captain(state.kicking)]
    if state.phase in ("pregame", "finished"):
        return []
    team = state.active
    return [f"{team}:{side}" for side in rs.sides() if side not in state.teams[team].ended]


def follow(match: Match, state: MatchState, asked: str | None = None) -> datetime | None:
    """Run the banks of those who must act in ``state`` (only ``asked``'s while a question is
    open to it), every other stopped; a new turn credits its team's sides first. Sets the
    turn's deadline to the first running bank's end; returns that end (a question's deadline)."""
    now = core.now()
    banks = Banks.of(match)
    banks.settle(now)
    turn = f"{state.half}:{state.active}:{state.turn.get(state.active, 0)}"
    if state.phase == "play" and banks.credited != turn:
        increment = timedelta(hours=league_of(match).bank_increment_hours).total_seconds()
        for side in sides_of(match):
            actor = f"{state.active}:{side}"
            banks.left[actor] = banks.left.get(actor, 0.0) + increment
        banks.credited = turn
    runners = [asked] if asked is not None else acting(state)
    for actor in runners:
        back = clockwork.away_until(match, [actor], now)
        banks.since[actor] = max(now, back) if back is not None else now
    match.banks = banks.to_json()
    end = min((banks.ends(actor) for actor in runners), default=None)
    match.turn_time_left = None
    match.turn_deadline_at = end if asked is None else None
    match.turn_warnings_sent = clockwork.warnings_already_due(end - now) if end is not None else 0
    return end


def stop_all(match: Match) -> None:
    """Every bank stands (a Blitz claim's window runs instead)."""
    banks = Banks.of(match)
    banks.settle(core.now())
    match.banks = banks.to_json()
    match.turn_deadline_at = None


def run_out(match: Match, now: datetime) -> list[str]:
    """The running banks empty at ``now``."""
    banks = Banks.of(match)
    return sorted(actor for actor in banks.since if banks.ends(actor) <= now)


def _turn_end(match: Match, banks: Banks, now: datetime) -> None:
    """After the banks moved: the turn's deadline follows them, unless a question stops it."""
    match.banks = banks.to_json()
    if match.turn_deadline_at is not None and banks.since:
        match.turn_deadline_at = min(banks.ends(actor) for actor in banks.since)
        match.turn_warnings_sent = clockwork.warnings_already_due(match.turn_deadline_at - now)


def push_back(match: Match, mine: list[str], length: timedelta, now: datetime) -> None:
    """A vacation of the coach of ``mine``: its running banks stand for ``length`` more."""
    banks = Banks.of(match)
    for actor in mine:
        started = banks.since.get(actor)
        if started is None:
            continue
        if started <= now:
            banks.left[actor] = banks.left_at(actor, now)
            started = now
        banks.since[actor] = started + length
    _turn_end(match, banks, now)


def stood(match: Match, duration: timedelta) -> None:
    """The GM's pause or lock ended: the running banks ran for none of it."""
    banks = Banks.of(match)
    banks.since = {actor: at + duration for actor, at in banks.since.items()}
    match.banks = banks.to_json()


def extend(match: Match, delta: timedelta) -> None:
    """The GM extends the deadline: every running bank gains ``delta``."""
    banks = Banks.of(match)
    for actor in banks.since:
        banks.left[actor] += delta.total_seconds()
    match.banks = banks.to_json()


def end_at(match: Match, at: datetime) -> None:
    """The GM sets the turn's deadline: the running banks hold what runs until ``at``."""
    banks = Banks.of(match)
    now = core.now()
    for actor, started in banks.since.items():
        banks.left[actor] = max((at - max(started, now)).total_seconds(), 0.0)
        banks.since[actor] = max(started, now)
    match.banks = banks.to_json()


def ask_gm(match: Match, state: MatchState, out: list[str]) -> Post:
    """A bank ran out in a league whose GM rules then: the match is paused with a system post
    that says whose (returned); the GM extends the deadline, awards or ends the match, and
    resumes it."""
    post = core.new_post(
        match,
        state,
        kind=Post.Kind.SYSTEM,
        summary={"message": "bank_ran_out", "actors": out},
    )
    banks = Banks.of(match)
    if not match.paused and not match.locked:  # the clocks stand from the moment it ran out
        ends = [banks.ends(actor) for actor in out if actor in banks.since]
        match.clock_stopped_at = min(ends, default=core.now())
    match.paused = True
    core.touch(match)
    return post


def shown(match: Match, now: datetime) -> list[dict[str, Any]]:
    """Every side's bank as the match page shows it: ``actor``, ``seconds`` left now,
    ``running`` and, for a running one, ``ends_at`` (later than now by more than ``seconds``
    while its coach is away)."""
    banks = Banks.of(match)
    now = match.clock_stopped_at or now  # the GM's pause or lock stops every bank
    rows = []
    for actor in banks.left:
        running = actor in banks.since and not match.paused and not match.locked
        rows.append(
            {
                "actor": actor,
                "seconds": int(banks.left_at(actor, now)),
                "running": running,
                "ends_at": banks.ends(actor) if running else None,
            }
        )
    return rows
