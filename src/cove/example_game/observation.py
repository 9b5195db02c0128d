"""The Toy's research encoding of a seat's view: flat floats, laid out in SPEC.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.core.options import Options
from cove.example_game.data import DATA, MAX_PLAYERS

if TYPE_CHECKING:
    from cove.example_game.state import ToyState


def size(players: int, options: Options) -> int:
    """The hand and the played cards (one entry per card value, 0 the blank), then one
    score per seat up to four."""
    return 2 * (DATA.cards + 1) + MAX_PLAYERS


def observation(state: ToyState, player: int) -> list[float]:
    hand = [0.0] * (DATA.cards + 1)
    for c in state.hands[player]:
        hand[c] += 1.0
    played = [0.0] * (DATA.cards + 1)
    for c in state.played:
        played[c] = 1.0
    scores = [s / 20.0 for s in state.scores()]
    return hand + played + scores + [0.0] * (MAX_PLAYERS - state.n)
