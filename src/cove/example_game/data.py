"""The Toy's data file (``example_game.toml``): its schema, read by the core's typed loader
(:func:`cove.core.data.load_typed`), which checks every value against the bounds below."""

from __future__ import annotations

from pathlib import Path

from cove.core import DataChecker, entry, load_typed, schema

DATA_FILE = Path(__file__).with_name("example_game.toml")
MAX_PLAYERS = 4


@schema
class ToyData:
    cards: int = entry(minimum=4, maximum=40, help="the deck holds the cards 1..cards")
    hand: int = entry(minimum=1, maximum=3, help="cards dealt to each player at the start")
    bid_cost: int = entry(minimum=0, maximum=5, help="points a bid of 1 costs")
    card_label: str = entry(pattern=r"[a-z]+", help="what the screens call a card")

    @property
    def deck(self) -> tuple[int, ...]:
        return tuple(range(1, self.cards + 1))


def load(path: str | Path = DATA_FILE) -> ToyData:
    """The data file at ``path``; a DataError names the file, the entry and the problem."""
    data = load_typed(ToyData, path)
    DataChecker(path).expect(data.cards >= MAX_PLAYERS * data.hand, "cards",
                             f"must deal {data.hand} to each of {MAX_PLAYERS} players "
                             f"(at least {MAX_PLAYERS * data.hand})")
    return data


DATA = load()
"""The built-in data, loaded once."""
