"""deadlines: the beat sweep that applies expired deadlines, and the warnings before them.

Every deadline is a column: ``Match.turn_deadline_at`` (the active team's clock) and
``Decision.deadline_at`` (an open question). The beat sweep finds the expired ones through
their indexes and applies them in batches of up to SWEEP_BATCH matches, one transaction each,
holding the match rows FOR UPDATE SKIP LOCKED: a match another transaction holds is left to
the next sweep, and each deadline is checked again under the lock, so two sweeps at once never
apply one deadline twice, and a sweep that dies rolls its batch back whole. ``buffer`` keeps a
batch's rows and writes them in bulk; a match it cannot buffer, or one that fails there, is
applied alone in a savepoint, and a match that fails alone too is logged and left for the next
sweep without holding the others back. The steps of the pre- and post-match sequences have
deadlines too, applied here with their defaults.

A sweep may be given a ``Budget`` of seconds: it starts no batch (nor warning, nor sequence
step) that would end past it, judging by the longest one so far, so a sweep that would pass its
task's soft time limit stops between two transactions and leaves the rest to the next sweep.
"""

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from matches.models import CoachPreferences, Decision, Match, Notice, Post, Sequence
from matches.record import economy
from matches.services import banks, buffer, core, hooks, jobs
from matches.services.clocks import DEFAULT_TURN_HOURS, run_turn_clock, start_turn_clock
from matches.services.clockwork import WARNINGS
from matches.services.core import (
    load_state,
    locked_match,
    locked_unless_busy,
    new_post,
    refuse_if_illegal,
    touch,
)
from matches.services.play import default_decision, settle_resolution
from matches.services.postmatch import (
    decide_reroll,
    give_awards,
    maybe_settle_awards,
    mvp_eligible,
    take_advancement,
)
from matches.services.prematch import after_petty_cash, pre_match_team, record_inducements
from matches.services.sequence import (
    drawn_for,
    roll_sequence,
    sequence,
    step_post,
    team_of,
    team_records,
)
from rules.engine import Declaration, MatchState, legal, resolve, ruleset_for
from rules.engine.lineup import SETUP_PHASES, default_kick, default_setup, setups_awaited
from teams.models import League

log = logging.getLogger(__name__)

# Matches per transaction: larger batches save little more, and hold their rows locked longer
# (a coach posting in one of them waits for the batch, a tenth of a second or so).
SWEEP_BATCH = 100


@dataclass(frozen=True)
class SweepReport:
    decisions: int = 0
    turns: int = 0
    warnings: int = 0
    stopped: bool = False  # the budget ran out: the next sweep does the rest

    @property
    def applied(self) -> int:
        return self.decisions + self.turns


@dataclass
class _Due:
    """One match's expired deadlines: its open decisions, then (``turn``) its team turn, whose
    clock a default may also have restarted."""

    decisions: list[int]
    turn: bool


@dataclass
class Budget:
    """The seconds a sweep may take. ``allows`` says whether one more step (a batch, a
    warning, a sequence step) fits, judging by the longest step so far; once one did not, none
    does (the sweep stops at that point)."""

    seconds: float
    clock: Callable[[], float] = time.monotonic
    started: float = field(init=False)
    longest: float = field(init=False, default=0.0)
    stopped: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.started = self.clock()

    def allows(self) -> bool:
        if not self.stopped and self.clock() + self.longest > self.started + self.seconds:
            self.stopped = True
        return not self.stopped

    @contextmanager
    def step(self) -> Iterator[None]:
        began = self.clock()
        yield
        self.longest = max(self.longest, self.clock() - began)


def sweep(
    now: datetime | None = None, limit: int = 1000, budget: Budget | None = None
) -> SweepReport:
    """What the beat runs every 30 seconds: expired deadlines, then the 24 h and 2 h warnings
    and the reminders people chose (both counted as warnings)."""
    now = now or core.now()
    budget = budget or Budget(float("inf"))
    decisions, turns = _expire(now, limit, decisions=True, turns=True, budget=budget)
    warnings = send_deadline_warnings(now, limit, budget)
    warnings += send_reminders(now, limit, budget)
    if budget.stopped:
        log.warning("sweep: stopped before its time limit; the next sweep does the rest")
    return SweepReport(decisions, turns, warnings, budget.stopped)


