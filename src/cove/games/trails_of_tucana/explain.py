"""What the terminal says about Trails of Tucana's moves and tie-break (``help <move>``,
the game-end summary). Text only, read by ``cove.tui.hooks``; the rules never import it."""

from __future__ import annotations

from typing import Any

TIEBREAK = ("most bonus points (blue and red cards)",)
"""R8.2, in the order of ``tiebreak()``."""

MOVES = (
    (r"draw (\w+)-(\w+)", r"draws a trail segment on your island between spaces \1 and "
     r"\2 (the column's letter, then the row's number); the two spaces must match the "
     "terrain of the two cards turned this step (R3). Linking a village pair or sights may "
     "score (R4-R7)"),
    (r"pass|decline|skip", "draws no bonus segment"),
)


def score_breakdown(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Sheet ``p``'s score in parts, from the view (R5-R7): the sights boxes, the village
    pairs, the bonus cards."""
    sheet = view["sheets"][p]
    return [("sights", float(sum(sheet["boxes"]))), ("village pairs", float(sheet["pair_points"])),
            ("bonus cards", float(sheet["bonus_points"]))]
