"""The Toy's research encoding of a seat's view, declared as named blocks: the core lays
them out, writes the SPEC.md table from them, and keeps a block whose ``inputs`` (the
state fields its encoder reads) are unchanged since the last call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.core import Block, Observer, Out
from cove.example_game.data import DATA, MAX_PLAYERS

if TYPE_CHECKING:
    from cove.example_game.state import ToyState


def hand(state: ToyState, player: int, out: Out) -> None:
    for card in set(state.hands[player]):
        out.value(card, float(state.hands[player].count(card)))


def played(state: ToyState, player: int, out: Out) -> None:
    for card in state.played:
        out.one(card)


def scores(state: ToyState, player: int, out: Out) -> None:
    out.run(0, [score / 20.0 for score in state.scores()])


OBSERVER = Observer([
    Block("hand", hand, "a count per card value in your hand (0 the blank)",
          size=DATA.cards + 1, inputs=("hands",)),
    Block("played", played, "1 for each card value played", size=DATA.cards + 1,
          inputs=("played",), same_for_all=True),
    Block("scores", scores, "each seat's score / 20 (zero past the player count)",
          size=MAX_PLAYERS, inputs=("card_points", "bid_paid"), same_for_all=True),
])
"""The Toy's observation: 30 floats for the built-in data."""
