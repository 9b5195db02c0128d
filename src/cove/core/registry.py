"""The registry: one line per game, id -> module holding ``GAME``.

It lives in the core so that the core (records, stored states) can find a game by id
without importing ``cove.games``; the modules are named, and imported only when asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from cove.core.errors import UnknownGame

if TYPE_CHECKING:  # the registry names modules; it never imports a game (or Game) itself
    from cove.core.game import Game

REGISTRY: dict[str, str] = {
    "tiny-epic-pirates": "cove.games.tiny_epic_pirates",
    "trails-of-tucana": "cove.games.trails_of_tucana",
    "tricky-tides": "cove.games.tricky_tides",
    "the-tide": "cove.games.the_tide",
    "high-water": "cove.games.high_water",
}


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
