"""Trails of Tucana: a flip-and-write game of trails between villages and sights.

Every turn two terrain cards are revealed and every player at once draws one trail
segment between two adjacent spaces of those terrains on their own island.
"""

from __future__ import annotations

from cove.core.game import Game
from cove.games.trails_of_tucana.heuristic import heuristic
from cove.games.trails_of_tucana.options import TucanaOptions
from cove.games.trails_of_tucana.render import render
from cove.games.trails_of_tucana.state import TucanaState

GAME = Game(
    id="trails-of-tucana",
    name="Trails of Tucana",
    state_cls=TucanaState,
    min_players=1,
    max_players=8,
    version="1",
    summary="Flip-and-write: everyone draws trail segments on their own island at once, "
    "linking sights and village pairs (Isla Petit or Isla Grande).",
    chance=True,
    hidden_information=True,
    simultaneous=True,
    options_cls=TucanaOptions,
    heuristic=heuristic,
    render=render,
)

__all__ = ["GAME"]
