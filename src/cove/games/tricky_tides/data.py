"""Tricky Tides' data file (``tricky_tides.toml``): its schema, read by the core's typed
loader (:func:`cove.core.data.load_typed`), which checks every value's type and bounds,
the allowed values and unknown or missing fields. :func:`check` adds what the loader
cannot see: the component counts the rulebook states, the entries that name each other
(a suit, a goods type) and the shape of the texts (headings, screen colours, event keys).
Errors name the file, the entry and the problem.

The rules index by int: cards are ``suit * 8 + (value - 1)`` (0..31); goods types, suits,
islands, orders and sightings cards are ints in the order of the data file.
:func:`tables` builds those runtime tables (:class:`TidesData`) from the loaded file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cove.core import DataChecker, load_typed
from cove.core.data import entry  # ruff knows entry() as an immutable default by this path
from cove.games.tricky_tides.geometry import HEADING_INDEX
from cove.games.tricky_tides.round_rules import Rules

DATA_FILE = Path(__file__).with_name("tricky_tides.toml")

# Counts the rulebook states [SEED] [SOURCED: UBG, GeekDad-2019].
CUBES = 78
NAV_CARDS = 32
ISLANDS = 12
ORDERS = 36
SIGHTINGS = 4
SUITS = 4
VALUES = 8
GOODS_TYPES = 5
SHIP_COLOURS = 4
EVENTS = 12

FILL = re.compile(r"#[0-9a-fA-F]{6}")
"""A colour screens draw with: ``#rrggbb``."""


# -- the file's schema ---------------------------------------------------------------------------
@dataclass(frozen=True)
class GoodsEntry:
    name: str = entry(help="the goods type's name in actions and views")
    colour: str = entry(help="the cubes' colour, in words")
    fill: str = entry(help="the shade screens draw its cubes in, #rrggbb")
    sell: int = entry(minimum=1, help="how many of this type make 1 gold at game end")
    count: int = entry(minimum=0, help="cubes of this type in the bag")


@dataclass(frozen=True)
class IslandEntry:
    id: str = entry(help="the card's id")
    name: str = entry(help="its name on screens")
    icon: str = entry(choices=("ship", "monster"), help="the icon printed on the card")
    goods: int = entry(minimum=0, help="the goods number in the lower-left corner")
    colour: int = entry(minimum=1, maximum=SHIP_COLOURS, default=0,
                        help="a ship island: the colour (seat) whose ship may start here")
    monster: str = entry(default="", help="a monster island: its monster's suit")


@dataclass(frozen=True)
class OrderEntry:
    id: str = entry(help="the card's id")
    monster: str = entry(help="the suit of the order's monster symbol")
    gold: int = entry(minimum=0, help="the gold the order pays")
    goods: dict[str, int] = entry(
        minimum=1, help="the goods it needs: type = count")


@dataclass(frozen=True)
class SightingEntry:
    id: str = entry(help="the card's id")
    bonus: dict[str, int] = entry(
        minimum=0, help="bonus gold per collected order: suit = gold")


@dataclass(frozen=True)
class EventEntry:
    id: str = entry(help="the card's id")
    key: str = entry(help="the name the event_deck option uses: lower case, no commas")
    name: str = entry(help="the card's name")
    tag: str = entry(help="where the card comes from (SEED, DESIGN, ...)")
    text: str = entry(help="what the card says, shown on screen")
    changes: Rules = entry(
        help="the rules the card changes while it is face up (fields of Rules)")


@dataclass(frozen=True)
class TidesFile:
    suits: tuple[str, ...] = entry(help="the four suits (= the four monsters) in order")
    suit_fills: tuple[str, ...] = entry(help="per suit, the colour screens draw its cards in")
    goods: tuple[GoodsEntry, ...] = entry(help="the goods types in a fixed order")
    navigation: dict[str, tuple[str, ...]] = entry(
        help="per suit, each card's headings (values 1..8), like \"N NE E\"")
    navigation_flat: dict[str, tuple[str, ...]] = entry(
        help="the same for the flat profile (option nav_deck=flat)")
    islands: tuple[IslandEntry, ...] = entry(help="the island cards")
    orders: tuple[OrderEntry, ...] = entry(help="the order cards")
    sightings: tuple[SightingEntry, ...] = entry(help="the monster sightings cards")
    events: tuple[EventEntry, ...] = entry(help="the event cards (the event module)")


