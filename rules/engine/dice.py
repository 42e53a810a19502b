"""Dice streams: every face is read by its index in the match's stream."""

from __future__ import annotations

import hashlib
import struct
from typing import Protocol


class DiceExhausted(Exception):
    """A scripted stream has no more faces."""


class Dice(Protocol):
    def face(self, index: int, sides: int) -> int: ...


_BLOCK = 64  # SHA-256's block size in bytes
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))
_FIRST_64_BITS = struct.Struct(">Q").unpack_from  # a digest's first 8 bytes, big-endian


class FairDice:
    """HMAC-SHA256(seed, "match:index:attempt") with rejection sampling (no modulo bias)."""

    __slots__ = ("_cache", "_inner", "_outer", "_prefix", "match_id", "seed")

    def __init__(self, seed: bytes, match_id: str) -> None:
        self.seed = seed
        self.match_id = match_id
        self._cache: dict[int, tuple[int, int]] = {}  # index -> (sides, face)
        # HMAC-SHA256 by hand (RFC 2104), the same digest as hmac.digest(seed, msg, "sha256"):
        # the keyed inner and outer hashes are copied per face, without re-keying each time
        key = hashlib.sha256(seed).digest() if len(seed) > _BLOCK else seed
        key = key.ljust(_BLOCK, b"\0")
        self._inner = hashlib.sha256(key.translate(_IPAD))
        self._outer = hashlib.sha256(key.translate(_OPAD))
        self._prefix = f"{match_id}:".encode()

    def face(self, index: int, sides: int) -> int:
        cached = self._cache.get(index)
        if cached is not None and cached[0] == sides:
            return cached[1]
        limit = 2**64 - (2**64 % sides)
        j = 0
        while True:
            h = self._inner.copy()
            h.update(b"%s%d:%d" % (self._prefix, index, j))  # b"match:index:attempt"
            o = self._outer.copy()
            o.update(h.digest())
            x: int = _FIRST_64_BITS(o.digest())[0]
            if x < limit:
                value = x % sides + 1
                self._cache[index] = (sides, value)
                return value
            j += 1


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class ScriptedDice:
    """Faces fixed in advance (scenarios, tests)."""

    __slots__ = ("faces",)

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)

    def face(self, index: int, sides: int) -> int:
        if index >= len(self.faces):
            raise DiceExhausted(f"dice exhausted: roll {index + 1} asked, {len(self.faces)} given")
        value = self.faces[index]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise ValueError(f"die {index + 1} is {value!r}, not a face of a {sides}-sided die")
        return value
