"""Tiny Epic Pirates (Gamelyn Games, 2021): sail a 4x4 sea, plunder, trade, fight and be
the first to bury three treasures. See RULES.md for every rule and its source tag."""

from __future__ import annotations

from cove.core.game import Game
from cove.games.tiny_epic_pirates.heuristic import heuristic
from cove.games.tiny_epic_pirates.options import PiratesOptions
from cove.games.tiny_epic_pirates.render import render
from cove.games.tiny_epic_pirates.state import PiratesState

GAME = Game(
    id="tiny-epic-pirates",
    name="Tiny Epic Pirates",
    state_cls=PiratesState,
    min_players=1,
    max_players=4,
    version="1",
    summary="Pirate sandbox on a 4x4 sea: steer your captain round the wheel of orders, "
    "plunder, trade, fight merchants and rivals, and bury three treasures first. "
    "1 player plays against the solo pirate (partly DESIGN).",
    chance=True,
    hidden_information=True,
    simultaneous=False,
    options_cls=PiratesOptions,
    heuristic=heuristic,
    render=render,
)
