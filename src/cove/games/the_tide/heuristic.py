"""A cheap estimate of a player's final score in The Tide, from public information only.

Points already scored, plus partial credit for holdings on their way to a reward, kept below
the reward itself so that completing one is always worth more than waiting: each garbage
type held counts toward a recycling (+1 once all four are held), each type's progress toward
its specific collection, shells toward a necklace (which brings a partner), and friends in
play (more friends, more reach). Where the friends stand counts a little: on a tile they can
collect next turn, on an empty square they collect nothing and shirk at the next check.
Everything used here is public: the beach, holdings, scores.
"""

from __future__ import annotations

from cove.core.state import State
from cove.games.the_tide.data import DATA
from cove.games.the_tide.data import RUBBISH as _RUBBISH
from cove.games.the_tide.data import SHELL as _SHELL

TYPE_HELD = 0.15  # x 3 types at most before a recycling: 0.45 < its 1 point
COLLECTION = 0.4  # x progress toward a specific collection, below its 1 point
SHELL = 0.15
FRIEND = 0.25
ON_TILE = 0.05
ON_EMPTY = -0.05
SHIRK_RISK = -0.1  # on an empty square while holding a shell


def heuristic(state: State, player: int) -> float:
    held: list[list[int]] = state.held  # type: ignore[attr-defined]
    points: list[int] = state.points  # type: ignore[attr-defined]
    value = float(points[player])
    if state.is_over:
        return value
    onboard: list[int] = state.onboard  # type: ignore[attr-defined]
    waiting: list[int] = state.waiting  # type: ignore[attr-defined]
    grid: list[int] = state.grid  # type: ignore[attr-defined]
    fr: list[int] = state.fr  # type: ignore[attr-defined]
    h = held[player]
    thresholds = DATA.thresholds
    for t in _RUBBISH:
        if h[t]:
            value += TYPE_HELD + COLLECTION * min(h[t], thresholds[t]) / thresholds[t]
    value += SHELL * h[_SHELL]
    value += FRIEND * (onboard[player] + waiting[player] - 1)
    if onboard[player]:
        empty = ON_EMPTY + (SHIRK_RISK if h[_SHELL] else 0.0)
        for s, owner in enumerate(fr):
            if owner == player:
                value += ON_TILE if grid[s] else empty
    return value
