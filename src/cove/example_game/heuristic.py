"""The bots' estimate of a Toy player's final score, from public information only."""

from __future__ import annotations

from cove.core import State


def heuristic(state: State, player: int) -> float:
    """The score so far: every card still to come is unknown to everyone, so the points
    already taken are what separates the players' prospects (a bot comparing two moves
    sees exactly the difference in the cards' values)."""
    return state.scores()[player]
