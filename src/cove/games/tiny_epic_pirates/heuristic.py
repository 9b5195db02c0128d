"""A cheap estimate of a player's final score (treasures buried) from public information."""

from __future__ import annotations

from cove.core.state import State


def heuristic(state: State, player: int) -> float:
    from cove.games.tiny_epic_pirates.state import PiratesState

    assert isinstance(state, PiratesState)
    s = state
    t = len(s.treasures[player])
    if s.over or t >= 3:
        return float(t)
    R = s.R
    cost = R.treasure_cost[t]
    gate = R.treasure_level[t]
    value = {b: i + 2 for i, b in enumerate(s.market)}
    wealth = s.gold[player] + 0.7 * sum(value[b] for b in s.booty[player])
    gold_part = min(1.0, wealth / cost) if cost else 1.0
    level_part = min(1.0, s.level[player] / gate)
    progress = 0.6 * gold_part + 0.4 * level_part
    a = s.assign[player]
    # small tie-breakers toward a stronger ship: crew, sure-fire, working deckhands
    extras = 0.02 * len(s.crew[player]) + 0.01 * min(s.sure[player], 3) \
        + 0.01 * (a[0] + a[1] + a[2])
    return t + 0.85 * progress * progress + min(extras, 0.1)
