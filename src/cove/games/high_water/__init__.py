"""High Water: dice crates, a water coin, a secret trick, crews and quests (2-5 players)."""

from __future__ import annotations

from cove.core.game import Game
from cove.games.high_water.heuristic import heuristic
from cove.games.high_water.options import HighWaterOptions
from cove.games.high_water.render import render
from cove.games.high_water.state import HighWaterState

GAME = Game(
    id="high-water",
    name="High Water",
    state_cls=HighWaterState,
    min_players=2,
    max_players=5,
    version="1",
    summary=(
        "Draft dice crates by a secret trick whose direction a water coin sets, then spend "
        "dice, gold and rum on crew and quests; first to 20 influence (working title; the "
        "round procedure is the designer's fragment, the rest is a DESIGN completion)"
    ),
    chance=True,
    hidden_information=True,
    simultaneous=True,
    options_cls=HighWaterOptions,
    heuristic=heuristic,
    render=render,
)

__all__ = ["GAME", "HighWaterState"]