def expire_deadlines(now: datetime | None = None, limit: int = 1000) -> int:
    """Apply every deadline that has passed, each exactly once; returns how many were applied."""
    return sum(_expire(now or core.now(), limit, decisions=True, turns=True))


def expire_decisions(now: datetime, limit: int = 1000) -> int:
    return _expire(now, limit, decisions=True, turns=False)[0]


def expire_turns(now: datetime, limit: int = 1000) -> int:
    return _expire(now, limit, decisions=False, turns=True)[1]


def _expire(
    now: datetime, limit: int, *, decisions: bool, turns: bool, budget: Budget | None = None
) -> tuple[int, int]:
    """(decisions, turns) applied: up to ``limit`` of each kind, the earliest first."""
    due: dict[int, _Due] = {}
    if decisions:
        for decision_id, match_id in (
            Decision.objects.filter(answered_at__isnull=True, deadline_at__lte=now)
            .exclude(Q(match__paused=True) | Q(match__locked=True))  # the GM holds the clock
            .order_by("deadline_at")
            .values_list("pk", "match_id")[:limit]
        ):
            due.setdefault(match_id, _Due([], turns)).decisions.append(decision_id)
    if turns:
        for match_id in (
            Match.objects.filter(
                turn_deadline_at__lte=now, status=Match.Status.IN_PLAY, paused=False, locked=False
            )
            .order_by("turn_deadline_at")
            .values_list("pk", flat=True)[:limit]
        ):
            due.setdefault(match_id, _Due([], True)).turn = True
    matches = list(due.items())
    budget = budget or Budget(float("inf"))
    counts = []
    for start in range(0, len(matches), SWEEP_BATCH):
        if not budget.allows():
            log.info("sweep: %d matches' deadlines left to the next sweep", len(matches) - start)
            break
        with budget.step():
            counts.append(expire_batch(matches[start : start + SWEEP_BATCH], now))
    return _add(counts)


def expire_batch(matches: list[tuple[int, _Due]], now: datetime) -> tuple[int, int]:
    try:
        with transaction.atomic():
            return expire_together(matches, now)
    except DatabaseError:
        log.warning(
            "a batch of %d matches' deadlines failed; applying them one by one",
            len(matches),
            exc_info=True,
        )
        return _add(_expire_alone(match_id, due, now) for match_id, due in matches)


def expire_together(matches: list[tuple[int, _Due]], now: datetime) -> tuple[int, int]:
    """One transaction: the batch's match rows locked at once, their deadlines applied in
    memory, and everything they wrote inserted and updated in bulk."""
    claimed = list(
        Match.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("home_team", "away_team", "league")
        .filter(pk__in=[match_id for match_id, _due in matches])
    )
    batch = buffer.Batch(claimed, core.now())
    counts = []
    for match_id, due in matches:
        match = batch.matches.get(match_id)
        if match is None:
            continue  # another transaction holds it: the next sweep tries again
        try:
            with batch.buffering(match):
                counts.append(_apply_due(match, due, now))
        except SoftTimeLimitExceeded:
            raise
        except Exception as error:
            if not isinstance(error, buffer.Unbuffered):
                log.warning(
                    "match %s failed in a batch; applying it alone", match_id, exc_info=True
                )
            counts.append(_expire_alone(match_id, due, now))
    queued = batch.flush()
    if queued:
        jobs.enqueue_on_commit(jobs.ENQUEUE_ALL, queued)  # one message for the whole batch
    return _add(counts)


def _apply_due(match: Match, due: _Due, now: datetime) -> tuple[int, int]:
    decisions = sum(_default_if_due(match, decision_id, now) for decision_id in due.decisions)
    return decisions, _end_turn_if_due(match, now) if due.turn else 0


def _expire_alone(match_id: int, due: _Due, now: datetime) -> tuple[int, int]:
    """One match's deadlines, each in its own transaction (a savepoint inside a batch)."""
    decisions = turns = 0
    try:
        for decision_id in due.decisions:
            decisions += _expire_decision(match_id, decision_id, now)
        if due.turn:
            turns = _expire_turn(match_id, now)
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        log.exception("the deadlines of match %s could not be applied", match_id)
    return decisions, turns


