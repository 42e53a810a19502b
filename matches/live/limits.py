"""Seed 002's limits on the referee's changes (docs/house-rules.md): a bash only in the bash
phase, a strider tackled in this round down until the next, a bribe for a red card only.

The referee may overrule each with one confirmation; :func:`broken` names the limit a change
breaks, and the caller refuses it or logs the overrule."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.live import condition as cond

BASH_PHASE = "bash_phase"
TACKLED_DOWN = "tackled_down"
BRIBE_RED = "bribe_red"

NAMES = {
    BASH_PHASE: gettext_lazy("a bash only in the bash phase"),
    TACKLED_DOWN: gettext_lazy("a tackled strider stays down until the next round"),
    BRIBE_RED: gettext_lazy("bribes for red cards only"),
}


def refusal(limit: str) -> str:
    """The page's message for a change refused by ``limit``."""
    messages = {
        BASH_PHASE: _("Seed 002: a bash is made in the bash phase only."),
        TACKLED_DOWN: _(
            "Seed 002: a player tackled while striding stays on the ground until the next round."
        ),
        BRIBE_RED: _("Seed 002: a bribe lifts a red card only."),
    }
    how = _('Tick "Overrule seed 002" to allow it.')
    return f"{messages[limit]} {how}"


def _this_round(state: dict[str, Any]) -> list[int]:
    return [state["drive"], state["round"]]


def mark_tackled(state: dict[str, Any], pid: str) -> None:
    """A strider tackled now: on the ground until the next round."""
    state["players"][pid]["tackled_in"] = _this_round(state)


def challenge_breaks(state: dict[str, Any], purpose: str) -> str | None:
    if purpose == "bash" and state["phase"] != "bash":
        return BASH_PHASE
    return None


def ruling_breaks(
    state: dict[str, Any], action: str, pid: str, condition: cond.Condition
) -> str | None:
    if action == "bribe" and condition.card != cond.Card.RED:
        return BRIBE_RED
    if action == "stand_up" and state["players"][pid].get("tackled_in") == _this_round(state):
        return TACKLED_DOWN
    return None
