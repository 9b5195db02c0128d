"""Uniformly random legal moves: the baseline every other bot must beat."""

from __future__ import annotations

from cove.bots.base import Bot
from cove.core.state import Action, State


class RandomBot(Bot):
    name = "random"
    summary = "uniform over the legal actions"

    def choose(self, state: State, player: int) -> Action:
        return self.rng.choice(state.legal_actions(player))

    def act(self, state: State, player: int) -> Action:
        # Reads nothing but the player's own legal actions, so it skips the safe copy
        # (for_player resamples hidden cards: milliseconds a move in a card game).
        return self.choose(state, player)
