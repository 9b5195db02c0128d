"""The bot contract: a bot sees a state only through the public game contract."""

from __future__ import annotations

from abc import ABC, abstractmethod

from cove.core.rng import Rng
from cove.core.state import Action, State


class Bot(ABC):
    """A policy. ``choose`` must return one of ``state.legal_actions(player)``.

    A bot must not read what ``state.view(player)`` hides: a search starts from
    ``state.redeterminize(player, rng)``.
    """

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    @abstractmethod
    def choose(self, state: State, player: int) -> Action: ...

    def __str__(self) -> str:
        return self.name
