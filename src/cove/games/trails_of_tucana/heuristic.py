"""A cheap estimate of a player's final score from their own sheet."""

from __future__ import annotations

from cove.core.state import State
from cove.games.trails_of_tucana.state import TucanaState


def heuristic(state: State, player: int) -> float:
    """Scored boxes + circled sights times the boxes still to score + pairs + bonuses,
    plus a little credit for networks that already hold a village and reach towards more.
    Uses only the player's own sheet and the public bonus cards."""
    assert isinstance(state, TucanaState)
    s = state
    isl = s.isl
    rounds = isl.rounds
    boxes = s.boxes[player * rounds : player * rounds + s.rnd]
    est = float(sum(boxes) + s.pair_sum(s.pairs[player]) + s.blue_pts[player]
                + s.red_pts[player])
    if s.over:
        return est
    left = rounds - s.rnd  # boxes still to score, the current one included
    est += s.sight_sum(player) * left
    # partial credit: villages that already have a trail leaving them
    turns_left = (left - 1) * 13 + (13 - s.turn)
    drawn = s.drawn[player]
    grown = sum(1 for v in isl.village_space if drawn & isl.incident[v])
    est += 0.15 * grown * min(1.0, turns_left / 13)
    return est
