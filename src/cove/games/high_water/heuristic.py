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

from cove.core import State
from cove.games.high_water.rules import NO_FLAGS, SEG, has_flag

RESERVE = 3  # gold or rum worth keeping beyond what the quests ask for (actives, removal)


def heuristic(state: State, player: int) -> float:
    from cove.games.high_water.state import HighWaterState

    assert isinstance(state, HighWaterState)
    cards = state.data.cards
    estimate = float(sum(cards[c].influence for c in state.completed[player]))
    own = state.phase == SEG and state.segment_player() == player and state.step <= 5
    flags = state.flags_now(player) if own else NO_FLAGS
    need_gold = need_rum = 0
    for quest in state.quests[player]:
        card = cards[quest.card]
        tasks = card.tasks
        done = quest.done
        if (own and not quest.markers and done < len(tasks) and tasks[done].flag >= 0
                and has_flag(flags, tasks[done].flag)):
            done += 1
        part = card.influence * (done + 1) / (len(tasks) + 1) * 0.6
        estimate += part * (0.5 if quest.markers else 1.0)
        for task in tasks[done:]:
            need_gold += task.gold
            need_rum += task.rum
    for have, need in ((state.gold[player], need_gold), (state.rum[player], need_rum)):
        full = min(have, need + RESERVE)
        estimate += 0.3 * full + 0.1 * (have - full)
    estimate += 0.45 * len(state.dice[player])
    rounds_left = max(0, state.options.max_rounds - state.round)
    estimate += 0.1 * rounds_left * len(state.crew[player])
    return estimate
