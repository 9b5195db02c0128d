"""The registry: game id -> the module holding its ``GAME``.

Every folder of ``src/cove/games/`` is a game whose id is the folder's name with ``-`` for
``_`` (``my_game`` is ``my-game``): adding a game is adding its folder, and no
list names the games. The folders are found without importing them; a game's module is
imported only when asked for. It lives in the core so that the core (records, stored
states) can find a game by id without importing ``cove.games``. Tests may add entries
(a toy game under another module).
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import TYPE_CHECKING

from cove.core.errors import UnknownGame

if TYPE_CHECKING:  # the registry names modules; it never imports a game (or Game) itself
    from cove.core.game import Game

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
"""The folder of the shipped games (the package ``cove.games``)."""


def discover(folder: Path = GAMES_DIR, package: str = "cove.games") -> dict[str, str]:
    """Game id -> module for every game package in ``folder`` (one not starting with ``_``)."""
    return {info.name.replace("_", "-"): f"{package}.{info.name}"
            for info in pkgutil.iter_modules([str(folder)])
            if info.ispkg and not info.name.startswith("_")}


REGISTRY: dict[str, str] = discover()


def ids() -> list[str]:
    return sorted(REGISTRY)


def load(game_id: str) -> Game:
    """The game with this id; an unknown id raises UnknownGame listing the valid ones."""
    if not isinstance(game_id, str):
        raise UnknownGame(f"a game id is text, not {type(game_id).__name__}; "
                          f"games: {', '.join(ids())}")
    module = REGISTRY.get(game_id) or REGISTRY.get(game_id.replace("_", "-").lower())
    if module is None:
        shown = game_id if len(game_id) <= 40 else game_id[:40] + "..."
        raise UnknownGame(f"unknown game {shown!r}; games: {', '.join(ids()) or '(none)'}")
    path, _, attr = module.partition(":")  # "package.module" or "package.module:NAME"
    game: Game = getattr(importlib.import_module(path), attr or "GAME")
    return game


def all_games() -> list[Game]:
    return [load(i) for i in ids()]
