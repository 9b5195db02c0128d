"""What each of the Toy's moves does, in words, for ``help <move>`` and the web's list."""

from __future__ import annotations

from cove.core import MoveHelp

HELP = MoveHelp(moves=(
    (r"bid 0", "bids nothing: no cost, no extra card (R2)"),
    (r"bid 1", "pays the bid's cost in points and draws one more card once all have bid "
     "(R2, R3)"),
    (r"play (\d+)", r"plays card \1: it scores \1 points and you draw a new card (R4)"),
))
