"""The game half of the contract: a game's declaration.

A game module ends with one ``GAME = Game(...)`` that declares its properties up front
(player counts, chance, hidden information, simultaneous moves, options) and names its
state class, heuristic and terminal renderer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cove.core.errors import PlayerCountError
from cove.core.options import Options, build_options, describe_options
from cove.core.state import State

Heuristic = Callable[[State, int], float]
"""heuristic(state, player) -> estimate of player's final score, using only what player sees."""

Renderer = Callable[[dict[str, Any], bool], str]
"""render(view, color) -> text for a terminal; view is ``state.view(p)``."""


@dataclass(frozen=True)
class Game:
    id: str
    name: str
    state_cls: type[State]
    min_players: int
    max_players: int
    version: str
    summary: str
    chance: bool
    hidden_information: bool
    simultaneous: bool
    options_cls: type[Options] = Options
    heuristic: Heuristic | None = None
    render: Renderer | None = None
    max_actions: Callable[[int, Options], int] | None = None
    """An upper bound on the actions a game of this configuration can take (players,
    options): the conformance harness fails a game that runs past it."""

    def new(self, players: int, seed: int = 0, *, log: bool = True, **options: Any) -> State:
        """A new game. ``log=False`` skips building event texts (for fast simulation)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise PlayerCountError(f"{self.id}: players must be a whole number, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(
                f"{self.id} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        opts = build_options(self.options_cls, options, players, self.id)
        s = object.__new__(self.state_cls)
        s._init_base(self, players, int(seed), opts, log)
        s.setup()
        return s

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "version": self.version,
            "summary": self.summary,
            "chance": self.chance,
            "hidden_information": self.hidden_information,
            "simultaneous": self.simultaneous,
            "options": describe_options(self.options_cls),
        }