def _add(counts: Iterable[tuple[int, int]]) -> tuple[int, int]:
    decisions = turns = 0
    for d, t in counts:
        decisions, turns = decisions + d, turns + t
    return decisions, turns


def _expire_decision(match_id: int, decision_id: int, now: datetime) -> int:
    with transaction.atomic():
        match = locked_unless_busy(match_id)
        return 0 if match is None else _default_if_due(match, decision_id, now)


def _default_if_due(match: Match, decision_id: int, now: datetime) -> int:
    """The decision takes its default, if it is still open and its deadline has passed (the
    match is locked)."""
    if match.status != Match.Status.IN_PLAY:
        return 0
    writes = buffer.current()
    if writes is not None:
        decision = next(
            (
                d
                for d in writes.open
                if d.pk == decision_id
                and d.answered_at is None
                and d.deadline_at is not None
                and d.deadline_at <= now
            ),
            None,
        )
    else:
        decision = (
            Decision.objects.select_for_update()
            .filter(pk=decision_id, match=match, answered_at__isnull=True, deadline_at__lte=now)
            .first()
        )
    if decision is None:
        return 0
    if banks.asks_gm(match) and decision.kind != "blitz_claim":
        _ask_gm(match, load_state(match), [decision.to])
        return 1
    default_decision(match, decision)
    return 1


def _ask_gm(match: Match, state: MatchState, out: list[str]) -> None:
    """The match waits for its GM (``banks.ask_gm``), who is told by mail."""
    post = banks.ask_gm(match, state, out)
    jobs.notify_on_commit("gm_needed", match, ["gm"], f"bank:{post.number}", ran_out=out)


# -- deadlines of the sequence --------------------------------------------------------------------


def expire_sequence_deadlines(now: Any = None, budget: Budget | None = None) -> int:
    """Apply the default of every sequence step whose deadline passed: no petty cash, no
    inducements, the winnings die kept, random eligible MVPs (from the sequence's dice), a
    random normal skill for an improvement. Returns how many steps were applied."""
    now = now or timezone.now()
    budget = budget or Budget(float("inf"))
    applied = 0
    due = list(Sequence.objects.filter(deadline_at__lte=now).values_list("match_id", flat=True))
    for match_id in due:
        if not budget.allows():
            break
        with budget.step(), transaction.atomic():
            match = locked_match(match_id)
            seq = sequence(match)
            if seq.deadline_at is None or seq.deadline_at > now:
                continue
            applied += _apply_step_default(match, seq, now)
            touch(match)
    return applied


def _apply_step_default(match: Match, seq: Sequence, now: Any) -> int:
    if seq.step in (Sequence.Step.PETTY_CASH_FAVOURITE, Sequence.Step.PETTY_CASH_UNDERDOG):
        key = pre_match_team(seq, petty=True)
        record = team_records(match)[key]
        for side in ("captain", "rival"):
            if getattr(record, f"petty_cash_{side}") is None:
                setattr(record, f"petty_cash_{side}", 0)
                record.save(update_fields=[f"petty_cash_{side}"])
                step_post(match, "petty_cash", team=key, side=side, amount=0, default=True)
        after_petty_cash(match, seq, by_default=True)
        return 1
    if seq.step in (Sequence.Step.INDUCEMENTS_FAVOURITE, Sequence.Step.INDUCEMENTS_UNDERDOG):
        key = pre_match_team(seq, petty=False)
        team = team_of(match, key)
        record_inducements(match, seq, team, team_records(match)[key], economy.Order(), author=None)
        return 1
    if seq.step == Sequence.Step.AWARDS:
        for key, record in team_records(match).items():
            if record.winnings_reroll is None:
                decide_reroll(match, seq, record, False, author=None)
            if not record.mvp_chosen:
                eligible = mvp_eligible(match, key)
                first = roll_sequence(match, seq, sides=len(eligible))
                mje = eligible[first.faces[0] - 1]
                rest = [pid for pid in eligible if pid != mje] or [mje]
                second = roll_sequence(match, seq, sides=len(rest))
                pje = rest[second.faces[0] - 1]
                give_awards(match, record, mje, pje, author=None, drawn=drawn_for(first, second))
        seq.save()
        maybe_settle_awards(match, seq)
        return 1
    if seq.step == Sequence.Step.ADVANCEMENT:
        count = 0
        for adv in match.advancements.select_related("player").filter(
            chosen_at__isnull=True, deadline_at__lte=now
        ):
            candidates = [o for o in adv.options if not o.startswith("+")] or adv.options
            draw = roll_sequence(match, seq, sides=len(candidates))
            pick = candidates[draw.faces[0] - 1]
            take_advancement(match, seq, adv, adv.player, pick, author=None, drawn=drawn_for(draw))
            count += 1
        seq.save()
        return count
    seq.deadline_at = None
    seq.save()
    return 0


