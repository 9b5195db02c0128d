"""Options: the island, the official variants, and the DESIGN solo rule."""

from __future__ import annotations

from dataclasses import dataclass

from cove.core import Options, option
from cove.games.trails_of_tucana.data import TABLES


@dataclass(frozen=True)
class TucanaOptions(Options):
    map: str = option(
        "petit",
        help="which side of the score sheet: petit (Isla Petit, 2 rounds) or grande "
        "(Isla Grande variant, 3 rounds)",
        choices=("petit", "grande"),
    )
    random_start: bool = option(
        False,
        help="variant: the Mayor starts the set-up letters at a random village 1-10 "
        "(default: village 1); the other seats continue from the following villages",
    )
    counter_clockwise: bool = option(
        False, help="variant: write the set-up letters into the villages counter-clockwise"
    )
    symmetry: bool = option(
        False, help="variant: every player writes the letters into the same villages"
    )
    special_bonus: bool = option(
        False,
        help="variant: Special Bonus; 1 red card (2 for 5-8 players) scores for the first "
        "player(s) to connect its two sights to each other",
    )
    setup_card: int = option(
        0, help="which set-up card (1-13) to use; 0 = draw one at random", minimum=0, maximum=13
    )
    hide_earlier_cards: bool = option(
        True,
        help="[SEED] the cards of earlier turns are covered, so the view shows only the two "
        "current cards; false: the view also lists the cards revealed earlier this round, "
        "which every player saw (a memory aid)",
    )
    compulsory_bonus: bool = option(
        False,
        help="a bonus segment must be drawn while a free segment is left (default: the "
        "seed's 'can draw', a player may decline a bonus segment with 'pass')",
    )
    solo_discards: int = option(
        TABLES.solo_discards,
        help="DESIGN (unofficial solo rule): blue cards discarded at random after round 1 "
        "in a 1-player game, among those whose pair is not yet completed",
        minimum=0,
        maximum=5,
    )
