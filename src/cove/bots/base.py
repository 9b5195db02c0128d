"""The bot contract: a bot sees a state only through the public game contract."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from cove.core.rng import Rng
from cove.core.state import Action, State

if TYPE_CHECKING:
    from cove.bots.budget import Budget
    from cove.bots.spec import Param


class Bot(ABC):
    """A policy. ``choose`` must return one of ``state.legal_actions(player)``.

    Callers go through :meth:`act`, which hands ``choose`` the safe state
    ``state.for_player(player, ...)``: only what the player may know (hidden cards are a
    sample, the seed, the chance record and other players' unrevealed commitments are
    gone), so a bot cannot read what ``view(player)`` hides even by accident, and cannot
    change the real game. Parameters a spec may set are listed in ``PARAMS`` and arrive as
    keyword arguments of the constructor.
    """

    name: str = "bot"
    summary: ClassVar[str] = ""
    PARAMS: ClassVar[tuple[Param, ...]] = ()
    GAME_DEFAULTS: ClassVar[bool] = False
    """Whether a spec-built bot of this kind reads a game's ``BOT_DEFAULTS``."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self.spec_params: frozenset[str] | None = None
        """The parameters a spec named (set by ``make_bot``); a bot built from a spec may
        take a game's declared defaults for the others (``cove.bots.defaults``). None: built
        directly, it plays exactly its constructor's arguments."""
        self.level: str | None = None
        """The level this bot was built as (``make_bot("hard")``), else None; a game may
        declare its own parameters for a level (``cove.bots.defaults``)."""
        self.budget: Budget | None = None
        """The server's bound on a move (:meth:`bound`); None: the spec's own budget."""

    def bound(self, budget: Budget) -> None:
        """Hold every later move to ``budget`` whatever the spec asked (a server's
        :class:`~cove.bots.budget.Budget`); a bot whose work has a size of its own
        (iterations, samples) caps it."""
        self.budget = budget

    def over_budget(self, budget: Budget, game: object | None = None) -> str | None:
        """What in this bot's parameters asks for more work a move than ``budget``
        (``"samples=300 (at most 32)"``), or None; ``game``: the table's game, whose declared
        defaults count. A bot with nothing to size (``random``) is never over."""
        return None

    @abstractmethod
    def choose(self, state: State, player: int) -> Action: ...

    def act(self, state: State, player: int) -> Action:
        """The bot's move in the real ``state``: ``choose`` sees only ``for_player``."""
        return self.choose(state.for_player(player, self.rng), player)

    def __str__(self) -> str:
        return self.name