def _expire_turn(match_id: int, now: datetime) -> int:
    with transaction.atomic():
        match = locked_unless_busy(match_id)
        return 0 if match is None else _end_turn_if_due(match, now)


def _end_turn_if_due(match: Match, now: datetime) -> int:
    """The missed team turn ends, if its deadline has passed (the match is locked)."""
    if (
        match.status != Match.Status.IN_PLAY
        or match.paused
        or match.locked
        or match.turn_deadline_at is None
        or match.turn_deadline_at > now
    ):
        return 0
    state = load_state(match)
    if state.pending is not None:  # the clock should have been paused: pause it now
        run_turn_clock(match, paused=True)
        touch(match)
        return 0
    out = None  # with the time bank, only the sides whose banks ran out miss their part
    if banks.uses_bank(match):
        out = banks.run_out(match, now)
        if not out:  # the banks moved since the deadline was read
            banks.follow(match, state)
            touch(match)
            return 0
        if banks.asks_gm(match):
            _ask_gm(match, state, out)
            return 1
    if state.phase in SETUP_PHASES:
        _default_setups(match, state, out)
        return 1
    if state.phase == "kickoff":
        _default_kick(match, state)
        return 1
    team = state.active
    ends = _missed_turn_ends(state, out)
    post = new_post(
        match,
        state,
        kind=Post.Kind.SYSTEM,
        summary={
            "message": "deadline_passed",
            "deadline": "turn",
            "team": team,
            "phase": state.phase,
            "sides": [actor.split(":")[1] for actor, _decl in ends],
            "gm_needed": not ends,
        },
    )
    match.turn_deadline_at = None
    match.turn_time_left = None
    for number, (actor, decl) in enumerate(ends):
        if number:
            state = load_state(match)  # as the side before ended it
        if legal(state, actor, decl) is not None:
            continue
        resolution = resolve(state, actor, decl, (), core.dice_for(match))
        if settle_resolution(match, state, actor, decl, (), resolution, post) is not None:
            break
    touch(match)
    absent = [actor for actor, _decl in ends] or [f"{team}:captain"]
    jobs.notify_on_commit(
        "applied",
        match,
        absent,
        f"turn:{post.half}:{team}:{post.turn}:{post.number}",
        what="turn",
    )
    return 1


def _default_setups(match: Match, state: MatchState, only: list[str] | None = None) -> None:
    """A missed set-up: each side the match waits for posts its default set-up (its coach's
    last set-up in this match when it still fits, else the engine's: ``lineup.default_setup``)
    under one system post that says so, and play goes on. When the other team must set up
    next, its clock starts afresh. ``only``: the sides whose time banks ran out."""
    rs = ruleset_for(state)
    awaited = setups_awaited(state, rs.sides())
    team = awaited[0][0] if awaited else state.kicking
    awaited = [(t, side) for t, side in awaited if only is None or f"{t}:{side}" in only]
    saved = {side: _saved_formation(match, f"{team}:{side}") for _t, side in awaited}
    # a side with a formation of its own posts it first; the engine's completes the team
    sides = sorted(saved, key=lambda side: not saved[side])
    post = new_post(
        match,
        state,
        kind=Post.Kind.SYSTEM,
        summary={
            "message": "default_setup",
            "deadline": "setup",
            "team": team,
            "phase": state.phase,
            "sides": sides,
            "default": True,
        },
    )
    match.turn_deadline_at = None
    match.turn_time_left = None
    phase = state.phase
    for number, side in enumerate(sides):
        if number:
            state = load_state(match)  # as the side before set up
        actor = f"{team}:{side}"
        decl = default_setup(state, team, side, rs.sides(), saved[side])
        problem = legal(state, actor, decl)
        if problem is not None:
            log.error("match %s: the default set-up of %s is illegal: %s", match.pk, actor, problem)
            break
        resolution = resolve(state, actor, decl, (), core.dice_for(match))
        if settle_resolution(match, state, actor, decl, (), resolution, post) is not None:
            break
    after = load_state(match)
    if after.phase == phase and setups_awaited(after, rs.sides()) and after.pending is None:
        start_turn_clock(match, after)
    touch(match)
    actors = [f"{team}:{side}" for side in sides] or [f"{team}:captain"]
    jobs.notify_on_commit("applied", match, actors, f"setup:{post.number}", what="setup")


