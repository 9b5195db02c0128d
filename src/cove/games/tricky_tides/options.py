"""Tricky Tides options: DESIGN choices that have a plausible other reading."""

from __future__ import annotations

from dataclasses import dataclass

from cove.core.options import Options, option


@dataclass(frozen=True)
class TidesOptions(Options):
    delivered_goods_to_bag: bool = option(
        True,
        help="[DESIGN] delivered goods go back into the draw bag; false: they leave the game",
    )
    sail_ties_from: str = option(
        "winner",
        choices=("winner", "lead"),
        help="[INFERRED] equal off-suit values sail clockwise from the hand's winner (who "
        "holds the rum barrel when ships sail) or from the player who led the hand",
    )
