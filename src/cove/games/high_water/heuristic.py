"""A cheap estimate of a player's final influence (placeholder)."""

from __future__ import annotations

from cove.core.state import State


def heuristic(state: State, player: int) -> float:
    return float(state.scores()[player])
