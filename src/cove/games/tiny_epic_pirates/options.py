"""Options of Tiny Epic Pirates."""

from __future__ import annotations

from dataclasses import dataclass

from cove.core import Options, option
from cove.games.tiny_epic_pirates.data import DEFAULT, ruleset


@dataclass(frozen=True)
class PiratesOptions(Options):
    ruleset: str = option(
        DEFAULT,
        help="data file in use: <ruleset>.toml beside the rules (design = the DESIGN "
        "stand-ins; copy it and type in the printed cards to play the published game)",
    )
    max_rounds: int = option(
        60,
        help="DESIGN safety end: the game stops after this many rounds if nobody has "
        "buried 3 treasures; most treasures, then the tie-breaks, wins",
        minimum=5,
        maximum=500,
    )
    hideout_extort: str = option(
        "placed",
        help="which Deckhands pay 1 Gold in a Hide Out: 'placed' (Dz-Hide: each one placed "
        "on Extort, one Gold per move onto it), 'moved' (DESIGN: the net gain on Extort; "
        "moving one off and back earns nothing) or 'all' (DESIGN: every one on Extort when "
        "the moves are done)",
        choices=("placed", "moved", "all"),
    )
    extort_timing: str = option(
        "after_move",
        help="when Extort pays on crossing the Ship Line: 'after_move' (the seed: after the "
        "Captain's move and the Deckhands it pays with and releases, step 1 of the turn) or "
        "'at_line' (INFERRED: the Deckhands on Extort as the Captain passes 5 -> 0, so one "
        "released onto Extort from a space after the line pays nothing)",
        choices=("after_move", "at_line"),
    )
    cove_blocked_by: str = option(
        "any",
        help="which other Pirate Ship on a Cove card stops a Hide Out there: 'any' (Dz-Hide: "
        "a Cove no other Pirate Ship occupies) or 'hidden' (DESIGN: only one hidden in it)",
        choices=("any", "hidden"),
    )
    place_in_repair: bool = option(
        True,
        help="a Deckhand released from the Wheel (or the new one at Corsair) may go to Repair "
        "(the seed: 'any Deck Assignment'); false: only Rigging, Cannons or Extort (DESIGN)",
    )
    reassign: str = option(
        "repair_wheel",
        help="DESIGN: what a Reassign bonus action may move: 'repair_wheel' (the notes: any "
        "Deckhands from Repair or the Wheel to Rigging/Cannons/Extort) or 'all' (those already "
        "on Rigging/Cannons/Extort may be moved between them too)",
        choices=("repair_wheel", "all"),
    )

    merchant_loss_surefire: bool = option(
        True,
        help="DESIGN: a pirate who loses to a Merchant also gains 1 Sure-fire (as the loser "
        "of a pirate battle does); false: only Jostled",
    )

    def check(self, players: int) -> None:
        ruleset(self.ruleset)  # an unknown ruleset raises OptionError listing the available
