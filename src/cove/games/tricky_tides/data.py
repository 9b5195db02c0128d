"""Loads and validates ``tricky_tides.toml`` into plain tuples the rules index by int.

Cards are ints ``suit * 8 + (value - 1)`` (0..31); goods types, suits, islands, orders
and sightings cards are ints in the order of the data file. A malformed file raises
:class:`cove.DataError` naming the file, the entry and the problem; the component counts
the rulebook states are asserted here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cove.core.data import DataChecker, load_data
from cove.games.tricky_tides.geometry import HEADING_INDEX
from cove.games.tricky_tides.round_rules import ALLOWED, Rules

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
    """Load and validate a Tricky Tides data file."""
    raw = load_data(path)
    ck = DataChecker(path)

    goods_raw = ck.field(raw, "goods", list, "goods")
    ck.expect(len(goods_raw) == GOODS_TYPES, "goods",
              f"expected {GOODS_TYPES} goods types, found {len(goods_raw)}")
    goods, colours, fills, sell, cubes = [], [], [], [], []
    for i, g in enumerate(goods_raw):
        entry = f"goods #{i + 1}"
        ck.expect(isinstance(g, dict), entry, "must be a table")
        goods.append(ck.field(g, "name", str, entry))
        colours.append(ck.field(g, "colour", str, entry))
        fills.append(_fill(ck, ck.field(g, "fill", str, entry), entry))
        s = ck.field(g, "sell", int, entry)
        ck.expect(s >= 1, entry, f"sell must be >= 1, got {s}")
        sell.append(s)
        c = ck.field(g, "count", int, entry)
        ck.expect(c >= 0, entry, f"count must be >= 0, got {c}")
        cubes.append(c)
    ck.expect(len(set(goods)) == len(goods), "goods", "goods names must be unique")
    ck.expect("gold" in goods, "goods", "one goods type must be named 'gold' (monsters never "
              "affect gold)")
    ck.expect(sum(cubes) == CUBES, "goods",
              f"the cube counts must total {CUBES}, they total {sum(cubes)}")

    suits = ck.field(raw, "suits", list, "suits")
    ck.expect(len(suits) == SUITS and all(isinstance(s, str) for s in suits) and
              len(set(suits)) == SUITS, "suits", f"expected {SUITS} distinct suit names")
    suit_fills = ck.field(raw, "suit_fills", list, "suit_fills")
    ck.expect(len(suit_fills) == SUITS, "suit_fills",
              f"expected {SUITS} colours, one per suit, found {len(suit_fills)}")
    for s, fill in zip(suits, suit_fills, strict=True):
        ck.expect(isinstance(fill, str), "suit_fills", f"the colour of {s} must be a string")
        _fill(ck, fill, f"suit_fills ({s})")

    headings = _navigation(ck, raw, "navigation", suits)
    headings_flat = _navigation(ck, raw, "navigation_flat", suits)

    islands_raw = ck.field(raw, "islands", list, "islands")
    ck.expect(len(islands_raw) == ISLANDS, "islands",
              f"expected {ISLANDS} island cards, found {len(islands_raw)}")
    islands = []
    for i, isl in enumerate(islands_raw):
        entry = f"islands #{i + 1}"
        ck.expect(isinstance(isl, dict), entry, "must be a table")
        iid = ck.field(isl, "id", str, entry)
        entry = f"island {iid}"
        name = ck.field(isl, "name", str, entry)
        icon = ck.one_of(ck.field(isl, "icon", str, entry), ("ship", "monster"), entry, "icon")
        n = ck.field(isl, "goods", int, entry)
        ck.expect(n >= 0, entry, f"goods must be >= 0, got {n}")
        if icon == "ship":
            col = ck.field(isl, "colour", int, entry)
            ck.expect(1 <= col <= SHIP_COLOURS, entry,
                      f"colour must be 1..{SHIP_COLOURS}, got {col}")
            islands.append(Island(iid, name, col - 1, -1, n))
        else:
            m = ck.one_of(ck.field(isl, "monster", str, entry), suits, entry, "monster")
            islands.append(Island(iid, name, -1, suits.index(m), n))
    for col in range(SHIP_COLOURS):
        k = sum(1 for isl in islands if isl.colour == col)
        ck.expect(k == 2, "islands", f"colour {col + 1} needs 2 starting islands, found {k}")
    for m, s in enumerate(suits):
        k = sum(1 for isl in islands if isl.monster == m)
        ck.expect(k == 1, "islands", f"monster {s} needs 1 island, found {k}")
    ck.expect(len({isl.id for isl in islands}) == ISLANDS, "islands", "island ids must be unique")

    orders_raw = ck.field(raw, "orders", list, "orders")
    ck.expect(len(orders_raw) == ORDERS, "orders",
              f"expected {ORDERS} order cards, found {len(orders_raw)}")
    orders = []
    for i, o in enumerate(orders_raw):
        entry = f"orders #{i + 1}"
        ck.expect(isinstance(o, dict), entry, "must be a table")
        oid = ck.field(o, "id", str, entry)
        entry = f"order {oid}"
        m = ck.one_of(ck.field(o, "monster", str, entry), suits, entry, "monster")
        gold = ck.field(o, "gold", int, entry)
        ck.expect(gold >= 0, entry, f"gold must be >= 0, got {gold}")
        need_raw: dict[str, Any] = ck.field(o, "goods", dict, entry)
        need = [0] * GOODS_TYPES
        for name, k in need_raw.items():
            ck.one_of(name, goods, entry, "goods type")
            ck.expect(isinstance(k, int) and not isinstance(k, bool) and k >= 1, entry,
                      f"count of {name} must be a whole number >= 1, got {k!r}")
            need[goods.index(name)] = k
        ck.expect(sum(need) >= 1, entry, "an order needs at least one good")
        pairs = tuple((t, k) for t, k in enumerate(need) if k)
        orders.append(Order(oid, suits.index(m), gold, tuple(need), pairs))
    ck.expect(len({o.id for o in orders}) == ORDERS, "orders", "order ids must be unique")

    sight_raw = ck.field(raw, "sightings", list, "sightings")
    ck.expect(len(sight_raw) == SIGHTINGS, "sightings",
              f"expected {SIGHTINGS} sightings cards, found {len(sight_raw)}")
    sightings = []
    for i, sc in enumerate(sight_raw):
        entry = f"sightings #{i + 1}"
        ck.expect(isinstance(sc, dict), entry, "must be a table")
        sid = ck.field(sc, "id", str, entry)
        entry = f"sightings card {sid}"
        bonus = ck.field(sc, "bonus", dict, entry)
        for k in bonus:
            ck.one_of(k, suits, entry, "monster")
        vals = []
        for s in suits:
            b = ck.field(bonus, s, int, entry)
            ck.expect(b >= 0, entry, f"bonus for {s} must be >= 0, got {b}")
            vals.append(b)
        sightings.append(Sighting(sid, tuple(vals)))

    events = _load_events(ck, raw)
    return TidesData(tuple(goods), tuple(colours), tuple(fills), tuple(sell), tuple(cubes),
                     tuple(suits), tuple(suit_fills), headings, tuple(islands), tuple(orders),
                     tuple(sightings), events, headings_flat)


def _fill(ck: DataChecker, fill: str, entry: str) -> str:
    """A screen colour of the data file, checked: ``#rrggbb``."""
    ck.expect(FILL.fullmatch(fill) is not None, entry,
              f"fill must be a colour like #a1b2c3, got {fill!r}")
    return fill


