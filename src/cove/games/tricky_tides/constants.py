"""The rulebook's numbers and the component tables the rules index by int.

The counts the rulebook states (rounds, hands, cards dealt, the most seats; the hold limit
is ``round_rules.BASE_RULES.hold_limit``, which the Storm event changes) and tables read
once from the loaded data (``data.DATA``): each card's headings, each order's goods, gold
and monster, each island's goods number and ship colour, the sale rates, the card masks of
the suits, each event's index.
"""

from __future__ import annotations

from cove.games.tricky_tides.data import DATA, GOODS_TYPES, NAV_CARDS, SHIP_COLOURS, VALUES

ROUNDS = 3              # [SEED]
HANDS = 6               # [SEED] 8 cards dealt, 6 played, 2 discarded
DEAL = 8                # [SEED]
SEATS = SHIP_COLOURS    # the most players: one per ship colour

G = GOODS_TYPES
RG = range(G)
ALL_CARDS = (1 << NAV_CARDS) - 1
SUIT_MASK = tuple(((1 << VALUES) - 1) << (VALUES * s) for s in range(4))
CARD_HEADINGS = DATA.headings
ORDER_PAIRS = tuple(o.pairs for o in DATA.orders)
ORDER_GOLD = tuple(o.gold for o in DATA.orders)
ORDER_SUIT = tuple(o.monster for o in DATA.orders)
SELL = DATA.sell
ISLAND_GOODS = tuple(i.goods for i in DATA.islands)
ISLAND_COLOUR = tuple(i.colour for i in DATA.islands)
EVENT_INDEX = {e.key: i for i, e in enumerate(DATA.events)}
