"""bbweb's rules engine: pure Python, deterministic, no Django.

Validate with ``legal``, apply with ``resolve``; a resolution that needs a coach's decision
returns ``pending`` and the unchanged state, and is resolved again with one more answer.
``resolve(..., policy=...)`` answers decisions inline instead (random play, standing orders):
the same result as stopping and resolving again with the same answers.
"""

from .actions import (
    Actor,
    Answer,
    Declaration,
    Event,
    IllegalAction,
    Resolution,
)
from .context import InvalidAnswer, Policy, Watch
from .dice import Dice, DiceExhausted, FairDice, ScriptedDice, commitment
from .legal import check_answer, legal, legal_declarations
from .match import PlayerSheet, TeamSheet, new_match
from .options import options as options
from .preview import chance, legal_actions, preview
from .resolve import contest_winner, continue_with, resolve
from .ruleset import LRB5, SplitTeam, ruleset_for
from .state import MatchState, Pending, Player, Team, compacted

__all__ = [
    "LRB5",
    "Actor",
    "Answer",
    "Declaration",
    "Dice",
    "DiceExhausted",
    "Event",
    "FairDice",
    "IllegalAction",
    "InvalidAnswer",
    "MatchState",
    "Pending",
    "Player",
    "PlayerSheet",
    "Policy",
    "Resolution",
    "ScriptedDice",
    "SplitTeam",
    "Team",
    "TeamSheet",
    "Watch",
    "chance",
    "check_answer",
    "commitment",
    "compacted",
    "contest_winner",
    "continue_with",
    "legal",
    "legal_actions",
    "legal_declarations",
    "new_match",
    "preview",
    "resolve",
    "ruleset_for",
]
