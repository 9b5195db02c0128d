"""A cheap estimate of a player's final score from what that player may see.

Known gold (orders, the player's own sightings bonus, leftover goods at the sale rates)
plus a share of the order value the hold is working towards while rounds remain: a cube
is worth roughly its order value (sugar/coffee 1, silk/spice 2, gold 3 in the DESIGN
deck) if delivered, its sale value if not.

What it reads (hidden information). ``heuristic(state, q)`` reads public information
(collected orders, holds, the round and hand) and exactly one secret: **seat q's own
sightings card**. It never reads a hand, the order or event deck, the bag's make-up, or
any other seat's sightings card. The function cannot know who is asking, so the rule for
callers (the bots) is: evaluate seat q on the true state only when q is the seat deciding;
to evaluate another seat, call it on a world redeterminized for the deciding player
(``state.redeterminize(me, rng)``), where q's card is a sample consistent with what the
deciding player has seen. Under that rule nothing leaks, and ``heuristic(d, q)`` is the
same on every world ``d`` redeterminized for q (tested). The event and monster modules
add only public state, so the same holds with them on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.games.tricky_tides.constants import HANDS, ROUNDS
from cove.games.tricky_tides.data import DATA, GOODS_TYPES
from cove.games.tricky_tides.state import TidesState

if TYPE_CHECKING:
    from cove.core import State

ORDER_VALUE = tuple(float(v) for v in (1, 1, 2, 2, 3))[:GOODS_TYPES]


def heuristic(state: State, player: int) -> float:
    assert isinstance(state, TidesState)
    gold, bonus, sold = state.score_parts(player)
    if state.is_over:
        return float(gold + bonus + sold)
    hands_left = (ROUNDS - state.round) * HANDS - state.hand_no
    left = hands_left / (ROUNDS * HANDS)
    hold = state.hold
    b = player * GOODS_TYPES
    cargo = 0.0
    for t in range(GOODS_TYPES):
        k = hold[b + t]
        if k:
            cargo += k * (ORDER_VALUE[t] * 0.5 * left + (1.0 - left) / DATA.sell[t])
    # future orders: about one delivery every few hands for a reasonable player
    future = 0.2 * hands_left
    return float(gold + bonus) + cargo + future
