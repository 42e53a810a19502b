from __future__ import annotations

import hashlib
import hmac

import pytest

from rules.engine import DiceExhausted, FairDice, ScriptedDice, commitment


def reference_face(seed: bytes, match_id: str, i: int, n: int) -> tuple[int, int]:
    """Straight from the specification; returns (face, attempts)."""
    j = 0
    while True:
        x = int.from_bytes(
            hmac.new(seed, f"{match_id}:{i}:{j}".encode(), hashlib.sha256).digest()[:8], "big"
        )
        if x < 2**64 - (2**64 % n):
            return x % n + 1, j + 1
        j += 1


def test_fair_dice_known_values() -> None:
    dice = FairDice(bytes.fromhex("00ff"), "match-1")
    assert [dice.face(i, 6) for i in range(10)] == [4, 1, 1, 5, 2, 4, 1, 3, 4, 2]
    assert [dice.face(i, 8) for i in range(5)] == [
        reference_face(bytes.fromhex("00ff"), "match-1", i, 8)[0] for i in range(5)
    ]


def test_fair_dice_follows_the_specification_for_many_rolls() -> None:
    seed = b"a secret seed"
    dice = FairDice(seed, "m42")
    for i in range(300):
        for n in (3, 6, 8):
            assert dice.face(i, n) == reference_face(seed, "m42", i, n)[0]


def test_rejection_sampling_draws_again_above_the_limit() -> None:
    # with n = 2**63 + 1 about half of all 64-bit values are rejected
    n = 2**63 + 1
    seed = b"reject"
    attempts = [reference_face(seed, "m", i, n)[1] for i in range(40)]
    assert max(attempts) > 1
    dice = FairDice(seed, "m")
    for i in range(40):
        face = dice.face(i, n)
        assert face == reference_face(seed, "m", i, n)[0]
        assert 1 <= face <= n


def test_commitment_is_the_sha256_of_the_seed() -> None:
    assert commitment(b"abc") == hashlib.sha256(b"abc").hexdigest()


def test_scripted_dice_read_by_index_and_refuse_past_the_end() -> None:
    dice = ScriptedDice([3, 8])
    assert dice.face(0, 6) == 3
    assert dice.face(1, 8) == 8
    with pytest.raises(DiceExhausted):
        dice.face(2, 6)


def test_scripted_dice_refuse_a_face_out_of_range() -> None:
    with pytest.raises(ValueError, match="not a face of a 6-sided die"):
        ScriptedDice([7]).face(0, 6)