def _navigation(ck: DataChecker, raw: dict[str, Any], key: str, suits: list[str]
                ) -> tuple[tuple[int, ...], ...]:
    """One navigation deck (``key``: the default table or the flat profile): per card,
    its allowed headings, suit by suit, value 1 first."""
    nav = ck.field(raw, key, dict, key)
    headings: list[tuple[int, ...]] = []
    for s in suits:
        cards = ck.field(nav, s, list, key)
        ck.expect(len(cards) == VALUES, f"{key}.{s}",
                  f"expected {VALUES} cards (values 1-{VALUES}), found {len(cards)}")
        for v, text in enumerate(cards, start=1):
            entry = f"{key}.{s} value {v}"
            ck.expect(isinstance(text, str), entry, "headings must be a string like 'N NE E'")
            hs = []
            for word in text.split():
                ck.one_of(word.lower(), HEADING_INDEX, entry, "heading")
                hs.append(HEADING_INDEX[word.lower()])
            ck.expect(len(hs) > 0, entry, "a card needs at least one heading")
            ck.expect(len(set(hs)) == len(hs), entry, "a heading is listed twice")
            headings.append(tuple(sorted(hs)))
    ck.expect(len(headings) == NAV_CARDS, key,
              f"expected {NAV_CARDS} navigation cards, found {len(headings)}")
    return tuple(headings)


def _load_events(ck: DataChecker, raw: dict[str, Any]) -> tuple[Event, ...]:
    events_raw = ck.field(raw, "events", list, "events")
    ck.expect(len(events_raw) == EVENTS, "events",
              f"expected {EVENTS} event cards, found {len(events_raw)}")
    events = []
    for i, e in enumerate(events_raw):
        entry = f"events #{i + 1}"
        ck.expect(isinstance(e, dict), entry, "must be a table")
        eid = ck.field(e, "id", str, entry)
        entry = f"event {eid}"
        key = ck.field(e, "key", str, entry)
        ck.expect(key == key.strip().lower() and "," not in key and key != "", entry,
                  f"key must be lower-case without commas, got {key!r}")
        changes: dict[str, Any] = ck.field(e, "changes", dict, entry)
        for name, value in changes.items():
            ck.one_of(name, ALLOWED, entry, "rule")
            spec = ALLOWED[name]
            if spec[0] is int:
                ck.expect(isinstance(value, int) and not isinstance(value, bool)
                          and spec[1] <= value <= spec[2], entry,
                          f"{name} must be a whole number from {spec[1]} to {spec[2]}, "
                          f"got {value!r}")
            else:
                ck.expect(any(value == a and type(value) is type(a) for a in spec), entry,
                          f"{name} must be one of {', '.join(map(str, spec))}, got {value!r}")
        events.append(Event(eid, key, ck.field(e, "name", str, entry),
                            ck.field(e, "tag", str, entry), ck.field(e, "text", str, entry),
                            Rules(**changes)))
    ck.expect(len({ev.id for ev in events}) == EVENTS, "events", "event ids must be unique")
    ck.expect(len({ev.key for ev in events}) == EVENTS, "events", "event keys must be unique")
    return tuple(events)


DATA = load()
GOLD = DATA.goods.index("gold")       # monsters never affect gold [SEED]
NONGOLD = tuple(t for t in range(GOODS_TYPES) if t != GOLD)