# -- the runtime tables --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Island:
    id: str
    name: str
    colour: int        # seat (0-based) whose ship may start here, -1 for a monster island
    monster: int       # suit of the monster icon, -1 for a ship island
    goods: int         # the goods number in the lower-left corner


@dataclass(frozen=True, slots=True)
class Order:
    id: str
    monster: int                 # suit index of the order's monster symbol
    gold: int
    need: tuple[int, ...]        # goods required, one count per goods type
    pairs: tuple[tuple[int, int], ...]   # (type, count) for the non-zero needs


@dataclass(frozen=True, slots=True)
class Sighting:
    id: str
    bonus: tuple[int, ...]       # bonus gold per order, one per suit


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    key: str                     # the name the ``event_deck`` option uses
    name: str
    tag: str
    text: str                    # what the card says (shown on screen)
    rules: Rules                 # the rules in force while it is face up


@dataclass(frozen=True, slots=True)
class TidesData:
    goods: tuple[str, ...]
    colours: tuple[str, ...]
    fills: tuple[str, ...]       # per goods type, the shade screens draw its cubes in
    sell: tuple[int, ...]
    cubes: tuple[int, ...]
    suits: tuple[str, ...]
    suit_fills: tuple[str, ...]  # per suit, the colour screens draw its cards and monster in
    headings: tuple[tuple[int, ...], ...]   # per card, the allowed headings
    islands: tuple[Island, ...]
    orders: tuple[Order, ...]
    sightings: tuple[Sighting, ...]
    events: tuple[Event, ...]
    headings_flat: tuple[tuple[int, ...], ...]   # the notes' flat profile (nav_deck=flat)


def load(path: str | Path = DATA_FILE) -> TidesData:
    """Read and check a Tricky Tides data file; errors name the file, the entry and the
    problem."""
    data = load_typed(TidesFile, path)
    check(data, DataChecker(path))
    return tables(data)


def check(data: TidesFile, ck: DataChecker) -> None:
    """What the typed loader cannot see: the counts the rulebook states, the entries that
    name each other and the shape of the texts."""
    goods = [g.name for g in data.goods]
    ck.expect(len(goods) == GOODS_TYPES, "goods",
              f"expected {GOODS_TYPES} goods types, found {len(goods)}")
    for i, g in enumerate(data.goods):
        _fill(ck, g.fill, f"goods[{i}].fill")
    ck.expect(len(set(goods)) == len(goods), "goods", "goods names must be unique")
    ck.expect("gold" in goods, "goods", "one goods type must be named 'gold' (monsters never "
              "affect gold)")
    cubes = sum(g.count for g in data.goods)
    ck.expect(cubes == CUBES, "goods", f"the cube counts must total {CUBES}, they total {cubes}")

    suits = data.suits
    ck.expect(len(suits) == SUITS and len(set(suits)) == SUITS, "suits",
              f"expected {SUITS} distinct suit names")
    ck.expect(len(data.suit_fills) == SUITS, "suit_fills",
              f"expected {SUITS} colours, one per suit, found {len(data.suit_fills)}")
    for i, (s, fill) in enumerate(zip(suits, data.suit_fills, strict=True)):
        _fill(ck, fill, f"suit_fills[{i}] ({s})")

    for key in ("navigation", "navigation_flat"):
        nav: dict[str, tuple[str, ...]] = getattr(data, key)
        for s in suits:
            ck.expect(s in nav, key, f"missing field {s!r}")
            ck.expect(len(nav[s]) == VALUES, f"{key}.{s}",
                      f"expected {VALUES} cards (values 1-{VALUES}), found {len(nav[s])}")
            for v, text in enumerate(nav[s], start=1):
                _headings(ck, text, f"{key}.{s} value {v}")
        for s in nav:
            ck.one_of(s, suits, key, "suit")

    ck.expect(len(data.islands) == ISLANDS, "islands",
              f"expected {ISLANDS} island cards, found {len(data.islands)}")
    for isl in data.islands:
        where = f"island {isl.id}"
        if isl.icon == "ship":
            ck.expect(isl.colour != 0, where, "missing field 'colour' (a ship island's colour "
                      f"1..{SHIP_COLOURS})")
            ck.expect(isl.monster == "", where, "a ship island has no monster")
        else:
            ck.expect(isl.monster != "", where, "missing field 'monster' (a monster island's "
                      "suit)")
            ck.one_of(isl.monster, suits, where, "monster")
            ck.expect(isl.colour == 0, where, "a monster island has no colour")
    for col in range(1, SHIP_COLOURS + 1):
        k = sum(1 for isl in data.islands if isl.colour == col)
        ck.expect(k == 2, "islands", f"colour {col} needs 2 starting islands, found {k}")
    for s in suits:
        k = sum(1 for isl in data.islands if isl.monster == s)
        ck.expect(k == 1, "islands", f"monster {s} needs 1 island, found {k}")
    ck.expect(len({isl.id for isl in data.islands}) == ISLANDS, "islands",
              "island ids must be unique")

    ck.expect(len(data.orders) == ORDERS, "orders",
              f"expected {ORDERS} order cards, found {len(data.orders)}")
    for o in data.orders:
        where = f"order {o.id}"
        ck.one_of(o.monster, suits, where, "monster")
        for name in o.goods:
            ck.one_of(name, goods, where, "goods type")
        ck.expect(len(o.goods) >= 1, where, "an order needs at least one good")
    ck.expect(len({o.id for o in data.orders}) == ORDERS, "orders", "order ids must be unique")

    ck.expect(len(data.sightings) == SIGHTINGS, "sightings",
              f"expected {SIGHTINGS} sightings cards, found {len(data.sightings)}")
    for sc in data.sightings:
        where = f"sightings card {sc.id}"
        for name in sc.bonus:
            ck.one_of(name, suits, where, "monster")
        for s in suits:
            ck.expect(s in sc.bonus, where, f"missing field {s!r}")

    ck.expect(len(data.events) == EVENTS, "events",
              f"expected {EVENTS} event cards, found {len(data.events)}")
    for e in data.events:
        ck.expect(e.key == e.key.strip().lower() and "," not in e.key and e.key != "",
                  f"event {e.id}", f"key must be lower-case without commas, got {e.key!r}")
    ck.expect(len({e.id for e in data.events}) == EVENTS, "events", "event ids must be unique")
    ck.expect(len({e.key for e in data.events}) == EVENTS, "events",
              "event keys must be unique")


