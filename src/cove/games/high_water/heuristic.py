"""A cheap estimate of a player's final influence, from public information only.

Completed quests count in full (including one finished earlier in the current segment);
an active quest counts for the share of its tasks already done, halved while sabotaged;
gold, rum and dice count as about 0.3 influence each (a 5-influence quest costs some
7-8 resources in all), and each crew card as 0.1 per round left (the income it brings).
"""

from __future__ import annotations

from cove.core.state import State


def heuristic(state: State, player: int) -> float:
    from cove.games.high_water.state import HighWaterState

    assert isinstance(state, HighWaterState)
    cards = state.D.cards
    est = float(sum(cards[c].influence for c in state.done_q[player]))
    for cid, done, marks in state.quests[player]:
        card = cards[cid]
        part = card.influence * (done + 1) / (len(card.tasks) + 1) * 0.6
        est += part * (0.5 if marks else 1.0)
    est += 0.3 * (state.gold[player] + state.rum[player] + len(state.dice[player]))
    left = max(0, state.options.max_rounds - state.rnd)
    est += 0.1 * left * len(state.crew[player])
    return est
