"""What each High Water move does, in words, and why a segment step offered nothing
(``HELP``, the declaration's ``move_help``). The dice colours, their names and actions and
the price of an extra marker removal are read from the loaded data file."""

from __future__ import annotations

import re

from cove.core import MoveHelp
from cove.games.high_water.data import DATA

SKIPPED = {
    2: "no active crew ability you can pay for",
    3: "no die in your hold to spend",
    4: "no purchase possible",
    5: "no quest task you can complete",
    6: "no sabotage marker to remove",
}
"""Why a segment step (F11-F15) passes a player by: it offered nothing."""

DICE = {c.id: f"{c.name}: {c.text}" for c in DATA.colours}
"""Each die colour's id -> its name and action ("yellow: gain 1 gold on 1-3, 2 on 4-6")."""

_DIE = "(" + "|".join(sorted((c.id for c in DATA.colours), key=len, reverse=True)) + ")"
"""A die colour's id, as a regular expression group (longest first, so a prefix of one id
never stands for another)."""


def _dice_for(kind: str) -> str:
    """The colours whose die action is ``kind``, as "red die" ("red or blue die")."""
    return " or ".join(c.name for c in DATA.colours if c.action.kind == kind) + " die"


MOVES = (
    (r"play (\d+) \(re-reveal( \d+)?\)", r"reveals trick card \1 to break a tie (R5)"),
    (r"to (\d+)", r"puts the die on face \1"),
    (r"play (\d+)", r"plays trick card \1 in secret; the highest card wins in high water, "
     "the lowest in low water (R2-R5)"),
    (r"take crate (\d+) \((.+)\)", r"takes crate \1: the dice \2 go into your hold (R7)"),
    (rf"use {_DIE}(\d)", r"spends your \1\2 for its colour's action (step 3): {die}"),
    (r"buy (.+)", r"buys \1 from the market by paying its dice pattern (step 4)"),
    (rf"pay {_DIE}(\d)", r"pays with your \1\2 for the icon named in the prompt"),
    (r"advance (.+)", r"completes the next task of your quest \1 (step 5)"),
    (r"activate (.+)", r"uses the active ability of your crew member \1 (step 2)"),
    (r"cycle (.+)", r"puts the market card \1 under its deck and reveals the next"),
    (rf"reroll {_DIE}(\d)", rf"re-rolls your \1\2 ({_dice_for('reroll')})"),
    (rf"set {_DIE}(\d)", r"sets a die to \1\2"),
    (rf"return {_DIE}(\d)", r"returns your \1\2 to the bag"),
    (r"sabotage p(\d) (.+)",
     rf"puts a sabotage marker on P\1's quest \2 ({_dice_for('sabotage')})"),
    (r"remove marker from (.+)", r"clears a sabotage marker from your quest \1"),
    (r"pay to remove marker from (.+)",
     rf"pays {DATA.extra_removal_gold} gold to clear one more marker from \1"),
    (r"next step", "leaves this step for the next one that offers you something"),
    (r"stop|end segment", "ends your segment"),
    (r"roll", "rolls the dice"),
)


class DiceHelp(MoveHelp):
    """The move help with each die colour's action spelled out for ``{die}``."""

    def explain(self, text: str) -> str:
        out = super().explain(text)
        if "{die}" in out:
            m = re.match(rf"use {_DIE}", text)
            out = out.replace("{die}", DICE[m.group(1)] if m else "its colour's action")
        return out


HELP = DiceHelp(MOVES, SKIPPED)
