"""A short game of any title, for tests and screenshots that must see a game's end: the
seats and the options that make it end soon, read from the game's declaration only."""

from __future__ import annotations

import cove

GUARDS = ("safety end", "software guard")
"""How an option's description marks a limit that only stops a game running too long."""


def short_game(game_id: str) -> tuple[list[str], dict[str, str]]:
    """The bots after a human P1 and the options (as typed in the lobby's form) that make
    a whole game end soon: alone when the game has a solo mode, else against one random
    bot; every integer option its schema calls a safety end or a software guard set to 3
    rounds, or 40 turns, or its minimum when that is more (never above its default)."""
    game = cove.load(game_id)
    players = 1 if game.min_players == 1 else 2
    options: dict[str, str] = {}
    for name, p in game.options_schema(players)["properties"].items():
        text = str(p.get("description", "")).lower()
        if p.get("type") != "integer" or not any(g in text for g in GUARDS):
            continue
        short = 3 if "round" in name else 40 if "turn" in name else None
        if short is not None:
            value = min(int(p["default"]), max(int(p.get("minimum", short)), short))
            if value != p["default"]:
                options[name] = str(value)
    return ["random"] * (players - 1), options
