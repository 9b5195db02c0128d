"""The beach's geometry: square names and precomputed neighbour and movement tables.

Squares are ints ``r * 6 + c``: column c = 0..5 is written a..f, row r = 0..5 is written
1..6, and row 1 (r = 0) lies next to the piles, the sea side. Gravity pulls toward row 6.
"""

from __future__ import annotations

from cove.core import SquareGrid
from cove.core.components import COLUMN_LETTERS
from cove.games.the_tide.data import DATA

COLS = DATA.columns
ROWS = DATA.rows
GRID = SquareGrid(COLS, ROWS)
SQUARES = GRID.size
COLUMN_NAMES = COLUMN_LETTERS[:COLS]

ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))  # (the order friends' moves are listed in)
DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))

SQUARE_NAMES = GRID.names
parse_square = GRID.parse
"""'c4' -> square (for tests and tools)."""

NEIGHBOURS = {4: GRID.neighbours(ORTHOGONAL), 8: GRID.neighbours(ORTHOGONAL + DIAGONAL)}
"""Adjacent squares by adjacency mode (4 or 8)."""

MOVE_REACH = 3
RAYS = {4: GRID.rays(ORTHOGONAL, MOVE_REACH), 8: GRID.rays(ORTHOGONAL + DIAGONAL, MOVE_REACH)}
"""For each square, each straight line of up to 3 squares a friend may travel."""

COLUMN_SQUARES = tuple(tuple(r * COLS + c for r in range(ROWS)) for c in range(COLS))
"""Squares of each column, sea side first."""
