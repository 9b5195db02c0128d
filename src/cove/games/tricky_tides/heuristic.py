"""A cheap estimate of a player's final score from what that player may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cove.core.state import State


def heuristic(state: State, player: int) -> float:
    return float(state.scores()[player])
