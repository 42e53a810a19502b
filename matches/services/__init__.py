"""The only write path of matches: every change of a match goes through a function here.

Each function takes the match row FOR UPDATE, asks the rules engine, appends the events and
the thread's posts, saves the new state with a bumped version, and schedules side effects with
``transaction.on_commit``. A request carrying an idempotency key the same user already used
is answered with what it did the first time and changes nothing.

One module per thing a user does, over a small shared core; callers outside the package use
the names re-exported here (``from matches import services``; ``services.declare(...)``).
From the bottom up (the layers are an import-linter contract in pyproject.toml):

- ``buffer``: the rows of a batch of the sweep, kept and written in bulk.
- ``core``: errors, the clock and the dice (the seams tests replace), locking a match,
  posts, appending events to the hash chain, folding the record.
- ``clocks``: deadlines and turn clocks; ``banks`` beneath them: the time bank, a league's
  other clock; ``clockwork``: what both ask (vacations' ends, warnings). ``jobs``: queueing
  Celery tasks, by name, on commit.
- ``sequence``: the steps shared by the pre- and post-match sequences.
- ``postmatch``: the post-match sequence (winnings, MVPs, SPP, injuries, advancements).
  ``absences``: standing orders and vacations. ``notices``: mentions, notification
  preferences, what awaits a coach.
- ``play``: declaring, answering, defaults, the Blitz claim.
- ``prematch``: creating a match, petty cash, inducements, the kick-off.
- ``fixtures``: scheduling matches, leagues and their fixtures. ``deadlines``: the beat sweep
  that applies expired deadlines, and the warnings. ``rulings``: disputes and the GM's
  control of a match. ``posts``: the thread's posts; closing a finished match.

Names with a leading underscore are private to the package: the modules share them, nothing
outside does but the tests.
"""

from matches.services import banks
from matches.services.absences import set_standing_orders, take_vacation, vacation_days_left
from matches.services.actors import AnyUser, actors_for, coached_by, is_match_gm, may_read
from matches.services.core import (
    GENESIS_HASH,
    MatchError,
    Outcome,
    chain_is_intact,
    fold,
    last_event_number,
    load_state,
    match_by_key,
    state_json,
)
from matches.services.deadlines import (
    Budget,
    SweepReport,
    expire_deadlines,
    expire_decisions,
    expire_sequence_deadlines,
    expire_turns,
    reminder_key,
    send_deadline_warnings,
    send_reminders,
    sweep,
)
from matches.services.fixtures import (
    LEAGUE_SETTINGS,
    add_fixture,
    create_league,
    generate_round_robin,
    join_league,
    may_schedule,
    may_schedule_any,
    schedule_match,
    start_fixture,
    update_league,
)
from matches.services.hooks import add_hook, new_secret, remove_hook, switch_hook
from matches.services.notices import Awaiting, awaiting, release_lapsed_notices, save_preferences
from matches.services.play import (
    adjudicate_blitz,
    answer,
    apply_default,
    declare,
    default_answer,
)
from matches.services.postmatch import choose_advancement, choose_mvp, mvp_eligible, reroll_winnings
from matches.services.posts import EDIT_WINDOW, close_match, edit_post, write_post
from matches.services.prematch import (
    buy_inducements,
    create_match,
    pre_match_team,
    transfer_petty_cash,
)
from matches.services.rulings import (
    end_match,
    extend_deadline,
    lock_match,
    pause_match,
    raise_dispute,
    replace_coach,
    resume_match,
    rewind_preview,
    rule_on_dispute,
    set_deadline,
    unlock_match,
)
from matches.services.seasons import (
    advance_bracket,
    close_season,
    current_season,
    open_next_season,
    seed_playoff,
    set_divisions,
    winner_of,
)
from matches.services.visits import CatchUp, record_visit

uses_bank = banks.uses_bank

__all__ = [
    "EDIT_WINDOW",
    "GENESIS_HASH",
    "LEAGUE_SETTINGS",
    "AnyUser",
    "Awaiting",
    "Budget",
    "CatchUp",
    "MatchError",
    "Outcome",
    "SweepReport",
    "actors_for",
    "add_fixture",
    "add_hook",
    "adjudicate_blitz",
    "advance_bracket",
    "answer",
    "apply_default",
    "awaiting",
    "banks",
    "buy_inducements",
    "chain_is_intact",
    "choose_advancement",
    "choose_mvp",
    "close_match",
    "close_season",
    "coached_by",
    "create_league",
    "create_match",
    "current_season",
    "declare",
    "default_answer",
    "edit_post",
    "end_match",
    "expire_deadlines",
    "expire_decisions",
    "expire_sequence_deadlines",
    "expire_turns",
    "extend_deadline",
    "fold",
    "generate_round_robin",
    "is_match_gm",
    "join_league",
    "last_event_number",
    "load_state",
    "lock_match",
    "match_by_key",
    "may_read",
    "may_schedule",
    "may_schedule_any",
    "mvp_eligible",
    "new_secret",
    "open_next_season",
    "pause_match",
    "pre_match_team",
    "raise_dispute",
    "record_visit",
    "release_lapsed_notices",
    "reminder_key",
    "remove_hook",
    "replace_coach",
    "reroll_winnings",
    "resume_match",
    "rewind_preview",
    "rule_on_dispute",
    "save_preferences",
    "schedule_match",
    "seed_playoff",
    "send_deadline_warnings",
    "send_reminders",
    "set_deadline",
    "set_divisions",
    "set_standing_orders",
    "start_fixture",
    "state_json",
    "sweep",
    "switch_hook",
    "take_vacation",
    "transfer_petty_cash",
    "unlock_match",
    "update_league",
    "uses_bank",
    "vacation_days_left",
    "winner_of",
    "write_post",
]
