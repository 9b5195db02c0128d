"""A cheap estimate of a player's final influence, from public information only.

Completed quests count in full (including one finished earlier in the current segment).
An active quest counts for the share of its tasks already done, halved while sabotaged; in
the player's own segment (before Step 6) a next task of the kind "did <flag>" whose flag is
already set counts as done too, so a one-step search sees that a red die unlocks "did
used_red" before it has advanced the quest. Gold and rum count 0.3 influence each up to what
the player's active quests still ask for plus a small reserve, and 0.1 beyond that (a hoard
does not score); dice count 0.45 each (a die buys cards, whereas its gold or rum is worth
about the same or less); each crew card 0.1 per round left (the income it brings).
"""

from __future__ import annotations

from cove.core.state import State
from cove.games.high_water.rules import SEG

RESERVE = 3  # gold or rum worth keeping beyond what the quests ask for (actives, removal)


def heuristic(state: State, player: int) -> float:
    from cove.games.high_water.state import HighWaterState

    assert isinstance(state, HighWaterState)
    cards = state.D.cards
    est = float(sum(cards[c].influence for c in state.done_q[player]))
    own = state.phase == SEG and state.cur() == player and state.step <= 5
    flags = state.flags_now(player) if own else 0
    need_g = need_r = 0
    for cid, done, marks in state.quests[player]:
        card = cards[cid]
        tasks = card.tasks
        if own and not marks and done < len(tasks) and tasks[done].flag >= 0 \
                and flags >> tasks[done].flag & 1:
            done += 1
        part = card.influence * (done + 1) / (len(tasks) + 1) * 0.6
        est += part * (0.5 if marks else 1.0)
        for t in tasks[done:]:
            need_g += t.gold
            need_r += t.rum
    for have, need in ((state.gold[player], need_g), (state.rum[player], need_r)):
        full = min(have, need + RESERVE)
        est += 0.3 * full + 0.1 * (have - full)
    est += 0.45 * len(state.dice[player])
    left = max(0, state.opts.max_rounds - state.rnd)
    est += 0.1 * left * len(state.crew[player])
    return est
