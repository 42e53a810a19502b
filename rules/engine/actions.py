"""Value objects: declarations, answers, actors, events, errors, resolutions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .state import SIDES, TEAMS, MatchState, Pending

ACTIONS = (
    "move",
    "block",
    "blitz",
    "pass",
    "hand_off",
    "foul",
    "end_turn",
    "claim_blitz",
    # part 2: the match around the turns
    "start_match",
    "setup",
    "kick",
    "concede",
    # part 3: Bombardier
    "bomb",
    # inducements: the pre-match weather on its own (seed 003)
    "pregame_weather",
)
PLAYER_ACTIONS = frozenset(("move", "block", "blitz", "pass", "hand_off", "foul", "bomb"))
FACINGS = ("A", "Z", "1", "15")  # Ball & Chain: towards column A / Z, row 1 / row 15
DECISION_KINDS = (
    "reroll",
    "block_die",
    "push",
    "follow_up",
    "apothecary",
    "intercept",
    "reroll_approval",
    "blitz_claim",
    "touchback",
    # part 2 (optional extensions, rules/scenarios/README.md)
    "dump_off",
    "pass_block",
    "kick_or_receive",
    "high_kick",
    "kick_off_return",
    # part 3
    "piling_on",
    "bribe",
    "igor",
    "blood_lust",
    # part 4 (issue 16)
    "break_tackle",
    "wrestle",
    # issue 17: the agreed draw at full time (seed 000)
    "agree_draw",
)
ERROR_CODES = (
    "not_your_turn",
    "not_your_player",
    "player_cannot_act",
    "path_illegal",
    "too_far",
    "target_illegal",
    "blitz_used",
    "foul_used",
    "pass_used",
    "hand_off_used",
    "decision_pending",
    "no_decision_pending",
    "choice_illegal",
    "not_captain",
    # part 2
    "wrong_phase",
    "setup_illegal",
)


@dataclass(frozen=True, slots=True)
class Actor:
    """The coach who acts: ``home:captain``, ``away:rival``..."""

    team: str
    side: str

    @classmethod
    def parse(cls, text: str) -> Actor:
        team, _, side = text.partition(":")
        if team not in TEAMS or side not in SIDES:
            raise ValueError(f"an actor is TEAM:SIDE (home:captain, away:rival...), not {text!r}")
        return cls(team, side)

    def __str__(self) -> str:
        return f"{self.team}:{self.side}"


class Declaration(NamedTuple):
    """One declared action (a NamedTuple: immutable, hashable and cheap to build, which
    random play and the benchmark do tens of thousands of times)."""

    player: str | None
    action: str
    path: tuple[str, ...] = ()
    target: str | None = None
    then: tuple[str, ...] = ()
    throw: str | None = None  # Throw Team-Mate: the team-mate thrown at ``target`` (a square)
    placements: tuple[tuple[str, str], ...] = ()  # setup: (player id, square) pairs
    target2: str | None = None  # Multiple Block: the second opponent blocked
    stab: bool = False  # Stab instead of the block of a Block or Blitz
    gaze: str | None = None  # Hypnotic Gaze at the end of a move: the opponent gazed at
    facings: tuple[str, ...] = ()  # Ball & Chain: the template's facing for each square

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Declaration:
        action = d.get("action")
        if action not in ACTIONS:
            raise ValueError(f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
        player = d.get("player")
        if player is not None and not isinstance(player, str):
            raise ValueError(f"player must be a player id, not {player!r}")
        target = d.get("target")
        if target is not None and not isinstance(target, str):
            raise ValueError(f"target must be a player id or a square, not {target!r}")
        path = d.get("path", [])
        then = d.get("then", [])
        for name, seq in (("path", path), ("then", then)):
            if not isinstance(seq, list | tuple) or not all(isinstance(s, str) for s in seq):
                raise ValueError(f"{name} must be a list of squares")
        throw = d.get("throw")
        if throw is not None and not isinstance(throw, str):
            raise ValueError(f"throw must be a player id, not {throw!r}")
        placements = d.get("placements", {})
        if not isinstance(placements, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in placements.items()
        ):
            raise ValueError("placements must be an object {player id: square}")
        target2 = d.get("target2")
        gaze = d.get("gaze")
        for name, v in (("target2", target2), ("gaze", gaze)):
            if v is not None and not isinstance(v, str):
                raise ValueError(f"{name} must be a player id, not {v!r}")
        stab = d.get("stab", False)
        if not isinstance(stab, bool):
            raise ValueError(f"stab must be true or false, not {stab!r}")
        facings = d.get("facings", [])
        if not isinstance(facings, list | tuple) or not all(f in FACINGS for f in facings):
            raise ValueError(f"facings must be a list of {', '.join(FACINGS)}")
        return cls(
            player,
            action,
            tuple(path),
            target,
            tuple(then),
            throw,
            tuple(sorted(placements.items())),
            target2,
            stab,
            gaze,
            tuple(facings),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "action": self.action}
        if self.path:
            out["path"] = list(self.path)
        if self.target is not None:
            out["target"] = self.target
        if self.then:
            out["then"] = list(self.then)
        if self.throw is not None:
            out["throw"] = self.throw
        if self.placements or self.action == "setup":
            out["placements"] = dict(self.placements)
        if self.target2 is not None:
            out["target2"] = self.target2
        if self.stab:
            out["stab"] = True
        if self.gaze is not None:
            out["gaze"] = self.gaze
        if self.facings:
            out["facings"] = list(self.facings)
        return out


@dataclass(frozen=True, slots=True)
class Answer:
    kind: str
    choice: str | int | bool

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Answer:
        kind = d.get("kind")
        if kind not in DECISION_KINDS:
            raise ValueError(f"kind must be one of {', '.join(DECISION_KINDS)}, not {kind!r}")
        choice = d.get("choice")
        if not isinstance(choice, str | int | bool):
            raise ValueError(f"choice must be a string, an integer or a boolean, not {choice!r}")
        return cls(kind, choice)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "choice": self.choice}


@dataclass(frozen=True, slots=True)
class IllegalAction:
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


@dataclass(slots=True)
class Event:
    type: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}


@dataclass(slots=True)
class Resolution:
    state: MatchState
    events: list[Event]
    pending: Pending | None
    # when pending: the half-done state at the decision, for display only (never stored)
    partial: MatchState | None = None

    @property
    def dice_read(self) -> int:
        """Faces read by this resolution (also when it stopped at a decision)."""
        return sum(len(e.data.get("faces", ())) for e in self.events)
