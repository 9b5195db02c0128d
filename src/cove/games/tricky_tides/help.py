"""What each Tricky Tides move does, in words: :data:`HELP`, read through ``Game.move_help``
(``help <move>`` in the terminal, the web's move list). Text only; the rules never import
it. Tricky Tides numbers no steps of a turn, so there are no skip reasons."""

from __future__ import annotations

from cove.core import MoveHelp
from cove.games.tricky_tides.geometry import HEADINGS

HELP = MoveHelp(moves=(
    (r"start (\w+)", r"places your ship on the island at \1 (setup)"),
    (r"play (\d+) ([\w ]+)", r"plays the \2 card of value \1 to the trick: follow the led "
     "suit if you can; the card also sets how far and where your ship may sail"),
    (r"sail (" + "|".join(HEADINGS) + ")", r"sails your ship one step heading \1"),
    (r"sail on", "keeps sailing on the open sea in the same heading"),
    (r"stop at sea", "stops your ship on this open-sea card"),
    (r"drop anchor", "ends your sailing here (an anchor keeps your ship in place)"),
    (r"pick up (\w+)", r"loads every \1 on this island into your hold (the hold limit "
     "applies at the end)"),
    (r"deliver", "hands the goods an order of yours needs to this island and is paid the "
     "order's gold (see your orders on the board)"),
    (r"overboard (\w+)", r"throws one \1 out of your hold (over the hold limit)"),
    (r"pass", "does nothing here"),
))
