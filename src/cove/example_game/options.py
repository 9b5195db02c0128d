"""The Toy's options: every choice a table can make before the game."""

from __future__ import annotations

from dataclasses import dataclass

from cove.core import Options, option


@dataclass(frozen=True)
class ToyOptions(Options):
    plays: int = option(12, help="[DESIGN] cards played in all before the game ends",
                        minimum=1, maximum=12)
    bidding: bool = option(True, help="[DESIGN] open with a simultaneous secret bid")
