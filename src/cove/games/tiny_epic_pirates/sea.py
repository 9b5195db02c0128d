"""The 4x4 sea of Map Cards: the cards' names, directions, neighbours, corners, distances.

Cards 0..15, row-major, written a1..d4 (column letter, row digit, as in every Cove game:
b3 = column b, row 3). A leaf module (it imports nothing of the game), shared by the
rules, the view, the solo pirate, the heuristic and the web board.
"""

from __future__ import annotations

from typing import Final

from cove.core import SquareGrid

DIRS: Final = ((-1, 0, "north"), (0, 1, "east"), (1, 0, "south"), (0, -1, "west"))
CORNERS: Final = (0, 3, 12, 15)
OPPOSITE: Final = {0: 15, 15: 0, 3: 12, 12: 3}

SEA: Final = SquareGrid(4, 4)
"""The 4x4 sea of cards, in reading order (card ``i`` = row ``i // 4``, column ``i % 4``)."""

# Neighbours: for each card, tuple of (dir index, card).
NEIGH: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((d, t) for d, t in enumerate(row) if t >= 0)
    for row in SEA.steps([(dr, dc) for dr, dc, _ in DIRS])
)

cell = SEA.name
"""Card ``i``'s name: the column's letter, then the row's number (b3 = column b, row 3)."""


dist = SEA.distance
