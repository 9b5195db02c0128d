"""A small seeded random number generator owned by each state.

SplitMix64 keeps its whole state in one integer, so cloning a game state copies one int
instead of the 625 words of ``random.Random``, and the sequence is fixed by this file
alone: the same seed gives the same game on every Python version and in every process.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64. Not for cryptography; for shuffles and dice."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        x = self.next64()
        while x >= limit:
            x = self.next64()
        return x % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], both ends included (like a die: randint(1, 6))."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        """Uniform float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def spawn(self) -> Rng:
        """An independent generator seeded from this one (for a bot, a sampled world...)."""
        return Rng(self.next64())

    def copy(self) -> Rng:
        r = Rng.__new__(Rng)
        r.state = self.state
        return r
