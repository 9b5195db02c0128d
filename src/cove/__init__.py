"""Cove: a Python engine for modern tabletop games.

    import cove
    game = cove.load(cove.ids()[0])
    state = game.new(players=3, seed=7)
    while not state.is_over:
        p = state.to_move()[0]
        state.apply(p, state.legal_actions(p)[0])
"""

from cove.core import state as state_module
from cove.core.errors import (
    CoveError,
    DataError,
    IllegalAction,
    OptionError,
    PlayerCountError,
    RecordError,
    UnknownGame,
)
from cove.core.game import Game
from cove.core.history import Event
from cove.core.options import Options, option
from cove.core.record import replay
from cove.core.rng import Rng
from cove.core.state import State
from cove.games import all_games, ids, load

__version__ = "0.2.0"

BUILD = "pure" if (state_module.__file__ or "").endswith(".py") else "compiled"
"""Which build runs: ``pure`` (Python) or ``compiled`` (the engine compiled with mypyc;
docs/BUILD.md)."""

__all__ = [
    "BUILD",
    "CoveError",
    "DataError",
    "Event",
    "Game",
    "IllegalAction",
    "OptionError",
    "Options",
    "PlayerCountError",
    "RecordError",
    "Rng",
    "State",
    "UnknownGame",
    "all_games",
    "ids",
    "load",
    "option",
    "replay",
]
