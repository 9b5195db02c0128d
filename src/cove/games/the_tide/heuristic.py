"""A cheap estimate of a player's final score in The Tide, from public information only.

Points already scored, plus partial credit for holdings on their way to a reward: the
rarest garbage type drives recycling (+1 each), each type's progress toward its specific
collection, shells toward a necklace (which brings a partner), and friends on the beach
(more friends, more reach). Everything used here is public: the beach, holdings, scores.
"""

from __future__ import annotations

from cove.core.state import State
from cove.games.the_tide.data import DATA

_RUBBISH = (2, 3, 4, 5)


def heuristic(state: State, player: int) -> float:
    held: list[list[int]] = state.held  # type: ignore[attr-defined]
    points: list[int] = state.points  # type: ignore[attr-defined]
    onboard: list[int] = state.onboard  # type: ignore[attr-defined]
    waiting: list[int] = state.waiting  # type: ignore[attr-defined]
    h = held[player]
    value = float(points[player])
    if state.is_over:
        return value
    have = sum(1 for t in _RUBBISH if h[t])
    value += 0.2 * have  # toward a recycling (+1 at 4 types)
    for t in _RUBBISH:
        value += 0.5 * min(h[t], DATA.thresholds[t]) / DATA.thresholds[t]
    value += 0.15 * h[1]  # shells: a necklace brings a partner
    value += 0.25 * (onboard[player] + waiting[player] - 1)
    return value
