"""A small seeded random number generator owned by each state.

SplitMix64 keeps its whole state in one integer, so cloning a game state copies one int
instead of the 625 words of ``random.Random``, and the sequence is fixed by this file
alone: the same seed gives the same game on every Python version and in every process.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from cove.core.compiled import mypyc_attr

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools subclass it
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


class TapeRng(Rng):
    """An Rng that records every outcome it gives (``below(n)`` as ``(n, outcome)``), so
    a game's record holds its chance outcomes: a record can then be checked, or a game
    played with physical dice, without re-running the generator (:class:`ScriptRng`).
    Shuffles and choices are made of ``below`` calls, so they are recorded too."""

    __slots__ = ("tape",)

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.tape: list[tuple[int, int]] = []

    def below(self, n: int) -> int:
        x = super().below(n)
        self.tape.append((n, x))
        return x

    def spawn(self) -> Rng:
        return Rng(self.next64())

    def copy(self) -> TapeRng:
        r = TapeRng.__new__(TapeRng)
        r.state = self.state
        r.tape = self.tape[:]
        return r


class ScriptRng(Rng):
    """Gives back recorded outcomes in order instead of computing them; a game that asks
    for a different range than was recorded, or for more outcomes, gets a ValueError."""

    __slots__ = ("pos", "script", "tape")

    def __init__(self, script: list[tuple[int, int]]) -> None:
        super().__init__(0)
        self.script = script
        self.pos = 0
        self.tape: list[tuple[int, int]] = []

    def below(self, n: int) -> int:
        if self.pos >= len(self.script):
            raise ValueError(f"the record's chance outcomes ran out after {self.pos}")
        want, x = self.script[self.pos]
        if want != n or not 0 <= x < n:
            raise ValueError(f"chance outcome #{self.pos + 1} is {x} of {want}, "
                             f"but the game asked for one of {n}")
        self.pos += 1
        self.tape.append((n, x))
        return x

    def next64(self) -> int:
        raise ValueError("this game draws raw random bits, which a record cannot script")

    def copy(self) -> ScriptRng:
        r = ScriptRng(self.script)
        r.pos = self.pos
        r.state = self.state
        r.tape = self.tape[:]
        return r
