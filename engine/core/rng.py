"""A deterministic random number generator that will replay the same way for years.

Python's ``random`` may change its algorithms between versions, so the engine never uses it.
This generator is counter mode over SHA-256: draw ``k`` is the first 8 bytes (big-endian) of
``sha256(seed_bytes || k as 8 big-endian bytes)``. Integers below ``n`` are drawn by rejection
(unbiased), shuffles are Fisher–Yates from the last position down. The whole state is the seed
and the counter, so it serialises with the game state. Fixed vectors in the tests pin it.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_WORD_BITS = 64
_WORD_SPAN = 1 << _WORD_BITS

#: ``counter`` as 8 big-endian bytes, and a digest's first 8 bytes as a big-endian integer:
#: the same as ``int.to_bytes(8, "big")`` and ``int.from_bytes(digest[:8], "big")``, faster.
_pack_counter = struct.Struct(">Q").pack
_unpack_word = struct.Struct(">Q").unpack_from

#: The SHA-256 state after each recent seed's bytes: a draw copies it and hashes only the
#: counter (the same digest as hashing ``seed_bytes || counter`` from scratch). Keyed by the
#: seed itself, so a changed ``Rng.seed`` finds its own; cleared when it grows too large.
_PREFIXES: dict[str, Any] = {}
_MAX_PREFIXES = 1024


def _prefix(seed: str) -> Any:
    """The shared SHA-256 object that has hashed ``seed``'s UTF-8 bytes: copy it, never
    update it."""
    prefix = _PREFIXES.get(seed)
    if prefix is None:
        if len(_PREFIXES) >= _MAX_PREFIXES:
            _PREFIXES.clear()
        prefix = _PREFIXES[seed] = hashlib.sha256(seed.encode("utf-8"))
    return prefix


def seed_commitment(seed: str) -> str:
    """The public commitment to a seed: the hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


@dataclass
class Rng:
    """Counter-mode SHA-256 generator. ``counter`` is the number of 64-bit words drawn."""

    seed: str
    counter: int = 0

    def next_word(self) -> int:
        """The next uniformly distributed 64-bit unsigned integer."""
        block = _prefix(self.seed).copy()
        block.update(_pack_counter(self.counter))
        self.counter += 1
        word: int = _unpack_word(block.digest())[0]
        return word

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection so no value is favoured.

        >>> Rng("doc").randbelow(1)
        0
        """
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, not {n}")
        limit = _WORD_SPAN - (_WORD_SPAN % n)
        copy, counter = _prefix(self.seed).copy, self.counter
        while True:  # next_word, written out: games draw on many moves
            block = copy()
            block.update(_pack_counter(counter))
            counter += 1
            word: int = _unpack_word(block.digest())[0]
            if word < limit:
                self.counter = counter
                return word % n

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly."""
        if not items:
            raise ValueError("cannot choose from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place with Fisher–Yates, from the last position down.

        The same draws as ``j = self.randbelow(i + 1)`` at each position (the fixed vectors
        pin it), written out in one loop: a deck of 120 cards is 120 draws or more.
        """
        counter, span = self.counter, _WORD_SPAN
        copy, pack, unpack = _prefix(self.seed).copy, _pack_counter, _unpack_word
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            limit = span - (span % bound)
            while True:
                block = copy()
                block.update(pack(counter))
                counter += 1
                word = unpack(block.digest())[0]
                if word < limit:
                    break
            j = word % bound
            items[i], items[j] = items[j], items[i]
        self.counter = counter

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items``."""
        copy = list(items)
        self.shuffle(copy)
        return copy
