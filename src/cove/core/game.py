"""The game half of the contract: a game's declaration.

A game module ends with one ``GAME = Game(...)`` that declares its properties up front
(player counts, chance, hidden information, simultaneous moves, options) and names its
state class, heuristic, terminal renderer, action universe and observation size.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cove.core.actions import ActionSpace
from cove.core.data import data_digests
from cove.core.errors import OptionError, PlayerCountError
from cove.core.options import Options, build_options, describe_options
from cove.core.rng import Rng
from cove.core.state import State, state_from_json

Heuristic = Callable[[State, int], float]
"""heuristic(state, player) -> estimate of player's final score, using only what player sees."""

class Renderer(Protocol):
    """render(view, color, width) -> text for a terminal of ``width`` columns; view is
    ``state.view(p)``. No line may be longer than ``width`` (a compact layout below 100)."""

    def __call__(self, view: dict[str, Any], color: bool = False, width: int = 100) -> str: ...


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
    actions: Callable[[int, Options], Sequence[Hashable]] | None = None
    """The action universe: every action (or action key) a configuration can ever offer,
    in a fixed order; index i of this list is action index i."""
    action_key: Callable[[Any], Hashable] | None = None
    """Maps a legal action to its entry in ``actions`` (default: the action itself)."""
    observation_encoding: Callable[[int, Options], int] | None = None
    """The length of ``state.observation(p)`` for (players, options); callers use
    ``observation_size(players, **options)``."""
    safety_ends: tuple[str, ...] = ()
    """Values of ``state.stats()["end"]`` that are safety cut-offs (a round cap, a stall
    guard) rather than the game's own ends: the lab warns when they decide many games."""
    _spaces: dict[tuple[int, Options], ActionSpace] = field(
        default_factory=dict, compare=False, repr=False)
    _last_space: tuple[int, Options, ActionSpace] | None = field(
        default=None, compare=False, repr=False)
    _last_size: tuple[int, Options, int] | None = field(default=None, compare=False, repr=False)

    def new(self, players: int, seed: int = 0, *, log: bool = True, **options: Any) -> State:
        """A new game. ``log=False`` skips building event texts (for fast simulation)."""
        return self.start(players, seed, log=log, options=options)

    def start(self, players: int, seed: int = 0, *, log: bool = True,
              options: dict[str, Any] | None = None, rng: Rng | None = None) -> State:
        """``new`` with the options as a dict and, optionally, ``rng`` in place of the
        seeded generator (recorded outcomes, or physical dice at a table)."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise PlayerCountError(f"{self.id}: players must be a whole number, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(
                f"{self.id} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            text = repr(seed) if len(repr(seed)) < 60 else repr(seed)[:60] + "..."
            raise OptionError(f"{self.id}: the seed must be a whole number, got {text}")
        opts = build_options(self.options_cls, options or {}, players, self.id)
        s = object.__new__(self.state_cls)
        s._init_base(self, players, seed, opts, log, rng)
        s.setup()
        return s

    def from_json(self, data: Any) -> State:
        """The state ``State.to_json`` stored; RecordError when the data is malformed or
        for another game or version."""
        return state_from_json(self, data)

    def options(self, players: int, **options: Any) -> Options:
        return build_options(self.options_cls, options, players, self.id)

    def action_space(self, players: int, **options: Any) -> ActionSpace:
        """Every action this configuration can offer, numbered (size, encode, decode)."""
        return self.space_for(players, self.options(players, **options))

    def space_for(self, players: int, options: Options) -> ActionSpace:
        last = self._last_space
        if last is not None and last[1] is options and last[0] == players:
            return last[2]  # a learner asks every step: skip hashing every option value
        key = (players, options)
        space = self._spaces.get(key)
        if space is None:
            if self.actions is None:
                raise NotImplementedError(f"{self.id} declares no action universe")
            space = ActionSpace(self.actions(players, options), self.action_key)
            self._spaces[key] = space
        object.__setattr__(self, "_last_space", (players, options, space))  # (a cache)
        return space

    def observation_size(self, players: int, **options: Any) -> int:
        """The fixed length of ``state.observation(p)`` for this configuration."""
        return self.observation_size_for(players, self.options(players, **options))

    def observation_size_for(self, players: int, options: Options) -> int:
        last = self._last_size
        if last is not None and last[1] is options and last[0] == players:
            return last[2]
        if self.observation_encoding is None:
            raise NotImplementedError(f"{self.id} declares no observation encoding")
        size = self.observation_encoding(players, options)
        object.__setattr__(self, "_last_size", (players, options, size))
        return size

    def package_prefixes(self) -> tuple[str, ...]:
        """Modules whose classes a stored state of this game may name: the packages of
        the state class and of the game states it derives from, and ``cove.core``."""
        out = ["cove.core"]
        for cls in self.state_cls.__mro__:
            if cls is State or not issubclass(cls, State):
                continue
            mod = cls.__module__
            pkg = mod.rpartition(".")[0] or mod
            if pkg == "cove":  # a one-module game such as cove.example_game: only itself
                pkg = mod
            if pkg not in out:
                out.append(pkg)
        return tuple(out)

    def data_digests(self, options: Options) -> dict[str, str]:
        """Content hashes of the data files a configuration depends on (for records)."""
        return data_digests(options)

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
