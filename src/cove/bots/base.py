"""The bot contract: a bot sees a state only through the public game contract."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from cove.core.rng import Rng
from cove.core.state import Action, State

if TYPE_CHECKING:
    from cove.bots.spec import Param


class Bot(ABC):
    """A policy. ``choose`` must return one of ``state.legal_actions(player)``.

    A bot must not read what ``state.view(player)`` hides: a search starts from
    ``state.redeterminize(player, rng)``. Parameters a spec may set are listed in
    ``PARAMS`` and arrive as keyword arguments of the constructor.
    """

    name: str = "bot"
    summary: ClassVar[str] = ""
    PARAMS: ClassVar[tuple[Param, ...]] = ()

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    @abstractmethod
    def choose(self, state: State, player: int) -> Action: ...

    def __str__(self) -> str:
        return self.name