def _default_kick(match: Match, state: MatchState) -> None:
    """A missed kick: the captain of the kicking team kicks to the centre of the receiving half
    (``lineup.default_kick``), under a system post that says so."""
    actor = ruleset_for(state).captain(state.kicking)
    post = new_post(
        match,
        state,
        kind=Post.Kind.SYSTEM,
        summary={"message": "default_kick", "deadline": "kick", "team": state.kicking},
    )
    match.turn_deadline_at = None
    match.turn_time_left = None
    decl = default_kick(state)
    refuse_if_illegal(legal(state, actor, decl))
    resolution = resolve(state, actor, decl, (), core.dice_for(match))
    settle_resolution(match, state, actor, decl, (), resolution, post)
    touch(match)
    jobs.notify_on_commit("applied", match, [actor], f"kick:{post.number}", what="kick")


def _saved_formation(match: Match, actor: str) -> dict[str, str]:
    """The coach's formation: the side's last kick-off set-up posted in this match."""
    posted = (
        Post.objects.filter(
            match=match,
            kind=Post.Kind.DECLARATION,
            actor=actor,
            declaration__action="setup",
            undone_by__isnull=True,  # a set-up a GM's rewind took back is not the coach's
        )
        .order_by("-number")
        .values_list("declaration", flat=True)
        .first()
    )
    placements = (posted or {}).get("placements") or {}
    return {str(pid): str(sq) for pid, sq in placements.items()}


def _missed_turn_ends(
    state: MatchState, only: list[str] | None = None
) -> list[tuple[str, Declaration]]:
    """A missed team turn ends: each side that has not ended it (of ``only``, those whose
    banks ran out) declares end_turn, so its players who have not acted do nothing. Set-ups
    and the kick have defaults of their own (above); anywhere else the system post asks the
    GM to step in."""
    rs = ruleset_for(state)
    team = state.active
    end = Declaration(None, "end_turn")
    return [
        (f"{team}:{side}", end)
        for side in rs.sides()
        if side not in state.teams[team].ended
        and (only is None or f"{team}:{side}" in only)
        and legal(state, f"{team}:{side}", end) is None
    ]


def _warning_key(match_id: int, key: str) -> str:
    """A notice's key is unique per coach across every match: it names its kind and match
    (as ``jobs.notify_on_commit`` does), or the same turn of another match looks sent."""
    return f"warning:{match_id}:{key}"


def _announce_near(match_id: int, actor: str, key: str) -> None:
    """Tell the league's hooks of a deadline near."""
    match = Match.objects.select_related("home_team", "away_team").get(pk=match_id)
    decision = key.startswith("decision:")
    deadline = (
        Decision.objects.get(pk=int(key.split(":")[1])).deadline_at
        if decision
        else match.turn_deadline_at
    )
    side = actor.partition(":")[0]
    when = deadline.isoformat() if deadline else None
    hooks.announce_match(match, "deadline_near", key, side=side, deadline=when, decision=decision)


