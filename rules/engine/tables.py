"""LRB5 tables (the same numbers as data/lrb5/tables.json, checked by a test)."""

from __future__ import annotations

# D68 casualty table -> the state's casualty code.
_CASUALTY: dict[int, str] = {}
for _t in range(1, 4):
    for _u in range(1, 9):
        _CASUALTY[_t * 10 + _u] = "badly_hurt"
for _u in range(1, 9):
    _CASUALTY[40 + _u] = "miss_next_game"
    _CASUALTY[60 + _u] = "dead"
_CASUALTY.update(
    {
        51: "niggling_injury",
        52: "niggling_injury",
        53: "minus_ma",
        54: "minus_ma",
        55: "minus_av",
        56: "minus_av",
        57: "minus_ag",
        58: "minus_st",
    }
)
CASUALTY: dict[int, str] = _CASUALTY

# From least to most severe: the apothecary's choice keeps the least severe.
SEVERITY: tuple[str, ...] = (
    "badly_hurt",
    "miss_next_game",
    "niggling_injury",
    "minus_ma",
    "minus_av",
    "minus_ag",
    "minus_st",
    "dead",
)


def agility_target(ag: int) -> int:
    """AG 1..6+ needs 6+ .. 1+ (a natural 1 still fails)."""
    return max(1, min(6, 7 - ag))


def injury_result(total: int, *, thick_skull: bool, stunty: bool) -> str:
    """``stunned``, ``ko``, ``badly_hurt`` (Stunty 9) or ``casualty``."""
    if stunty:
        if total <= 6:
            return "stunned"
        if total <= 8:
            return "stunned" if thick_skull and total == 7 else "ko"
        if total == 9:
            return "badly_hurt"
        return "casualty"
    if total <= 7:
        return "stunned"
    if total <= 9:
        return "stunned" if thick_skull and total == 8 else "ko"
    return "casualty"
