"""The core's sets of small numbers as ints (cove.core.bits), against Python's sets."""

from __future__ import annotations

import pytest

from cove.core.bits import (
    count_common,
    first_n,
    has,
    including,
    members,
    minus,
    set_of,
    size,
    without,
)


@pytest.mark.parametrize(("a", "b"), [(set(), set()), ({0, 3, 5}, {3, 4}),
                                      ({1, 63, 64, 70}, {64, 2})])
def test_each_operation_is_the_set_operation(a: set[int], b: set[int]) -> None:
    x, y = set_of(a), set_of(b)
    assert members(x) == sorted(a) and size(x) == len(a)
    assert all(has(x, i) == (i in a) for i in range(72))
    assert members(including(x, 9)) == sorted(a | {9})
    assert members(without(x, 3)) == sorted(a - {3})
    assert members(minus(x, y)) == sorted(a - b)
    assert count_common(x, y) == len(a & b)
    assert members(first_n(4)) == [0, 1, 2, 3] and first_n(0) == 0
