"""The one seam for the dice in tests: which dice the engine rolls for a match
(``core.dice_for``), and the stream of the pre- and post-match sequences' own rolls
(``core.sequence_dice``). Every test and fixture that fixes the dice goes through here."""

from collections.abc import Callable

import pytest

from matches.models import Match
from matches.services import core
from rules.engine import Dice


def use_dice(
    monkeypatch: pytest.MonkeyPatch, dice_for: Callable[[Match], Dice], *, sequence: bool = False
) -> None:
    """From now on, a match rolls ``dice_for(match)``; with ``sequence``, the sequence's own
    rolls do (the engine's stay fair)."""
    monkeypatch.setattr(core, "sequence_dice" if sequence else "dice_for", dice_for)
