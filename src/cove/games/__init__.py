"""The registry: one line per game, id -> module holding ``GAME``."""

from __future__ import annotations

import importlib

from cove.core.errors import UnknownGame
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
    module = REGISTRY.get(game_id) or REGISTRY.get(game_id.replace("_", "-").lower())
    if module is None:
        raise UnknownGame(f"unknown game {game_id!r}; games: {', '.join(ids()) or '(none)'}")
    game: Game = importlib.import_module(module).GAME
    return game


def all_games() -> list[Game]:
    return [load(i) for i in ids()]
