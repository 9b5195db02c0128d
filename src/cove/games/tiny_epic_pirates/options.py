"""Options of Tiny Epic Pirates."""

from __future__ import annotations

from dataclasses import dataclass

from cove.core.options import Options, option
from cove.games.tiny_epic_pirates.data import ruleset


@dataclass(frozen=True)
class PiratesOptions(Options):
    ruleset: str = option(
        "design",
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
        "moved",
        help="DESIGN: which Deckhands pay 1 Gold when a Hide Out places them on Extort: "
        "'moved' (only those newly moved there) or 'all' (every one placed there)",
        choices=("moved", "all"),
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
