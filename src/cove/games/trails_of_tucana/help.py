"""What each move of Trails of Tucana does, in words: ``help <move>`` in the terminal and
the web's move list (``Game.move_help``). Text only; the rules never import it."""

from __future__ import annotations

from cove.core import MoveHelp

HELP = MoveHelp(
    moves=(
        (r"draw (\w+)-(\w+)", r"draws a trail segment on your island between spaces \1 and "
         r"\2 (the column's letter, then the row's number); the two spaces must match the "
         "terrain of the two cards turned this step (R3). Linking a village pair or sights "
         "may score (R4-R7)"),
        (r"bonus (\w+)-(\w+)", r"draws a bonus segment on your island between spaces \1 and "
         r"\2, whatever their terrain (R4.4); it may link more sights and earn another "
         "bonus segment (R4.5)"),
        (r"pass", "draws nothing: no free segment fits the cards (R3.7), or, in a bonus "
         "step, declines the rest of your bonus segments (R4.8)"),
    ),
)
"""The move help: a pattern per kind of action (``draw``, ``bonus``, ``pass``). A turn has
no numbered steps, so no step is skipped with a reason."""
