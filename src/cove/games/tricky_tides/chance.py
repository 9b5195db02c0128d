"""Chance helpers: several draws made from one recorded outcome.

Every chance outcome goes through the state's rng (``rng.below``), so a record's chance
list replays a game without the generator. :func:`draws` makes a run of draws from as few
outcomes as it can (version 5): their ranges are multiplied into one range of at most
2**53 (exact in any JSON reader) and its outcome is split again digit by digit, so each
draw is exactly as uniform as one ``below(k)`` of its own. The deal (a partial
Fisher-Yates over the dealt cards), the cubes of every set-up or refill of the islands and
of S5, the first orders, the layout and the sightings cards are drawn that way: about 27
outcomes in a 4-player game instead of 200, each ``below`` call costing as much as several
decisions' own work. Single draws (an order after a delivery, the modules' cubes, the
event deck, the first leader) stay one each.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from functools import cache
from typing import Final, TypeVar

from cove.core import Rng

X = TypeVar("X")

CHANCE_LIMIT: Final = 1 << 53
"""The largest range of one chance outcome that carries several draws (:func:`draws`):
a record's outcomes stay exact in JSON readers that hold numbers as doubles."""


@cache
def _plan(n: int, m: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The ``below`` calls of :func:`draws`: (range of the call, the draws' sizes)."""
    sizes = range(n, n - m, -1)
    plan = []
    i = 0
    while i < m:
        total = sizes[i]
        j = i + 1
        while j < m and total * sizes[j] <= CHANCE_LIMIT:
            total *= sizes[j]
            j += 1
        plan.append((total, tuple(sizes[i:j])))
        i = j
    return tuple(plan)


def draws(rng: Rng, n: int, m: int) -> list[int]:
    """``m`` outcomes, uniform in ``range(n)``, ``range(n - 1)``, ... in turn (drawing
    ``m`` things one after the other from ``n``), all independent, from as few
    ``rng.below`` calls as possible: consecutive ranges are multiplied into one range of at
    most :data:`CHANCE_LIMIT`, whose outcome is split again digit by digit (mixed radix,
    least significant first). Each outcome is exactly uniform, as with one ``below`` call
    each; the chance record holds one ``(range, outcome)`` pair per call."""
    out: list[int] = []
    append = out.append
    below = rng.below
    for total, sizes in _plan(n, m):
        x = below(total)
        for k in sizes:
            append(x % k)
            x //= k
    return out


def shuffle(rng: Rng, seq: MutableSequence[X]) -> None:
    """Fisher-Yates in place, as ``Rng.shuffle`` (the same swaps for the same outcomes),
    with its outcomes drawn together (:func:`draws`)."""
    n = len(seq)
    for i, j in zip(range(n - 1, 0, -1), draws(rng, n, n - 1), strict=True):
        seq[i], seq[j] = seq[j], seq[i]
