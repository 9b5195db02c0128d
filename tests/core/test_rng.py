"""The seeded generator (SplitMix64): its outputs are fixed by the algorithm, and its two
paths agree, the one on Python ints (the pure build's) and the one on wrapping 64-bit
ints (the compiled build's, run here on Python ints wrapped by hand), including the draws
``below`` throws away."""

from __future__ import annotations

import pytest

from cove.core.rng import Rng, TapeRng

MASK = (1 << 64) - 1


def reference(seed: int, count: int) -> list[int]:
    """SplitMix64 as published, on Python ints."""
    out, s = [], seed & MASK
    for _ in range(count):
        s = (s + 0x9E3779B97F4A7C15) & MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


@pytest.mark.parametrize("seed", [0, 1, 12345, (1 << 63) - 1, 1 << 63, MASK, -1])
def test_both_paths_give_splitmix64(seed: int) -> None:
    want = reference(seed, 500)
    assert [Rng(seed).next64() for _ in range(1)] == want[:1]
    plain, native = Rng(seed), Rng(seed)
    assert [plain._next_unsigned() for _ in range(500)] == want
    assert [native._next_signed() & MASK for _ in range(500)] == want
    assert plain.state == native.state
    assert 0 <= plain.state <= MASK


def test_state_reads_and_writes_as_an_unsigned_64_bit_int() -> None:
    r = Rng(-1)
    assert r.state == MASK
    r.state = 1 << 63
    assert r.state == 1 << 63
    copy = r.copy()
    assert copy.next64() == r.next64()
    tape = TapeRng(7)
    tape.below(6)
    again = tape.copy()
    assert again.state == tape.state and again.tape == tape.tape


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 52, 1000, (1 << 31) - 1])
def test_below_is_the_same_on_both_paths(n: int) -> None:
    plain, native = Rng(n), Rng(n)
    plain_draws = [plain.below(n) for _ in range(300)]
    assert plain_draws == [native._below_signed(n) for _ in range(300)]
    assert all(0 <= x < n for x in plain_draws)


class Scripted(Rng):
    """Hands out given outputs (unsigned), on either path."""

    def __init__(self, outputs: list[int]) -> None:
        super().__init__(0)
        self.outputs = outputs

    def _next_unsigned(self) -> int:
        return self.outputs.pop(0)

    def _next_signed(self) -> int:
        x = self.outputs.pop(0)
        return x - (1 << 64) if x >> 63 else x


@pytest.mark.parametrize("n", [3, 6, 7, 1000, (1 << 31) - 1])
def test_below_draws_again_in_the_last_incomplete_run_on_both_paths(n: int) -> None:
    """``2**64 mod n`` outputs at the very top are thrown away: the first few and the last
    kept ones around that edge give the same values on both paths."""
    rest = (1 << 64) % n
    edge = [MASK, MASK - rest + 1, MASK - rest, MASK - rest - 1, 1 << 63, (1 << 63) - 1, 0, 5]
    for first in edge:
        outputs = [first, 17, 42]
        plain = Scripted(list(outputs)).below(n)
        native = Scripted(list(outputs))._below_signed(n)
        assert plain == native
        kept = first if first < (1 << 64) - rest else 17
        assert plain == kept % n
