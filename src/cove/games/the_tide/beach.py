"""The beach's geometry: square names and precomputed neighbour and movement tables.

Squares are ints ``r * 6 + c``: column c = 0..5 is written a..f, row r = 0..5 is written
1..6, and row 1 (r = 0) lies next to the piles, the sea side. Gravity pulls toward row 6.
"""

from __future__ import annotations

from typing import Final

from cove.core import SquareGrid
from cove.core.components import COLUMN_LETTERS
from cove.games.the_tide.data import DATA

COLS: Final = DATA.columns
ROWS: Final = DATA.rows
GRID: Final = SquareGrid(COLS, ROWS)
SQUARES: Final = GRID.size
COLUMN_NAMES: Final = COLUMN_LETTERS[:COLS]

ORTHOGONAL: Final = ((-1, 0), (1, 0), (0, -1), (0, 1))  # (the order friends' moves are listed in)
DIAGONAL: Final = ((-1, -1), (-1, 1), (1, -1), (1, 1))

SQUARE_NAMES: Final = GRID.names
parse_square = GRID.parse
"""'c4' -> square (for tests and tools)."""

NEIGHBOURS: Final = {4: GRID.neighbours(ORTHOGONAL), 8: GRID.neighbours(ORTHOGONAL + DIAGONAL)}
"""Adjacent squares by adjacency mode (4 or 8)."""

MOVE_REACH: Final = 3
RAYS: Final = {4: GRID.rays(ORTHOGONAL, MOVE_REACH),
               8: GRID.rays(ORTHOGONAL + DIAGONAL, MOVE_REACH)}
"""For each square, each straight line of up to 3 squares a friend may travel."""

COLUMN_SQUARES: Final = tuple(tuple(r * COLS + c for r in range(ROWS)) for c in range(COLS))
"""Squares of each column, sea side first."""
