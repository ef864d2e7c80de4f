"""A deterministic random number generator that will replay the same way for years.

Python's ``random`` may change its algorithms between versions, so the engine never uses it.
This generator is counter mode over SHA-256: draw ``k`` is the first 8 bytes (big-endian) of
``sha256(seed_bytes || k as 8 big-endian bytes)``. Integers below ``n`` are drawn by rejection
(unbiased), shuffles are Fisher–Yates from the last position down. The whole state is the seed
and the counter, so it serialises with the game state. Fixed vectors in the tests pin it.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_WORD_BITS = 64
_WORD_SPAN = 1 << _WORD_BITS


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
        block = hashlib.sha256(self.seed.encode("utf-8") + self.counter.to_bytes(8, "big"))
        self.counter += 1
        return int.from_bytes(block.digest()[:8], "big")

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection so no value is favoured.

        >>> Rng("doc").randbelow(1)
        0
        """
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, not {n}")
        limit = _WORD_SPAN - (_WORD_SPAN % n)
        while True:
            word = self.next_word()
            if word < limit:
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
        seed, counter, sha256 = self.seed.encode("utf-8"), self.counter, hashlib.sha256
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            limit = _WORD_SPAN - (_WORD_SPAN % bound)
            while True:
                block = sha256(seed + counter.to_bytes(8, "big")).digest()
                counter += 1
                word = int.from_bytes(block[:8], "big")
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
