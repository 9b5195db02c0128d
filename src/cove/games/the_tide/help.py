"""What each of The Tide's moves does, in words, for players (``help <move>`` in the
terminal, the web's move list). Text only; the rules never import it."""

from __future__ import annotations

from cove.core import MoveHelp
from cove.games.the_tide.beach import MOVE_REACH
from cove.games.the_tide.data import DATA

HELP = MoveHelp(
    moves=(
        (r"place friend at (\w+)", "puts a friend of the player named in the prompt on "
         r"square \1 of the beach (setup, R2)"),
        (r"move (\w+) to (\w+)", rf"moves your friend from \1 to \2 in a straight line (1-"
         rf"{MOVE_REACH} squares, never across another player's friend); this is your whole "
         "turn (R3)"),
        (r"collect (.+) at (\w+)", r"takes the \1 from under your friend at \2 into your "
         "collection, then the tide comes in: the piles refill the emptied columns (R3, R4)"),
        (r"pass", "does nothing this turn (R3); turns in which nothing could be collected "
         "count towards the stall guard (R7.4)"),
        (r"return (\w+) to pile (\w+)", r"puts a \1 from your collection back on top of pile "
         r"\2 (a reward's cost, R6, or a shirking friend's shell, R5)"),
        (rf"take {DATA.double_points} points", f"takes {DATA.double_points} points for your "
         "double recycling (R6.5)"),
        (rf"take {DATA.double_friend_points} point and a new friend",
         f"takes {DATA.double_friend_points} point for your double recycling and a new friend, "
         "who enters at the start of your next turn (R6.5, R6.12)"),
    ),
)
"""The move help: a pattern per kind of move, first match wins. The Tide's turn has no
numbered steps, so no step is ever skipped with a reason."""
