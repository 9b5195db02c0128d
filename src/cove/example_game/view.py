"""What each seat of the Toy sees, and the score in parts.

The view is built by whitelisting: the public figures for everyone, the hand and the bid
for its own seat only (a spectator, ``player`` None, sees no hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cove.example_game.state import ToyState


def view(state: ToyState, player: int | None) -> dict[str, Any]:
    v: dict[str, Any] = {
        "card_points": list(state.card_points),
        "bid_paid": list(state.bid_paid),
        "played": list(state.played),
        "hand_sizes": [len(h) for h in state.hands],
        "deck_size": len(state.deck),
        "plays_left": state.options.plays - len(state.played),
    }
    if player is not None:
        v["hand"] = sorted(state.hands[player])
        if state.bidding:
            v["my_bid"] = state.bids[player] if player not in state.to_move() else None
    return v


def score_parts(view: dict[str, Any], player: int) -> list[tuple[str, float]]:
    """The cards' values and the bid's cost (R5.1); they add up to the score."""
    return [("cards played", float(view["card_points"][player])),
            ("bid", -float(view["bid_paid"][player]))]
