"""Beach geometry: square names and precomputed neighbour and movement tables.

Squares are ints ``r * 6 + c``: column c = 0..5 is written a..f, row r = 0..5 is written
1..6, and row 1 (r = 0) lies next to the piles, the sea side. Gravity pulls toward row 6.
"""

from __future__ import annotations

from cove.games.the_tide.data import DATA

COLS = DATA.columns
ROWS = DATA.rows
SQUARES = COLS * ROWS
COL_NAMES = "abcdefghijklmnopqrstuvwxyz"[:COLS]

ORTHO = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))


def sq_name(sq: int) -> str:
    return f"{COL_NAMES[sq % COLS]}{sq // COLS + 1}"


SQ_NAMES = tuple(sq_name(s) for s in range(SQUARES))


def parse_sq(text: str) -> int:
    """'c4' -> square (for tests and tools)."""
    return SQ_NAMES.index(text)


def _neighbours(dirs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    out = []
    for s in range(SQUARES):
        r, c = divmod(s, COLS)
        out.append(tuple((r + dr) * COLS + c + dc for dr, dc in dirs
                         if 0 <= r + dr < ROWS and 0 <= c + dc < COLS))
    return tuple(out)


def _rays(dirs: tuple[tuple[int, int], ...], reach: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    out = []
    for s in range(SQUARES):
        r, c = divmod(s, COLS)
        rays = []
        for dr, dc in dirs:
            ray = tuple((r + dr * k) * COLS + c + dc * k for k in range(1, reach + 1)
                        if 0 <= r + dr * k < ROWS and 0 <= c + dc * k < COLS)
            if ray:
                rays.append(ray)
        out.append(tuple(rays))
    return tuple(out)


NEIGHBOURS = {4: _neighbours(ORTHO), 8: _neighbours(ORTHO + DIAG)}
"""Adjacent squares by adjacency mode (4 or 8)."""

MOVE_REACH = 3
RAYS = {4: _rays(ORTHO, MOVE_REACH), 8: _rays(ORTHO + DIAG, MOVE_REACH)}
"""For each square, each straight line of up to 3 squares a friend may travel."""

COLUMN_SQUARES = tuple(tuple(r * COLS + c for r in range(ROWS)) for c in range(COLS))
"""Squares of each column, sea side first."""
