"""What the terminal says about Tricky Tides' moves and tie-break (``help <move>``, the
game-end summary). Text only, read by ``cove.tui.hooks``; the rules never import it."""

from __future__ import annotations

from typing import Any

TIEBREAK = ("most order cards delivered", "most goods in the hold")
"""R9.2, in the order of ``tiebreak()``."""

MOVES = (
    (r"start (\w+)", r"places your ship on the island at \1 (setup)"),
    (r"play (\d+) ([\w ]+)", r"plays the \2 card of value \1 to the trick: follow the led "
     "suit if you can; the card also sets how far and where your ship may sail"),
    (r"sail (n|ne|e|se|s|sw|w|nw)", r"sails your ship one step heading \1"),
    (r"sail on", "keeps sailing on the open sea in the same heading"),
    (r"stop at sea", "stops your ship on this open-sea card"),
    (r"drop anchor", "ends your sailing here (an anchor keeps your ship in place)"),
    (r"pick up (\w+)", r"loads every \1 on this island into your hold (the hold limit "
     "applies at the end)"),
    (r"deliver", "hands the goods an order of yours needs to this island and is paid the "
     "order's gold (see your orders on the board)"),
    (r"overboard (\w+)", r"throws one \1 out of your hold (over the hold limit)"),
    (r"pass", "does nothing here"),
)


def score_breakdown(view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Seat ``p``'s final score in parts, from the game-over view (R9.1): order gold, the
    sightings card's bonus for the monsters of the orders delivered, goods sold."""
    seat = view["seats"][p]
    gold = float(seat["order_gold"])
    bonus_of = (seat.get("sightings") or {}).get("bonus", {})
    bonus = float(sum(bonus_of.get(o["monster"], 0) for o in seat["orders"]))
    return [("order gold", gold), ("sightings bonus", bonus),
            ("goods sold", float(seat["public_score"]) - gold)]
