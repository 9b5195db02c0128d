"""Tricky Tides options: the two modules, and DESIGN choices with a plausible other reading."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cove.core import OptionError, Options, option
from cove.games.tricky_tides.data import DATA, SHIP_COLOURS

EVENT_KEYS: Final = tuple(e.key for e in DATA.events)
COLOURS: Final = tuple(str(c) for c in range(1, SHIP_COLOURS + 1))
"""The ship colours by number, "1" to "4" (the islands' icons C1..C4)."""


@dataclass(frozen=True)
class TidesOptions(Options):
    delivered_goods_to_bag: bool = option(
        True,
        help="[DESIGN] delivered goods go back into the draw bag; false: they leave the game",
    )
    sail_ties_from: str = option(
        "winner",
        choices=("winner", "lead"),
        help="[INFERRED] equal off-suit values sail clockwise from the hand's winner (who "
        "holds the rum barrel when ships sail) or from the player who led the hand",
    )
    first_leader: str = option(
        "random",
        choices=("random", "ask"),
        help="[SEED reading: 'the player most recently on a boat'] random = drawn at "
        "random (the engine cannot know who was on a boat; bots and simulations need an "
        "answer); ask = the table answers at set-up and P1 enters it (first leader p2)",
    )
    ship_colours: tuple[str, ...] = option(
        COLOURS,
        choices=COLOURS,
        per_seat=True,
        help="[SEED] each player picks a ship colour before the islands are laid out: the "
        "colour of P1, P2, ... in seat order (e.g. 3,1,2); colours left over are unclaimed "
        "and their islands flip to open sea",
    )
    sea_stop: str = option(
        "any",
        choices=("any", "first"),
        help="[SEED: 'you can choose to stop on an open sea card'] a ship crossing open "
        "sea may stop on any open-sea card on the way (any), or only on the first one it "
        "enters (first)",
    )
    edge_wrap: str = option(
        "all",
        choices=("all", "monsters"),
        help="[INFERRED] under the Edge of the World event the map wraps for ships, "
        "monsters and the whale's line (all), or only for monsters and their abilities, "
        "as the seed says in so many words (monsters)",
    )
    nav_deck: str = option(
        "falling",
        choices=("falling", "flat"),
        help="[DESIGN] navigation headings: falling = 6 to 3 headings as the value rises "
        "(the notes' table); flat = every card 5 headings, value does not limit movement",
    )
    events: bool = option(
        False,
        help="[SEED] the event module: one event card changes the rules each round",
    )
    event_deck: tuple[str, ...] = option(
        EVENT_KEYS,
        choices=EVENT_KEYS,
        help="which event cards are shuffled into the event deck (with events=true); "
        "e.g. low-tide,edge-of-the-world for the two seed events",
    )
    monsters: bool = option(
        False,
        help="[SEED] the monster module: the lowest card of a monster's suit activates it",
    )
    shark: str = option(
        "holds",
        choices=("holds", "island"),
        help="[DESIGN] shark ability: every ship on its island returns 1 non-gold good of "
        "the activator's choice to the bag (holds), or all goods of one non-gold type on "
        "its island go to the bag (island)",
    )
    octopus: str = option(
        "move",
        choices=("move", "grab"),
        help="[DESIGN] octopus ability: move all goods of one non-gold type from its island "
        "to an adjacent island (move), or take 1 non-gold good from a ship on its island "
        "onto the island (grab)",
    )
    sea_dragon: str = option(
        "bury",
        choices=("bury", "swap"),
        help="[DESIGN] sea dragon ability: its island's order goes to the bottom of the "
        "order deck and is replaced (bury), or it swaps with an adjacent island's order "
        "(swap)",
    )
    whale: str = option(
        "next",
        choices=("next", "own"),
        help="[DESIGN] whale placement: the 3 goods go on the next 3 cards in the chosen "
        "heading (next), or the first on the whale's own island (own)",
    )
    whale_on_map: str = option(
        "islands",
        choices=("islands", "cards"),
        help="[SEED: 'a direction that allows you to place at least two items on the "
        "map'] the whale's heading must land at least 2 goods on islands (islands), or on "
        "any map card, open sea included, where they go back to the bag (cards)",
    )
    whale_empty_spot: bool = option(
        False,
        help="[DESIGN] the seed's \"choose an empty spot\" for the whale's goods: false = "
        "the next card in the heading; true = the next card holding no ship and no "
        "monster (occupied cards are skipped)",
    )

    def seat_colours(self, players: int) -> tuple[str, ...]:
        """The colours of P1, P2, ... (the option's first ``players`` entries)."""
        return self.ship_colours[:players]

    def check(self, players: int) -> None:
        mine = self.seat_colours(players)
        if len(mine) < players or len(set(mine)) < players:
            raise OptionError(f"tricky-tides: option ship_colours must give {players} "
                              f"different colours, one per player in seat order; got "
                              f"{','.join(self.ship_colours)}; valid colours: "
                              f"{', '.join(COLOURS)}")
        if self.events and not self.event_deck:
            raise OptionError("tricky-tides: option event_deck must name at least one event "
                              f"when events=true; valid events: {', '.join(EVENT_KEYS)}")
