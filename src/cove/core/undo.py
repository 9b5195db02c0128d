"""Undo without cheating: when a player may take back their latest decision, derived from
the history and the random generator alone, the same way for every game (Board Game
Arena's undo policy, stated as rules).

A player may take back their latest decision while

1. no other player has decided since (it is the last entry of the history, a secret
   commitment included);
2. no chance outcome was drawn since (the generator is where it was before the decision);
3. nothing hidden was revealed to them by it: in every world the player could have been
   in before it (``redeterminize``), the same decision shows them the same view. The
   worlds are drawn from a generator seeded by the position, so the answer is the same
   every time it is asked.

Taking it back rebuilds the game from its seed without that decision, as a record is
replayed, so a chance outcome drawn earlier comes out the same again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.core.errors import CoveError
from cove.core.rng import Rng

if TYPE_CHECKING:
    from cove.core.state import State

WORLDS = 12
"""Worlds checked for a reveal (rule 3); the tests check with many more."""


def before_last(state: State) -> State:
    """The game as it was before its latest decision, rebuilt from its seed and options
    with every decision but the last (as ``cove.replay`` rebuilds a record)."""
    again = state.game.new(state.n, state.seed, log=state.logging,
                           **state.options.to_dict())
    for player, action in state.history[:-1]:
        again.apply(player, action)
    return again


def why_not(state: State, player: int, worlds: int = WORLDS) -> str:
    """Why ``player`` may not take back their latest decision now, or "" when they may."""
    player = state.seat(player)
    history = state.history
    if not history:
        return "nobody has decided yet"
    last_player, last_action = history[-1]
    if last_player != player:
        return (f"P{last_player + 1} decided last" if any(p == player for p, _ in history)
                else "you have not decided yet")
    before = before_last(state)
    if before.rng.state != state.rng.state:
        return "a chance outcome was drawn since"
    seen = state.view(player)
    for w in range(worlds):
        world = before.redeterminize(player, Rng(state.seed * 7919 + state.decisions * 31 + w))
        world.logging = False
        try:
            world.apply(player, last_action)
        except CoveError:  # the decision itself was not open in every world
            return "it depended on something hidden"
        if world.view(player) != seen:
            return "it showed you something hidden"
    return ""


def undone(state: State, player: int) -> State:
    """The game without ``player``'s latest decision; ValueError when :func:`why_not`
    says it may not be taken back."""
    reason = why_not(state, player)
    if reason:
        raise ValueError(f"P{state.seat(player) + 1} cannot take back their last decision: "
                         f"{reason}")
    return before_last(state)
