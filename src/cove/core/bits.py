"""Sets of small numbers kept as one int, member ``i`` being bit ``i``: a hand of cards,
the segments drawn on a sheet, the seats that still hold something. Clones copy them for
free and comparisons are one int's, so games keep such sets this way on their hot paths;
rule code reads and changes them only through these named operations (``|`` and ``&``
are the union and the common part, as for ``set``). Each is a line of int arithmetic
that allocates nothing.
"""

from __future__ import annotations

from collections.abc import Iterable


def has(items: int, item: int) -> bool:
    """Whether ``item`` is in the set ``items``."""
    return (items >> item) & 1 == 1


def including(items: int, item: int) -> int:
    """The set ``items`` with ``item`` added."""
    return items | 1 << item


def without(items: int, item: int) -> int:
    """The set ``items`` with ``item`` taken out."""
    return items & ~(1 << item)


def minus(items: int, others: int) -> int:
    """The members of ``items`` that are not in ``others``."""
    return items & ~others


def set_of(items: Iterable[int]) -> int:
    """The set of ``items``."""
    out = 0
    for item in items:
        out |= 1 << item
    return out


def first_n(n: int) -> int:
    """The set of 0, 1, ..., ``n - 1``."""
    return (1 << n) - 1


def members(items: int) -> list[int]:
    """The members of a set, lowest first (one step per member)."""
    out: list[int] = []
    while items:
        low = items & -items
        out.append(low.bit_length() - 1)
        items ^= low
    return out


def size(items: int) -> int:
    """How many members a set has."""
    return items.bit_count()


def count_common(items: int, others: int) -> int:
    """How many members ``items`` and ``others`` share."""
    return (items & others).bit_count()