def _fill(ck: DataChecker, fill: str, where: str) -> None:
    """A screen colour of the data file: ``#rrggbb``."""
    ck.expect(FILL.fullmatch(fill) is not None, where,
              f"must be a colour like #a1b2c3, got {fill[:20]!r}")


def _headings(ck: DataChecker, text: str, where: str) -> None:
    """A card's headings: distinct compass points like ``N NE E``."""
    words = [w.lower() for w in text.split()]
    for w in words:
        ck.one_of(w, HEADING_INDEX, where, "heading")
    ck.expect(len(words) > 0, where, "a card needs at least one heading")
    ck.expect(len(set(words)) == len(words), where, "a heading is listed twice")


def tables(data: TidesFile) -> TidesData:
    """The rules' tables, indexed by int, from a checked file."""
    goods = tuple(g.name for g in data.goods)
    suits = data.suits

    def deck(nav: dict[str, tuple[str, ...]]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(sorted(HEADING_INDEX[w.lower()] for w in text.split()))
                     for s in suits for text in nav[s])

    def need(o: OrderEntry) -> tuple[int, ...]:
        return tuple(o.goods.get(name, 0) for name in goods)

    return TidesData(
        goods=goods,
        colours=tuple(g.colour for g in data.goods),
        fills=tuple(g.fill for g in data.goods),
        sell=tuple(g.sell for g in data.goods),
        cubes=tuple(g.count for g in data.goods),
        suits=suits,
        suit_fills=data.suit_fills,
        headings=deck(data.navigation),
        islands=tuple(Island(i.id, i.name, i.colour - 1 if i.icon == "ship" else -1,
                             suits.index(i.monster) if i.icon == "monster" else -1, i.goods)
                      for i in data.islands),
        orders=tuple(Order(o.id, suits.index(o.monster), o.gold, need(o),
                           tuple((t, k) for t, k in enumerate(need(o)) if k))
                     for o in data.orders),
        sightings=tuple(Sighting(sc.id, tuple(sc.bonus[s] for s in suits))
                        for sc in data.sightings),
        events=tuple(Event(e.id, e.key, e.name, e.tag, e.text, e.changes) for e in data.events),
        headings_flat=deck(data.navigation_flat),
    )


DATA = load()
"""The built-in data, loaded once."""
GOLD = DATA.goods.index("gold")       # monsters never affect gold [SEED]
NONGOLD = tuple(t for t in range(GOODS_TYPES) if t != GOLD)
