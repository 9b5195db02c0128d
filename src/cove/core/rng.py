"""A small seeded random number generator owned by each state.

SplitMix64 keeps its whole state in one integer, so cloning a game state copies one int
instead of the 625 words of ``random.Random``, and the sequence is fixed by this file
alone: the same seed gives the same game on every Python version and in every process.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

from cove.core.compiled import i64, mypyc_attr

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_MUL1: Final = 0xBF58476D1CE4E5B9
_MUL2: Final = 0x94D049BB133111EB
# The same constants as signed 64-bit values (equal modulo 2**64), for native arithmetic.
_GAMMA_SIGNED: Final = _GAMMA - (1 << 64)
_MUL1_SIGNED: Final = _MUL1 - (1 << 64)
_MUL2_SIGNED: Final = _MUL2 - (1 << 64)
_LOW33: Final = (1 << 33) - 1
_LOW34: Final = (1 << 34) - 1
_LOW37: Final = (1 << 37) - 1
_MAX63: Final = (1 << 63) - 1
_NATIVE_BELOW: Final = 1 << 31
"""``below(n)`` takes the native path for ``n`` under this (every count a game draws)."""

NATIVE: Final = not __file__.endswith(".py")
"""True in the compiled build, where an ``i64`` is a machine integer whose arithmetic wraps
around modulo 2**64, as SplitMix64's does; Python's ints never wrap, so the pure build
computes on them and masks (the tests check that both paths give the same numbers)."""


def _signed(value: int) -> i64:
    """``value`` modulo 2**64 as a signed 64-bit integer. A small value (a seed, a blank
    generator's 0) skips the masking, which compiled code does on boxed ints."""
    if 0 <= value < _NATIVE_BELOW:
        return i64(value)
    value &= _MASK
    return i64(value - (1 << 64)) if value > _MAX63 else i64(value)


def _wrap(value: i64) -> i64:
    """``value`` modulo 2**64, signed: what native arithmetic gives by itself (the pure
    build's Python ints need it said)."""
    return value if NATIVE else _signed(value)


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools subclass it
class Rng:
    """SplitMix64. Not for cryptography; for shuffles and dice. ``state`` is the generator's
    whole state, an integer in ``0 .. 2**64 - 1`` (kept as a signed 64-bit one)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int = 0) -> None:
        self._state: i64 = _signed(seed)

    @property
    def state(self) -> int:
        return int(self._state) & _MASK

    @state.setter
    def state(self, value: int) -> None:
        self._state = _signed(value)

    def _next_signed(self) -> i64:
        """The next output as a signed 64-bit integer, on native arithmetic (in the pure
        build the same steps run on Python ints, wrapped by hand)."""
        s = _wrap(self._state + _GAMMA_SIGNED)
        self._state = s
        z = _wrap((s ^ ((s >> 30) & _LOW34)) * _MUL1_SIGNED)
        z = _wrap((z ^ ((z >> 27) & _LOW37)) * _MUL2_SIGNED)
        return z ^ ((z >> 31) & _LOW33)

    def _next_unsigned(self) -> int:
        """The next output, ``0 .. 2**64 - 1``, on Python ints (the pure build's path)."""
        state: int = self._state  # (as a Python int: the compiled build's i64 cannot
        s = (state + _GAMMA) & _MASK  # hold _GAMMA)
        self._state = s - (1 << 64) if s > _MAX63 else s
        z = ((s ^ (s >> 30)) * _MUL1) & _MASK
        z = ((z ^ (z >> 27)) * _MUL2) & _MASK
        return z ^ (z >> 31)

    def next64(self) -> int:
        if NATIVE:
            return int(self._next_signed()) & _MASK
        return self._next_unsigned()

    def below(self, n: int) -> int:
        """Uniform integer in [0, n): the next output modulo ``n``, outputs in the last
        incomplete run of ``n`` (at most ``2**64 mod n`` of them) drawn again."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        if NATIVE and n < _NATIVE_BELOW:
            return self._below_signed(n)
        limit = (1 << 64) - ((1 << 64) % n)
        x = self._next_unsigned()
        while x >= limit:
            x = self._next_unsigned()
        return x % n

    def _below_signed(self, n: i64) -> int:
        """``below(n)`` on signed outputs: an output ``z < 0`` stands for ``z + 2**64``,
        which is drawn again when ``z >= -(2**64 mod n)`` and otherwise is
        ``(z mod n + 2**64 mod n) mod n``."""
        rest = (((_MAX63 % n) + 1) % n * 2) % n  # 2**64 mod n
        z = self._next_signed()
        while z < 0 and z >= -rest:
            z = self._next_signed()
        return int(z % n) if z >= 0 else int((z % n + rest) % n)

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
        # a blank generator to copy into: the compiled build constructs it natively (a
        # call of ``__new__`` goes through Python there), the pure one skips ``__init__``
        r = Rng() if NATIVE else Rng.__new__(Rng)
        r._state = self._state
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
        r = TapeRng() if NATIVE else TapeRng.__new__(TapeRng)  # (as in Rng.copy)
        r._state = self._state
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
        r._state = self._state
        r.tape = self.tape[:]
        return r
