"""The 3x4 map: cells, compass headings and where a heading leads.

Everything about map geometry lives here so that a rule that changes it (the Edge of the
World event, R13.2, wraps the map around) is one switch: :func:`step_table` builds the
one-card step table either bounded (the base game: never off the map) or wrapping, and
:func:`sea_runs` derives the open-sea continuation table from any step table.

Cells are ints ``0..11`` in reading order (row by row, north-west first):
``x = cell % 3`` (0 = west), ``y = cell // 3`` (0 = the north row). Their text names are
``a1``..``c4``: column letter a-c west to east, row number 1-4 north to south.
Headings are ints ``0..7``: N, NE, E, SE, S, SW, W, NW (clockwise from north).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from cove.core import SquareGrid

WIDTH: Final = 3
HEIGHT: Final = 4
GRID: Final = SquareGrid(WIDTH, HEIGHT)
"""The map as a shared square grid: cells in reading order, names ``a1``..``c4``."""
CELLS: Final = GRID.size

HEADINGS: Final = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
HEADING_INDEX: Final = {h: i for i, h in enumerate(HEADINGS)}
# [DESIGN] one step per heading as (rows, columns), rows growing southwards (notes section 5)
DIRECTIONS: Final = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
CELL_NAMES: Final = GRID.names


def step_table(wrap: bool = False) -> tuple[tuple[int, ...], ...]:
    """``table[cell][heading]``: the cell one step away, or -1 if that leaves the map.

    With ``wrap`` a step off one edge comes back on the opposite edge of the same row or
    column; a diagonal wraps both axes (the Edge of the World reading, notes section 11).
    """
    return GRID.steps(DIRECTIONS, wrap)


@lru_cache(maxsize=4096)   # few distinct maps: 1 at 4p, 66 at 3p, 495 at 2p per geometry
def sea_runs(step: tuple[tuple[int, ...], ...], sea: tuple[bool, ...]
             ) -> tuple[tuple[int, ...], ...]:
    """``table[cell][heading]``: for a ship that has just entered open-sea ``cell`` moving in
    ``heading``, the first island further on in a straight line across open sea only, or -1
    if the line leaves the map (or, on a wrapping map, loops) before reaching one."""
    rows = []
    for c in range(CELLS):
        row = []
        for h in range(8):
            target = -1
            cur = c
            for _ in range(CELLS):
                cur = step[cur][h]
                if cur < 0 or cur == c:
                    break
                if not sea[cur]:
                    target = cur
                    break
            row.append(target)
        rows.append(tuple(row))
    return tuple(rows)


BOUNDED: Final = step_table(False)
WRAPPED: Final = step_table(True)


def stride_table(wrap: bool, stride: int) -> tuple[tuple[int, ...], ...]:
    """``table[cell][heading]``: where a ship moving ``stride`` cards lands (Strong
    Currents): ``stride`` cards on if that stays on the map, else as far as it can; -1 if
    even one card leaves the map."""
    one = WRAPPED if wrap else BOUNDED
    rows = []
    for c in range(CELLS):
        row = []
        for h in range(8):
            cur = -1
            nxt = one[c][h]
            for _ in range(stride):
                if nxt < 0:
                    break
                cur = nxt
                nxt = one[cur][h]
            row.append(cur)
        rows.append(tuple(row))
    return tuple(rows)


ORTHOGONAL: Final = (0, 2, 4, 6)


def heading_set(allowed: tuple[int, ...], mode: str) -> tuple[int, ...]:
    """The headings a card allows under a heading rule: ``card`` (as printed),
    ``orthogonal`` (Doldrums: N/E/S/W only) or ``widened`` (Fog Bank: also 45 degrees off
    an allowed heading)."""
    if mode == "orthogonal":
        return tuple(h for h in allowed if h in ORTHOGONAL)
    if mode == "widened":
        return tuple(sorted({(h + d) % 8 for h in allowed for d in (-1, 0, 1)}))
    return allowed
