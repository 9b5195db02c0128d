"""The Tide: clean the beach of rubbish before the tide brings more (2-6 players)."""

from __future__ import annotations

from cove.core.game import Game
from cove.games.the_tide.heuristic import heuristic
from cove.games.the_tide.options import TideOptions
from cove.games.the_tide.render import render
from cove.games.the_tide.state import TideState

GAME = Game(
    id="the-tide",
    name="The Tide",
    state_cls=TideState,
    min_players=2,
    max_players=6,
    version="1",
    summary="Move friends on a 6x6 beach, collect rubbish groups and shells; every collection "
            "brings the tide, then a check scores recycling and collections. 10 points wins.",
    chance=True,
    hidden_information=True,
    simultaneous=False,
    options_cls=TideOptions,
    heuristic=heuristic,
    render=render,
)

__all__ = ["GAME"]
