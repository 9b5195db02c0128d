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

from cove.core import State
from cove.games.the_tide.data import DATA, RUBBISH, SHELL

TYPE_HELD = 0.15  # x 3 types at most before a recycling: 0.45 < its 1 point
COLLECTION = 0.4  # x progress toward a specific collection, below its 1 point
SHELL_HELD = 0.15
FRIEND = 0.25
ON_TILE = 0.05
ON_EMPTY = -0.05
SHIRK_RISK = -0.1  # on an empty square while holding a shell


def heuristic(state: State, player: int) -> float:
    all_held: list[list[int]] = state.held  # type: ignore[attr-defined]
    points: list[int] = state.points  # type: ignore[attr-defined]
    value = float(points[player])
    if state.is_over:
        return value
    on_beach: list[int] = state.friends_on_beach  # type: ignore[attr-defined]
    waiting: list[int] = state.friends_waiting  # type: ignore[attr-defined]
    grid: list[int] = state.grid  # type: ignore[attr-defined]
    friends: list[int] = state.friends  # type: ignore[attr-defined]
    held = all_held[player]
    thresholds = DATA.thresholds
    for tile in RUBBISH:
        if held[tile]:
            value += TYPE_HELD + COLLECTION * min(held[tile], thresholds[tile]) / thresholds[tile]
    value += SHELL_HELD * held[SHELL]
    value += FRIEND * (on_beach[player] + waiting[player] - 1)
    if on_beach[player]:
        empty = ON_EMPTY + (SHIRK_RISK if held[SHELL] else 0.0)
        for square, owner in enumerate(friends):
            if owner == player:
                value += ON_TILE if grid[square] else empty
    return value
