"""The game half of the contract: a game's declaration.

A game's ``__init__.py`` holds one ``GAME = Game(...)`` that declares its properties up
front (player counts, chance, hidden information, simultaneous moves, options) and names
everything a surface needs: the state class, heuristic, terminal renderer, web board,
action universe, observation size, score parts, tie-break, move help and bot defaults.
Surfaces (CLI, terminal, web, lab, bots, research environments) read a game only from
here, so a game is one folder and no surface knows a game by its id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol

from cove.core.actions import ActionSpace
from cove.core.data import data_digests
from cove.core.errors import OptionError, PlayerCountError
from cove.core.observer import Observer
from cove.core.options import Options, build_options, describe_options, options_schema
from cove.core.portable import state_from_json
from cove.core.rng import Rng
from cove.core.state import State

Heuristic = Callable[[State, int], float]
"""heuristic(state, player) -> estimate of player's final score, using only what player sees."""

class Renderer(Protocol):
    """render(view, color, width) -> text for a terminal of ``width`` columns; view is
    ``state.view(p)``. No line may be longer than ``width`` (a compact layout below 100)."""

    def __call__(self, view: dict[str, Any], color: bool = False, width: int = 100) -> str: ...


class Board(Protocol):
    """draw(view, legal, seat) -> one ``<svg>`` element: the web board drawn from ``view``
    (``state.view(seat)``) for ``seat`` (None: a spectator). ``legal`` is the seat's legal
    actions now, ``[{"text": str, "json": {...}}]``; every clickable part is made with
    ``cove.core.svg.target`` and names the legal move texts a click on it could mean."""

    def __call__(self, view: dict[str, Any], legal: list[dict[str, Any]],
                 seat: int | None) -> str: ...


EndReason = Callable[[dict[str, Any]], str]
"""end_reason(view) -> why a finished game ended, in plain words ("P2 buried a third
treasure, so the round was played out"), read from ``state.view(None)`` once over."""

ScoreParts = Callable[[dict[str, Any], int], Sequence[tuple[str, float]]]
"""score_parts(view, p) -> [(name, points)]: seat ``p``'s score in named parts as far as
``view`` shows them. Once the game is over they add up to ``state.scores()[p]`` in every
view (the conformance harness checks it)."""


@dataclass(frozen=True)
class MoveHelp:
    """What each move does, for ``help <move>`` in the terminal and the web's move list.

    ``moves`` pairs a regular expression over a move's text with a template (``\\1`` for
    a group) that says what the move does, first match wins; ``skipped`` says why a
    numbered step of a turn offered nothing ("no purchase possible"). A game whose help
    needs its data (names of dice, cards) subclasses it and overrides ``explain``."""

    moves: tuple[tuple[str, str], ...] = ()
    skipped: Mapping[int, str] = field(default_factory=dict)

    def explain(self, text: str) -> str:
        """What the move ``text`` does; "" when no pattern matches."""
        for pattern, template in self.moves:
            m = re.fullmatch(pattern, text)
            if m is not None:
                return m.expand(template)
        return ""

    def skip_reason(self, step: int) -> str:
        """Why step ``step`` offered nothing; "" when not told."""
        return self.skipped.get(step, "")


GUIDE = "HOW_TO_PLAY.md"
"""The player's guide in every game folder: what you try to do, setup, a turn, scoring,
how it ends and what the screen shows, in plain words (no rule numbers, tags or paths)."""
RULES = "RULES.md"
"""Every rule numbered, tagged with its source and traced to its test: for the curious."""


SURFACES = ("render", "board", "heuristic", "actions", "observation", "score_parts",
            "tiebreak", "move_help", "bot_defaults")
"""What every game declares on ``Game`` or names in ``declines`` with the reason: the
terminal screen, the web board, the bots' heuristic, the action universe and observation
(research environments), the score in parts, the tie-break, move help and the bots'
per-game parameters."""


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
    ``observation_size(players, **options)``. Given by ``observer`` when it is set."""
    observer: Observer | None = field(default=None, compare=False)
    """The observation as named blocks (:mod:`cove.core.observer`): the state's
    observation, its size and the SPEC.md table all come from it."""
    safety_ends: tuple[str, ...] = ()
    """Values of ``state.stats()["end"]`` that are safety cut-offs (a round cap, a stall
    guard) rather than the game's own ends: the lab warns when they decide many games."""
    board: Board | None = field(default=None, compare=False)
    """The web board drawing (the game's ``web_board.draw``)."""
    score_parts: ScoreParts | None = field(default=None, compare=False)
    """The score in named parts (end screens, the web's score table)."""
    tiebreak: tuple[str, ...] = ()
    """What ``State.tiebreak(p)`` compares, in its order and in words ("most quests
    completed", ...): the one source for the end screens, the web and the help; RULES.md
    states the same names (the docs test checks)."""
    move_help: MoveHelp | None = field(default=None, compare=False)
    """What each move does (the game's ``help.py``)."""
    end_reason: EndReason | None = field(default=None, compare=False)
    """Why a finished game ended, in plain words (the game's ``view.py``): the end screens
    say it, and that a safety cut-off (``safety_ends``) stopped it when one did."""
    bot_defaults: Mapping[str, str] = field(default_factory=dict, compare=False)
    """Per bot or level, the parameters this game's bots take unless a spec names them, in
    spec form (``{"hard": "rollout=heuristic"}``; ``cove.bots.defaults``)."""
    declines: Mapping[str, str] = field(default_factory=dict, compare=False)
    """Surfaces of ``SURFACES`` this game does not offer, each with the reason."""
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
        s = self.state_cls.__new__(self.state_cls)  # no __init__: set up below
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
        if self.observer is not None:
            size = self.observer.size(players, options)
        elif self.observation_encoding is None:
            raise NotImplementedError(f"{self.id} declares no observation encoding")
        else:
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
            if pkg == "cove":  # a one-module game directly in cove: only itself
                pkg = mod
            if pkg not in out:
                out.append(pkg)
        return tuple(out)

    def data_digests(self, options: Options) -> dict[str, str]:
        """Content hashes of the data files a configuration depends on (for records)."""
        return data_digests(options)

    @property
    def package(self) -> str:
        """The game's package (its folder): where RULES.md, SPEC.md and the data live."""
        mod = self.state_cls.__module__
        return mod.rpartition(".")[0] or mod

    def document(self, name: str) -> str:
        """The text of the file ``name`` in the game's folder (``GUIDE``, ``RULES``); ""
        when the game ships none."""
        try:
            return resources.files(self.package).joinpath(name).read_text(encoding="utf-8")
        except (FileNotFoundError, ModuleNotFoundError, OSError):
            return ""

    @property
    def how_to_play(self) -> str:
        """The player's guide (``GUIDE``, markdown); "" when the game ships none."""
        return self.document(GUIDE)

    @property
    def rules_text(self) -> str:
        """The full rules (``RULES``, markdown); "" when the game ships none."""
        return self.document(RULES)

    def options_schema(self, players: int) -> dict[str, Any]:
        """The options as a JSON Schema for ``players`` players: the one source for the
        lobby's form, ``cove games --json``, the CLI's ``-o`` and the API's checks."""
        return options_schema(self.options_cls, players, self.id)

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
            "tiebreak": list(self.tiebreak),
            "safety_ends": list(self.safety_ends),
            "schema": {str(n): self.options_schema(n)
                       for n in range(self.min_players, self.max_players + 1)},
        }
