"""What the terminal says about The Tide's moves and tie-break (``help <move>``, the
game-end summary). Text only, read by ``cove.tui.hooks``; the rules never import it."""

from __future__ import annotations

from typing import Any

TIEBREAK = ("most tiles held (rubbish and shells)",)
"""R7.3, in the order of ``tiebreak()``."""

MOVES = (
    (r"place friend at (\w+)", "puts a friend of the player named in the prompt on square "
     r"\1 of the beach (setup, R2)"),
    (r"move (\w+) to (\w+)", r"moves your friend from \1 to \2 in a straight line (1-3 "
     "squares, never across another player's friend); this is your whole turn (R3)"),
    (r"collect (.+) at (\w+)", r"takes the \1 from under your friend at \2 into your "
     "collection, then the tide comes in: the piles refill the emptied columns (R3, R4)"),
    (r"pass", "does nothing this turn (R3); turns in which nothing could be collected count "
     "towards the stall guard (R7.4)"),
    (r"return (\w+) to pile (\w+)", r"puts a \1 from your collection back on top of pile "
     r"\2 (a reward's cost, R6)"),
)


def score_parts(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Seat ``p``'s points (R6)."""
    return [("points", float(view["seats"][p]["points"]))]
