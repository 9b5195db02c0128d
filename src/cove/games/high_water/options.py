"""High Water's options: the designer's knobs that are numbers rather than cards."""

from __future__ import annotations

from dataclasses import dataclass

from cove.core import OptionError, Options, option


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
        0, minimum=0, maximum=40,
        help="DESIGN variant, off by default: dice a player may keep after Step 6, the rest "
        "go back to the bag (0 = no cap, as F9 says: unused dice carry over)",
    )
    max_quests: int = option(
        3, minimum=1, maximum=20,
        help="DESIGN: most active (unfinished) quests a player may hold, Letter of Marque included",
    )
    tie_rereveals: int = option(
        20, minimum=1, maximum=20,
        help="DESIGN cap on re-reveal rounds (F5); the default never binds, since each "
        "re-reveal needs a card not yet revealed in the trick (at most 6 with 7 cards)",
    )
    tie_scope: str = option(
        "all", choices=("all", "first"),
        help="which ties re-reveal: every tied group ('all', F4/F5) or, as a DESIGN variant "
        "against F4, only a tie for first ('first': lower ties are ordered by the seeded RNG)",
    )
    idle_dice_actions: bool = option(
        False,
        help="DESIGN: a die may be spent on an action that does nothing now (a green die with "
        "no marker to remove, a blue die with no other die), still counting as 'used_<colour>' "
        "for quests; a red die always needs a target",
    )
    actives_need_effect: bool = option(
        False,
        help="DESIGN variant, off by default: offer an active ability only when its effect "
        "can do something now (F11 lets a player activate any ability they can pay for)",
    )
    data_file: str = option(
        "", help="path of an alternative card/dice data file ('' = the built-in high_water.toml)",
    )

    def check(self, players: int) -> None:
        from cove.games.high_water.data import get

        data = get(self.data_file)  # a malformed file raises DataError naming file and entry
        # a short bag is topped up from the holds between rounds (R23.2), which needs 3 x P
        # dice in the game at all
        if 3 * players > data.total_dice:
            raise OptionError(
                f"high-water: {players} players need {3 * players} dice for the crates but "
                f"the data file has {data.total_dice}"
            )
