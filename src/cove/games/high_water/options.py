"""High Water's options: the designer's knobs that are numbers rather than cards."""

from __future__ import annotations

from dataclasses import dataclass

from cove.core.errors import OptionError
from cove.core.options import Options, option


@dataclass(frozen=True)
class HighWaterOptions(Options):
    goal: int = option(
        20, minimum=1, maximum=200,
        help="influence that ends the game after the round (F17 states 20; change to playtest)",
    )
    max_rounds: int = option(
        20, minimum=1, maximum=200, help="DESIGN safety end: the game ends after this round",
    )
    carry_cap: int = option(
        5, minimum=0, maximum=40,
        help="DESIGN: dice a player may keep after Step 6; the rest go back to the bag",
    )
    max_quests: int = option(
        3, minimum=1, maximum=20,
        help="DESIGN: most active (unfinished) quests a player may hold, Letter of Marque included",
    )
    tie_rereveals: int = option(
        3, minimum=0, maximum=20,
        help="DESIGN: re-reveal rounds for ties before the seeded RNG orders those still tied",
    )
    tie_scope: str = option(
        "all", choices=("all", "first"),
        help="DESIGN: which ties re-reveal: every tied group ('all') or only a tie for first "
        "('first'; lower ties are ordered by the seeded RNG)",
    )
    idle_dice_actions: bool = option(
        False,
        help="DESIGN: a die may be spent on an action that does nothing now (a green die with "
        "no marker to remove, a blue die with no other die), still counting as 'used_<colour>' "
        "for quests; a red die always needs a target",
    )
    data_file: str = option(
        "", help="path of an alternative card/dice data file ('' = the built-in high_water.toml)",
    )

    def check(self, players: int) -> None:
        from cove.games.high_water.data import get

        data = get(self.data_file)  # a malformed file raises DataError naming file and entry
        need = players * (self.carry_cap + 3)
        if need > data.total_dice:
            raise OptionError(
                f"high-water: carry_cap={self.carry_cap} with {players} players could leave the "
                f"bag short: {players} x ({self.carry_cap} kept + 3 drawn) = {need} > "
                f"{data.total_dice} dice; allowed: carry_cap <= "
                f"{data.total_dice // players - 3}"
            )
