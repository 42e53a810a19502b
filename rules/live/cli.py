"""The contract's command (shared/LIVE.md): one challenge as JSON in, one line of JSON out.
``manage.py live_challenge FILE`` calls :func:`main`; :func:`run` is the same on parsed data."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from rules.live.challenge import (
    BadThrow,
    ChallengeError,
    Decided,
    Outcome,
    Participant,
    Throw,
    resolve_group,
    resolve_levelless,
    resolve_levels,
)

EXIT_DECIDED, EXIT_NEEDS_THROW, EXIT_BAD_INPUT = 0, 1, 2
BAD = ChallengeError.code  # the contract's name for input that is not a challenge


def run(data: object) -> tuple[dict[str, Any], int]:
    """The output line and the exit status for one challenge."""
    try:
        return _run(data)
    except ChallengeError as exc:
        return {"ok": False, "error": exc.code, "message": str(exc)}, EXIT_BAD_INPUT


def _run(data: object) -> tuple[dict[str, Any], int]:
    if not isinstance(data, dict):
        raise ChallengeError("a challenge is a JSON object")
    kind = data.get("kind")
    throws = data.get("throws")
    if not isinstance(throws, list):
        raise ChallengeError('"throws" is a list')
    if kind == "group":
        attackers = data.get("attackers")
        if not isinstance(attackers, list):
            raise ChallengeError('"attackers" is a list')
        group = resolve_group(
            [_participant(a, "attackers[]") for a in attackers],
            _participant(data.get("defender"), "defender"),
            [_group_item(item) for item in throws],
        )
        if group.needs_throw:
            return {"ok": False, "needs_throw": group.needs_throw}, EXIT_NEEDS_THROW
        pairs = {
            aid: {"winner": out.winner, "throws_used": out.throws_used}
            for aid, out in group.pairs.items()
            if isinstance(out, Decided)
        }
        return {"ok": True, "pairs": pairs, "defender_falls": group.defender_falls}, EXIT_DECIDED
    if kind not in ("levels", "levelless"):
        raise ChallengeError('"kind" is "levels", "levelless" or "group"')
    a = _participant(data.get("a"), "a", levels=kind == "levels")
    b = _participant(data.get("b"), "b", levels=kind == "levels")
    if a.id == b.id:
        raise ChallengeError("the two participants need different ids")
    pairs_thrown = [_pair(item) for item in throws]
    outcome: Outcome
    if kind == "levels":
        outcome = resolve_levels(a.id, a.level, b.id, b.level, pairs_thrown)
    else:
        tie_to = data.get("tie_to")
        if tie_to is not None and tie_to not in (a.id, b.id):
            raise ChallengeError('"tie_to" names one of the two participants')
        outcome = resolve_levelless(a.id, b.id, pairs_thrown, tie_to=tie_to)
    if isinstance(outcome, Decided):
        return {"ok": True, "winner": outcome.winner, "throws_used": outcome.throws_used}, 0
    return {"ok": False, "needs_throw": [a.id, b.id]}, EXIT_NEEDS_THROW


def _participant(value: object, where: str, *, levels: bool = True) -> Participant:
    if not isinstance(value, dict) or not isinstance(value.get("id"), str) or not value["id"]:
        raise ChallengeError(f"{where} needs an id (a string)")
    level = value.get("level", 0) if levels else 0
    if levels and (not isinstance(level, int) or isinstance(level, bool)):
        raise ChallengeError(f"{where}'s level is an integer")
    return Participant(value["id"], level)


def _pair(item: object) -> tuple[Throw, Throw]:
    if not isinstance(item, list) or len(item) != 2:
        raise BadThrow(f"{item!r} is not [a's throw, b's throw]")
    return item[0], item[1]


def _group_item(item: object) -> Mapping[str, Throw]:
    if not isinstance(item, dict):
        raise BadThrow(f"{item!r} is not an object of throws by id")
    return item


def main(argv: Sequence[str], out: Any = None) -> int:
    """Read FILE ("-": standard input), print the line, return the exit status."""
    out = out or sys.stdout
    if len(argv) != 1:
        print(json.dumps({"ok": False, "error": BAD, "message": "usage: FILE"}), file=out)
        return EXIT_BAD_INPUT
    try:
        if argv[0] == "-":
            text = sys.stdin.read()
        else:
            with open(argv[0], encoding="utf-8") as handle:
                text = handle.read()
        data = json.loads(text.removeprefix("\ufeff"))  # a byte-order mark is no content
    except (OSError, ValueError, RecursionError) as exc:
        message = "nested too deep" if isinstance(exc, RecursionError) else str(exc)
        result, status = {"ok": False, "error": BAD, "message": message}, EXIT_BAD_INPUT
    else:
        result, status = run(data)
    print(json.dumps(result, ensure_ascii=False), file=out)
    if status == EXIT_BAD_INPUT:  # and the reason in one line for whoever reads the terminal
        print(f"{argv[0]}: not a challenge: {result['message']}", file=sys.stderr)
    return status
