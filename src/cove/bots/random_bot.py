"""Uniformly random legal moves: the baseline every other bot must beat."""

from __future__ import annotations

from cove.bots.base import Bot
from cove.core.state import Action, State


class RandomBot(Bot):
    name = "random"
    summary = "uniform over the legal actions"

    def choose(self, state: State, player: int) -> Action:
        return self.rng.choice(state.legal_actions(player))
