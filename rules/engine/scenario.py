"""Scenario files (SCENARIOS.md): load, run, compare, and the command-line runner.

python -m rules.engine.scenario FILE.json|FOLDER ...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .actions import Actor, Answer, Declaration, Event
from .context import InvalidAnswer
from .dice import DiceExhausted, ScriptedDice
from .legal import check_answer, legal
from .resolve import continue_with, resolve
from .state import MatchState, Pending


class ScenarioFormatError(ValueError):
    """A file that is not a valid scenario; the message names the file and the field."""


def _fail(where: str, field: str, why: str) -> ScenarioFormatError:
    return ScenarioFormatError(f"{where}: {field}: {why}")


def load_scenario(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise _fail(str(p), "(file)", str(e)) from None
    except ValueError as e:  # not UTF-8, or not JSON
        raise _fail(str(p), "(json)", str(e)) from None
    except RecursionError:
        raise _fail(str(p), "(json)", "nested too deep") from None
    validate(data, str(p))
    return data  # type: ignore[no-any-return]


def validate(data: Any, where: str = "scenario") -> None:
    if not isinstance(data, dict):
        raise _fail(where, "(top)", "a scenario is a JSON object")
    if not isinstance(data.get("name", ""), str):
        raise _fail(where, "name", "must be a string")
    if not isinstance(data.get("house_rules", True), bool):
        raise _fail(where, "house_rules", "must be true or false")
    setup = data.get("setup")
    if not isinstance(setup, dict):
        raise _fail(where, "setup", "must be an object")
    try:
        MatchState.from_setup(setup, bool(data.get("house_rules", True)))
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        raise _fail(where, "setup", str(e)) from None
    dice = data.get("dice", [])
    if not isinstance(dice, list) or not all(
        isinstance(f, int) and not isinstance(f, bool) for f in dice
    ):
        raise _fail(where, "dice", "must be a list of integers")
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        raise _fail(where, "steps", "must be a list")
    for i, step in enumerate(steps):
        f = f"steps[{i}]"
        if not isinstance(step, dict):
            raise _fail(where, f, "must be an object")
        try:
            Actor.parse(step.get("as", ""))
        except ValueError as e:
            raise _fail(where, f"{f}.as", str(e)) from None
        kinds = [k for k in ("declare", "decide") if k in step]
        if len(kinds) != 1:
            raise _fail(where, f, "needs exactly one of declare or decide")
        body = step[kinds[0]]
        if not isinstance(body, dict):
            raise _fail(where, f"{f}.{kinds[0]}", "must be an object")
        try:
            if kinds[0] == "declare":
                Declaration.from_json(body)
            else:
                Answer.from_json(body)
        except ValueError as e:
            raise _fail(where, f"{f}.{kinds[0]}", str(e)) from None
        if "expect_error" in step and not isinstance(step["expect_error"], str):
            raise _fail(where, f"{f}.expect_error", "must be an error code")
    expect = data.get("expect", {})
    if not isinstance(expect, dict):
        raise _fail(where, "expect", "must be an object")
    if "events" in expect and not (
        isinstance(expect["events"], list) and all(isinstance(e, str) for e in expect["events"])
    ):
        raise _fail(where, "expect.events", "must be a list of event types")


def _compare(path: str, expected: Any, actual: Any, failures: list[str]) -> None:
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, v in expected.items():
            sub = f"{path}.{k}" if path else str(k)
            if k not in actual:
                failures.append(f"{sub}: expected {v!r}, got nothing")
            else:
                _compare(sub, v, actual[k], failures)
        return
    if type(expected) is not type(actual) or expected != actual:
        if (
            isinstance(expected, int | float)
            and isinstance(actual, int | float)
            and not (isinstance(expected, bool) or isinstance(actual, bool))
            and expected == actual
        ):
            return
        failures.append(f"{path}: expected {expected!r}, got {actual!r}")


def _subsequence(wanted: list[str], got: list[str]) -> bool:
    it = iter(got)
    return all(any(g == w for g in it) for w in wanted)


def run_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Run one (validated) scenario; pure: no files, no printing."""
    name = str(data.get("name", ""))
    failures: list[str] = []
    state = MatchState.from_setup(data["setup"], bool(data.get("house_rules", True)))
    dice = ScriptedDice(list(data.get("dice", [])))
    events: list[Event] = []
    pending: Pending | None = None
    base = state
    tentative: list[Event] = []
    steps = data.get("steps", [])
    exhausted = False
    partial: MatchState | None = None
    for i, step in enumerate(steps):
        actor = Actor.parse(step["as"])
        want_err = step.get("expect_error")
        err = None
        try:
            if "declare" in step:
                decl = Declaration.from_json(step["declare"])
                err = legal(base, actor, decl)
                if err is None:
                    res = resolve(base, actor, decl, (), dice)
                    tentative = res.events
                    partial = res.partial
                    if res.pending is not None:
                        base = res.state
                        pending = res.pending
                    else:
                        events.extend(res.events)
                        tentative = []
                        base = res.state
            else:
                ans = Answer.from_json(step["decide"])
                err = check_answer(base, base.pending, actor, ans)
                if err is None:
                    res = continue_with(base, ans, dice)
                    tentative = res.events
                    partial = res.partial
                    if res.pending is not None:
                        base = res.state
                        pending = res.pending
                    else:
                        events.extend(res.events)
                        tentative = []
                        base = res.state
                        pending = None
        except DiceExhausted:
            failures.append(f"steps[{i}]: dice exhausted")
            exhausted = True
            break
        except InvalidAnswer as e:
            err = e.error
        if want_err is not None:
            if err is None:
                failures.append(f"steps[{i}]: expected error {want_err!r}, got none")
            elif err.code != want_err:
                failures.append(
                    f"steps[{i}]: expected error {want_err!r}, got {err.code!r} ({err.message})"
                )
        elif err is not None:
            failures.append(f"steps[{i}]: refused: {err.code}: {err.message}")
    all_events = events + tentative
    shown = partial if pending is not None and partial is not None else base
    out_state = shown.to_json()
    dice_used = shown.dice_used
    out_state["dice_used"] = dice_used
    pend_json: dict[str, Any] | None = None
    if pending is not None:
        pend_json = {
            "kind": pending.kind,
            "to": pending.to,
            "options": pending.options,
            "default": pending.default,
        }
        out_state["pending"] = pend_json
    expect = data.get("expect", {})
    if not exhausted:
        for key, value in expect.items():
            if key == "events":
                types = [e.type for e in all_events]
                if not _subsequence(value, types):
                    failures.append(f"events: expected {value!r} in this order, got {types!r}")
                continue
            if key not in out_state:
                failures.append(f"{key}: not a key of the state")
                continue
            _compare(key, value, out_state[key], failures)
    return {
        "name": name,
        "ok": not failures,
        "failures": failures,
        "state": out_state,
        "events": [e.to_json() for e in all_events],
        "dice_used": dice_used,
        "pending": pend_json,
    }


def _files(args: list[str]) -> list[Path]:
    out: list[Path] = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            out.extend(sorted(x for x in p.rglob("*.json") if x.is_file()))
        else:
            out.append(p)
    return out


def main(argv: list[str] | None = None) -> int:
    """One JSON line per file; exit 0 all pass, 1 an expectation fails, 2 an invalid file."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: scenario FILE.json|FOLDER ...", file=sys.stderr)
        return 2
    code = 0
    for path in _files(args):
        try:
            data = load_scenario(path)
        except ScenarioFormatError as e:
            print(json.dumps({"name": str(path), "ok": False, "error": str(e)}))
            print(str(e), file=sys.stderr)
            code = 2
            continue
        result = run_scenario(data)
        print(json.dumps(result, separators=(",", ":")))
        if not result["ok"] and code == 0:
            code = 1
    return code


if __name__ == "__main__":
    raise SystemExit(main())