def send_deadline_warnings(
    now: datetime | None = None, limit: int = 1000, budget: Budget | None = None
) -> int:
    """The 24-hour and 2-hour notices, each sent once per deadline (compare-and-set on the
    row's warning stage; the notice's unique key guards the e-mail itself)."""
    now = now or core.now()
    budget = budget or Budget(float("inf"))
    sent = 0
    hooked = hooks.leagues_wanting("deadline_near")  # one query: most sweeps tell no hook
    for stage, ahead in WARNINGS:
        decisions = Decision.objects.filter(
            answered_at__isnull=True,
            contested_at__isnull=True,
            deadline_at__gt=now,
            deadline_at__lte=now + ahead,
            warnings_sent__lt=stage,
        ).values_list("pk", "match_id", "to", "match__league_id")[:limit]
        for pk, match_id, to, league_id in decisions:
            if not budget.allows():
                return sent
            with budget.step(), transaction.atomic():
                if Decision.objects.filter(pk=pk, warnings_sent__lt=stage).update(
                    warnings_sent=stage
                ):
                    jobs.enqueue_on_commit(
                        jobs.NOTIFY,
                        "warning",
                        match_id,
                        [to],
                        _warning_key(match_id, f"decision:{pk}:{stage}"),
                        {},
                    )
                    if league_id in hooked:
                        _announce_near(match_id, to, f"decision:{pk}:{stage}")
                    sent += 1
        turns = Match.objects.filter(
            status=Match.Status.IN_PLAY,
            turn_deadline_at__gt=now,
            turn_deadline_at__lte=now + ahead,
            turn_warnings_sent__lt=stage,
        ).values_list("pk", "state", "league_id")[:limit]
        for match_id, state_json, league_id in turns:
            active = state_json.get("active", "home")
            turn = state_json.get("turn", {}).get(active, 0)
            if not budget.allows():
                return sent
            with budget.step(), transaction.atomic():
                if Match.objects.filter(pk=match_id, turn_warnings_sent__lt=stage).update(
                    turn_warnings_sent=stage
                ):
                    key = f"turn:{state_json.get('half', 1)}:{active}:{turn}:{stage}"
                    actors = [f"{active}:captain", f"{active}:rival"]
                    jobs.enqueue_on_commit(
                        jobs.NOTIFY, "warning", match_id, actors, _warning_key(match_id, key), {}
                    )
                    if league_id in hooked:
                        _announce_near(match_id, active, key)
                    sent += 1
    return sent


# -- the reminders each person chose ------------------------------------------------------------


def reminder_key(match_id: int, deadline: str, hours: int) -> str:
    """A reminder's notice key: its match, its deadline ("decision:PK", "turn:HALF:TEAM:TURN", or
    with the time bank "turn:HALF:TEAM:TURN:TEAM:SIDE") and how long before it, so that each
    goes once."""
    return f"reminder:{match_id}:{deadline}:{hours}"


@dataclass(frozen=True)
class _Open:
    """An open deadline of one match: its key, when it falls, when it was set, and to whom."""

    match_id: int
    deadline: str
    at: datetime
    set_at: datetime
    actors: tuple[str, ...]


def send_reminders(
    now: datetime | None = None, limit: int = 1000, budget: Budget | None = None
) -> int:
    """The reminders people chose (CoachPreferences.reminder_hours), before their own deadlines,
    in place of the fixed warnings. At each deadline a person hears the latest of their
    reminders whose time has come, once (its notice row is written here with the task that
    sends it, one transaction, and its unique key stops a second); one whose time came before
    the deadline was set is not sent (the notice that set it said when it falls), nor are the
    earlier ones a late sweep skipped over. Returns how many were queued."""
    now = now or core.now()
    budget = budget or Budget(float("inf"))
    chosen: dict[int, list[int]] = dict(
        CoachPreferences.objects.exclude(reminder_hours=[]).values_list("user_id", "reminder_hours")
    )
    if not chosen:
        return 0  # one query: most servers' sweeps stop here
    horizon = now + timedelta(hours=max(max(hours) for hours in chosen.values()))
    due = _open_deadlines(now, horizon, limit)
    coaches = {
        row[0]: row[1:]
        for row in Match.objects.filter(pk__in={d.match_id for d in due}).values_list(
            "pk",
            "home_team__captain_id",
            "home_team__rival_id",
            "away_team__captain_id",
            "away_team__rival_id",
        )
    }
    wanted: dict[tuple[int, str], tuple[int, str, int]] = {}
    for deadline in due:
        for user_id in {_coach(coaches[deadline.match_id], a) for a in deadline.actors}:
            hours = _latest_due(chosen.get(user_id, []), deadline, now)
            if hours is not None:
                key = reminder_key(deadline.match_id, deadline.deadline, hours)
                wanted[(user_id, key)] = (deadline.match_id, deadline.deadline, hours)
    known = set(
        Notice.objects.filter(
            user_id__in={user for user, _key in wanted}, key__in={key for _user, key in wanted}
        ).values_list("user_id", "key")
    )
    queued = 0
    for (user_id, key), (match_id, deadline_key, hours) in wanted.items():
        if (user_id, key) in known:
            continue
        if not budget.allows():
            break
        args = [user_id, match_id, deadline_key, hours]
        with budget.step():
            try:
                with transaction.atomic():
                    Notice.objects.create(
                        user_id=user_id,
                        match_id=match_id,
                        kind="warning",
                        key=key,
                        sent=False,
                        resend=[jobs.REMIND, args],
                    )
                    jobs.enqueue_on_commit(jobs.REMIND, *args)
            except IntegrityError:
                continue  # a sweep at the same time queued it
            queued += 1
    return queued


