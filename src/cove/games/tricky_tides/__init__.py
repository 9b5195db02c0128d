"""Tricky Tides: trick-taking that steers merchant ships round a 3x4 map (with optional
event and monster modules)."""

from __future__ import annotations

from cove.core.game import Game
from cove.games.tricky_tides.heuristic import heuristic
from cove.games.tricky_tides.options import TidesOptions
from cove.games.tricky_tides.render import render
from cove.games.tricky_tides.state import TidesState

GAME = Game(
    id="tricky-tides",
    name="Tricky Tides",
    state_cls=TidesState,
    min_players=2,
    max_players=4,
    version="1",
    summary="Win tricks to sail first; the card you play steers your ship. Pick up goods, "
    "deliver orders, score gold over 3 rounds. Optional modules: events (a rule change "
    "each round) and monsters (activated by the lowest card of their suit).",
    chance=True,
    hidden_information=True,
    simultaneous=False,
    options_cls=TidesOptions,
    heuristic=heuristic,
    render=render,
)

__all__ = ["GAME"]
