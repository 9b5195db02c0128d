"""The Toy's terminal screen, drawn from a seat's view."""

from __future__ import annotations

from typing import Any

from cove.example_game.data import DATA


def render(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
    n = view["players"]
    label = DATA.card_label
    lines = [f"Toy: {view['plays_left']} {label}s left to play, deck {view['deck_size']}"[:width]]
    played = ", ".join(str(c) for c in view["played"]) or "none yet"
    lines.append(f"Played: {played}"[:width])
    for p in range(n):
        you = " (you)" if view.get("you") == p else ""
        total = view["card_points"][p] - view["bid_paid"][p]
        lines.append(f"P{p + 1}{you}: {total} points ({view['card_points'][p]} from "
                     f"{label}s, bid {view['bid_paid'][p]}), {view['hand_sizes'][p]} in hand"
                     [:width])
    if "hand" in view:
        hand = " ".join(str(c) for c in view["hand"])
        lines.append(f"Your hand: {hand}"[:width])
    return "\n".join(lines)