def _open_deadlines(now: datetime, horizon: datetime, limit: int) -> list[_Open]:
    """The open deadlines that fall between now and ``horizon``, of matches whose clocks run."""
    found = []
    for pk, match_id, to, at, created in Decision.objects.filter(
        answered_at__isnull=True,
        contested_at__isnull=True,
        deadline_at__gt=now,
        deadline_at__lte=horizon,
        match__paused=False,
        match__locked=False,
    ).values_list("pk", "match_id", "to", "deadline_at", "created_at")[:limit]:
        if at is not None:  # the filter says so; the column may be empty
            found.append(_Open(match_id, f"decision:{pk}", at, created, (to,)))
    for match_id, state, at, hours, clock, bank in Match.objects.filter(
        status=Match.Status.IN_PLAY,
        paused=False,
        locked=False,
        turn_deadline_at__gt=now,
        turn_deadline_at__lte=horizon,
    ).values_list(
        "pk", "state", "turn_deadline_at", "league__turn_deadline_hours", "league__clock", "banks"
    )[:limit]:
        if at is None:
            continue
        team = state.get("active", "home")
        turn = f"turn:{state.get('half', 1)}:{team}:{state.get('turn', {}).get(team, 0)}"
        if clock == League.Clock.BANK and bank:
            found.extend(_bank_deadlines(match_id, turn, bank, now, horizon))
            continue
        # The turn's clock started its length before it falls (a vacation or a pause moved both).
        started = at - timedelta(hours=hours or DEFAULT_TURN_HOURS)
        found.append(_Open(match_id, turn, at, started, (f"{team}:captain", f"{team}:rival")))
    return found


def _bank_deadlines(
    match_id: int, turn: str, bank: dict[str, Any], now: datetime, horizon: datetime
) -> Iterator[_Open]:
    """With the time bank each side that must act has a deadline of its own: the moment its
    bank runs out, set when the bank last started running ("turn:...:TEAM:SIDE")."""
    banks_now = banks.Banks.from_json(bank)
    for actor, started in banks_now.since.items():
        ends = banks_now.ends(actor)
        if now < ends <= horizon:
            yield _Open(match_id, f"{turn}:{actor}", ends, started, (actor,))


def _coach(coaches: tuple[int, int | None, int, int | None], actor: str) -> int:
    """The user id of a TEAM:SIDE's coach, as ``actors.coach_of`` finds it."""
    team, _sep, side = actor.partition(":")
    captain, rival = coaches[:2] if team == "home" else coaches[2:]
    return captain if side == "captain" or rival is None else rival


def _latest_due(hours: list[int], deadline: _Open, now: datetime) -> int | None:
    """The shortest of a person's reminders whose time has come at this deadline, if its time
    came after the deadline was set."""
    come = [h for h in hours if deadline.at - timedelta(hours=h) <= now]
    if not come:
        return None
    latest = min(come)
    return latest if deadline.at - timedelta(hours=latest) >= deadline.set_at else None
