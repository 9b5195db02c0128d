"""The beach's geometry: square names and precomputed neighbour and movement tables.

Squares are ints ``r * 6 + c``: column c = 0..5 is written a..f, row r = 0..5 is written
1..6, and row 1 (r = 0) lies next to the piles, the sea side. Gravity pulls toward row 6.
"""

from __future__ import annotations

from cove.core.components import COLUMN_LETTERS, SquareGrid
from cove.games.the_tide.data import DATA

COLS = DATA.columns
ROWS = DATA.rows
GRID = SquareGrid(COLS, ROWS)
SQUARES = GRID.size
COL_NAMES = COLUMN_LETTERS[:COLS]

ORTHO = ((-1, 0), (1, 0), (0, -1), (0, 1))  # (the order friends' moves are listed in)
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))

SQ_NAMES = GRID.names
parse_sq = GRID.parse
"""'c4' -> square (for tests and tools)."""

NEIGHBOURS = {4: GRID.neighbours(ORTHO), 8: GRID.neighbours(ORTHO + DIAG)}
"""Adjacent squares by adjacency mode (4 or 8)."""

MOVE_REACH = 3
RAYS = {4: GRID.rays(ORTHO, MOVE_REACH), 8: GRID.rays(ORTHO + DIAG, MOVE_REACH)}
"""For each square, each straight line of up to 3 squares a friend may travel."""

COLUMN_SQUARES = tuple(tuple(r * COLS + c for r in range(ROWS)) for c in range(COLS))
"""Squares of each column, sea side first."""
