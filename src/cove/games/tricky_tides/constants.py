"""The rulebook's numbers and the component tables the rules index by int.

The counts the rulebook states (rounds, hands, cards dealt, the most seats; the hold limit
is ``round_rules.BASE_RULES.hold_limit``, which the Storm event changes) and tables read
once from the loaded data (``data.DATA``): each card's headings, each order's goods, gold
and monster, each island's goods number and ship colour, the sale rates, the cards of
each suit, each event's index.

Then the cards' own operations. A navigation card is an int ``suit * 8 + value - 1``
(0..31), and a set of cards (a hand, the cards played this round, the set-aside pile) is
one int whose bit ``card`` is set for each card in it; seats (who still holds an anchor),
suits and goods types make sets the same way. The rules read and change such sets only
through named operations: the core's for any set (``cove.core.bits``: ``has(hand,
card)``, ``without(hand, card)``...) and these for cards and suits (``cards_in``,
``suit_of``, ``suit_cards``...).
"""

from __future__ import annotations

from typing import Final

from cove.core.bits import first_n, members, set_of
from cove.games.tricky_tides.data import (
    DATA,
    GOODS_TYPES,
    NAV_CARDS,
    SHIP_COLOURS,
    SUITS,
    VALUES,
)

ROUNDS: Final = 3              # [SEED]
HANDS: Final = 6               # [SEED] 8 cards dealt, 6 played, 2 discarded
DEAL: Final = 8                # [SEED]
SEATS: Final = SHIP_COLOURS    # the most players: one per ship colour

EVERY_GOODS_TYPE: Final = range(GOODS_TYPES)
"""The goods types, 0..4 in the order of ``DATA.goods``."""
CARD_HEADINGS: Final = DATA.headings
ORDER_PAIRS: Final = tuple(o.pairs for o in DATA.orders)
ORDER_GOLD: Final = tuple(o.gold for o in DATA.orders)
ORDER_SUIT: Final = tuple(o.monster for o in DATA.orders)
SELL: Final = DATA.sell
ISLAND_GOODS: Final = tuple(i.goods for i in DATA.islands)
ISLAND_COLOUR: Final = tuple(i.colour for i in DATA.islands)
EVENT_INDEX: Final = {e.key: i for i, e in enumerate(DATA.events)}


# -- sets of cards, seats, suits or goods types, as bit masks ----------------------------
NO_CARDS: Final = 0
"""The empty set."""


def cards_in(cards: int) -> list[int]:
    """The cards of a set of cards (a hand...), in code order: suit by suit, value by
    value."""
    return members(cards)


ALL_CARDS: Final = first_n(NAV_CARDS)
"""The 32 navigation cards."""
ALL_SUITS: Final = first_n(SUITS)
"""The four suits, as a set of suits."""
assert VALUES == 8      # suit_of and suit_values read a card's suit as its code's high bits


def suit_of(card: int) -> int:
    """A card's suit (0..3, in the order of ``DATA.suits``)."""
    return card >> 3


def value_of(card: int) -> int:
    """A card's value, 1..8."""
    return (card & 7) + 1


CARD_SUIT: Final = tuple(suit_of(card) for card in range(NAV_CARDS))
"""``CARD_SUIT[card]``: the card's suit, as ``suit_of`` gives it, looked up (the trick's
rules read it for every card played, where a call is what the pure build pays for)."""
CARD_VALUE: Final = tuple(value_of(card) for card in range(NAV_CARDS))
"""``CARD_VALUE[card]``: the card's value, 1..8, as ``value_of`` gives it."""


def card_of(suit: int, value: int) -> int:
    """The card of ``suit`` with ``value`` (1..8)."""
    return suit * VALUES + value - 1


SUIT_CARDS: Final = tuple(set_of(card_of(suit, v) for v in range(1, VALUES + 1))
                   for suit in range(SUITS))
"""``SUIT_CARDS[suit]``: every card of the suit."""


def suit_cards(cards: int, suit: int) -> int:
    """The cards of ``suit`` in the set ``cards``."""
    return cards & SUIT_CARDS[suit]


def suit_values(cards: int, suit: int) -> int:
    """The values of ``suit`` held in ``cards``, as an 8-bit set (bit ``v``: the card of
    value ``v + 1``), the key of the per-suit action tables."""
    return (cards >> (suit << 3)) & 255


# -- known voids: which suits each seat has shown it lacks, one 4-bit set per seat ---------
def void_suits(voids: int, player: int) -> int:
    """The suits ``player`` is known to lack this round, as a set of suits."""
    return (voids >> (player * SUITS)) & ALL_SUITS


def known_void(voids: int, player: int, suit: int) -> bool:
    """Whether ``player`` is known to lack ``suit`` this round."""
    return (voids >> (player * SUITS + suit)) & 1 == 1


def with_void(voids: int, player: int, suit: int) -> int:
    """``voids`` with ``player`` known to lack ``suit``."""
    return voids | 1 << (player * SUITS + suit)
