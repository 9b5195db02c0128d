"""Loads and validates a Tiny Epic Pirates ruleset file (``<ruleset>.toml``) into plain
tuples the rules index by int.

Orders and Deck Assignments are ints (see ``ORDERS``, ``ASSIGN``); booty types, map cards,
crew and captains are ints in the order of the file. A malformed file raises
:class:`cove.DataError` naming the file, the entry and the problem; the component counts
the rulebook states are asserted here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cove.core.data import DataChecker, load_data
from cove.core.errors import OptionError

HERE = Path(__file__).parent
DEFAULT = "design"
"""The ruleset the ``ruleset`` option names unless told otherwise."""

# Orders: the five Order Tokens and Hide Out (printed on wheel space 0) [SEED].
PLUNDER, TRADE, CREW_UP, SEARCH, ATTACK, HIDE_OUT = range(6)
ORDERS = ("plunder", "trade", "crew up", "search", "attack", "hide out")
# Deck Assignments on the Helm Mat [SEED]: Rigging +1 sail, Cannons +1 damage, Extort +1
# Gold on crossing the Ship Line, Repair nothing.
RIG, CAN, EXT, REP = range(4)
ASSIGN = ("rigging", "cannons", "extort", "repair")
# Bonus-action kinds: the orders (bar hide out) plus these.
BURY, REROLL, REASSIGN, SUREFIRE, GOLD = 6, 7, 8, 9, 10
BONUSES = (*ORDERS[:5], "hide out", "bury", "reroll", "reassign", "surefire", "gold")

# Map-card kinds.
COVE, MARKET, SETTLEMENT, STORM = range(4)
KINDS = ("cove", "market", "settlement", "storm")

# Search-token kinds.
S_GOLD, S_BOOTY, S_SAIL, S_SUREFIRE = range(4)
SEARCH_KINDS = ("gold", "booty", "sail", "surefire")

# Legend-level bonus kinds.
L_NONE, L_GOLD, L_DECKHAND, L_SUREFIRE = range(4)
LEGEND_BONUS = ("", "gold", "deckhand", "surefire")

# Counts the rulebook states [SOURCED: Code].
MAP_CARDS = 16
SEARCH_TOKENS = 20
MERCHANT_CARDS = 11
CREW_CARDS = 24
CAPTAINS = 4
LEGEND_LEVELS = 7
TREASURES = 3
BOOTY_TYPES = 4
MERCHANT_VALUES = (2, 4, 6, 8)


@dataclass(frozen=True, slots=True)
class MapCard:
    name: str
    kind: int
    plunder: int      # settlement icons (1 or 2), else 0
    booty: int        # market booty type, else -1


@dataclass(frozen=True, slots=True)
class Crew:
    name: str
    trigger: int
    dice: tuple[int, ...]
    auto: int
    bonus: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Captain:
    name: str
    trigger: tuple[int, int]             # per side (A, B)
    dice: tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    sail: int
    dice: int
    bonus: int
    amount: int


@dataclass(frozen=True, slots=True)
class Ruleset:
    path: str
    gold_cap: int
    start_gold: int
    ship_capacity: int
    dice: int
    surefire_tokens: int
    deckhands: int
    navy_base: int
    navy_div: int
    solo_dice: tuple[int, ...]
    booty: tuple[str, ...]
    booty_colour: tuple[str, ...]         # "#rrggbb", for presentation only
    booty_short: tuple[str, ...]          # a cube's label, for presentation only
    cubes: tuple[int, ...]
    legend: tuple[Level, ...]
    treasure_cost: tuple[int, ...]
    treasure_level: tuple[int, ...]       # 1-based minimum legend level
    merchants: tuple[int, ...]            # the 11 values, deck order bottom (8s) .. top (2s)
    merchant_legend: dict[int, int]       # value -> Gain-Legend "1-N" (0 = never)
    search: tuple[tuple[int, int], ...]   # 20 tokens (kind, amount), ids by index
    maps: tuple[MapCard, ...]
    captains: tuple[Captain, ...]
    crew: tuple[Crew, ...]


def available() -> list[str]:
    """Names of the rulesets beside this module (``design`` is the default)."""
    return sorted(p.stem for p in HERE.glob("*.toml"))


@cache
def ruleset(name: str) -> Ruleset:
    """The ruleset file named by the ``ruleset`` option (cached)."""
    names = available()
    if name not in names:
        raise OptionError(
            f"tiny-epic-pirates: unknown ruleset {name!r}; available: {', '.join(names)}"
        )
    return load(HERE / f"{name}.toml")


def presented() -> Ruleset:
    """The ruleset the terminal and the web board read colours, labels and limits from. A
    view does not say which ruleset made it, so this is the default one; a booty name it
    lacks is drawn in a neutral colour."""
    return ruleset(DEFAULT)


def _int(ck: DataChecker, t: dict[str, Any], key: str, entry: str, lo: int, hi: int) -> int:
    v: int = ck.field(t, key, int, entry)
    ck.expect(lo <= v <= hi, entry, f"{key} must be from {lo} to {hi}, got {v}")
    return v


def _table_list(ck: DataChecker, raw: dict[str, Any], key: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = ck.field(raw, key, list, key)
    for i, t in enumerate(items):
        ck.expect(isinstance(t, dict), f"{key} #{i + 1}", "must be a table")
    return items


def _dice(ck: DataChecker, t: dict[str, Any], key: str, entry: str) -> tuple[int, ...]:
    vals = ck.field(t, key, list, entry)
    for v in vals:
        ck.expect(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6, entry,
                  f"{key} must list die faces 1-6, got {v!r}")
    return tuple(vals)


def _colour(ck: DataChecker, t: dict[str, Any], entry: str) -> str:
    v: str = ck.field(t, "colour", str, entry)
    ck.expect(re.fullmatch(r"#[0-9a-fA-F]{6}", v) is not None, entry,
              f"colour must be #rrggbb, got {v!r}")
    return v


def load(path: str | Path) -> Ruleset:
    """Load and validate one ruleset file."""
    raw = load_data(path)
    ck = DataChecker(path)
    g = ck.field(raw, "general", dict, "general")
    solo = _dice(ck, g, "solo_dice", "general")
    ck.expect(len(solo) == TREASURES + 1, "general", "solo_dice needs 4 entries (0-3 buried)")

    booty_t = _table_list(ck, raw, "booty")
    ck.expect(len(booty_t) == BOOTY_TYPES, "booty",
              f"expected {BOOTY_TYPES} booty types, found {len(booty_t)}")
    booty = tuple(ck.field(t, "name", str, f"booty #{i + 1}") for i, t in enumerate(booty_t))
    ck.expect(len(set(booty)) == BOOTY_TYPES, "booty", "booty names must differ")
    cubes = tuple(_int(ck, t, "cubes", f"booty {booty[i]!r}", 2, 99)
                  for i, t in enumerate(booty_t))
    colours = tuple(_colour(ck, t, f"booty {booty[i]!r}") for i, t in enumerate(booty_t))
    shorts = tuple(ck.field(t, "short", str, f"booty {booty[i]!r}") for i, t in enumerate(booty_t))
    for i, s in enumerate(shorts):
        ck.expect(1 <= len(s) <= 3, f"booty {booty[i]!r}", f"short must be 1-3 letters, got {s!r}")

    levels = []
    for i, t in enumerate(_table_list(ck, raw, "legend")):
        e = f"legend #{i + 1}"
        bonus = ck.one_of(ck.field(t, "bonus", str, e), LEGEND_BONUS, e, "bonus")
        levels.append(Level(ck.field(t, "name", str, e), _int(ck, t, "sail", e, 0, 9),
                            _int(ck, t, "dice", e, 1, 3), LEGEND_BONUS.index(bonus),
                            _int(ck, t, "amount", e, 0, 13)))
    ck.expect(len(levels) == LEGEND_LEVELS, "legend",
              f"expected {LEGEND_LEVELS} levels, found {len(levels)}")

    tr = _table_list(ck, raw, "treasure")
    ck.expect(len(tr) == TREASURES, "treasure", f"expected {TREASURES}, found {len(tr)}")
    gold_cap = _int(ck, g, "gold_cap", "general", 1, 99)
    cost = tuple(_int(ck, t, "cost", f"treasure #{i + 1}", 0, gold_cap) for i, t in enumerate(tr))
    gate = tuple(_int(ck, t, "min_level", f"treasure #{i + 1}", 1, LEGEND_LEVELS)
                 for i, t in enumerate(tr))

    merchants: list[int] = []
    mleg: dict[int, int] = {}
    for i, t in enumerate(_table_list(ck, raw, "merchant")):
        e = f"merchant #{i + 1}"
        v = ck.one_of(ck.field(t, "value", int, e), MERCHANT_VALUES, e, "value")
        mleg[v] = _int(ck, t, "legend_players", e, 0, 4)
        merchants += [v] * _int(ck, t, "count", e, 1, 11)
    ck.expect(len(merchants) == MERCHANT_CARDS, "merchant",
              f"expected {MERCHANT_CARDS} merchant cards, found {len(merchants)}")
    merchants.sort(reverse=True)          # bottom of the deck first: 8s, 6s, 4s, 2s on top

    search: list[tuple[int, int]] = []
    for i, t in enumerate(_table_list(ck, raw, "search")):
        e = f"search #{i + 1}"
        kind = ck.one_of(ck.field(t, "kind", str, e), SEARCH_KINDS, e, "kind")
        amount = _int(ck, t, "amount", e, 1, 13)
        search += [(SEARCH_KINDS.index(kind), amount)] * _int(ck, t, "count", e, 1, 20)
    ck.expect(len(search) == SEARCH_TOKENS, "search",
              f"expected {SEARCH_TOKENS} search tokens, found {len(search)}")

    maps = []
    for i, t in enumerate(_table_list(ck, raw, "map")):
        e = f"map #{i + 1}"
        kind = KINDS.index(ck.one_of(ck.field(t, "kind", str, e), KINDS, e, "kind"))
        plunder = _int(ck, t, "plunder", e, 1, 2) if kind == SETTLEMENT else 0
        b = -1
        if kind == MARKET:
            b = booty.index(ck.one_of(ck.field(t, "booty", str, e), booty, e, "booty"))
        maps.append(MapCard(ck.field(t, "name", str, e), kind, plunder, b))
    ck.expect(len(maps) == MAP_CARDS, "map", f"expected {MAP_CARDS} map cards, found {len(maps)}")
    ck.expect(sum(m.kind == COVE for m in maps) >= 4, "map", "needs at least 4 coves")
    ck.expect({m.booty for m in maps if m.kind == MARKET} == set(range(BOOTY_TYPES)), "map",
              "needs a market for every booty type")

    caps = []
    for i, t in enumerate(_table_list(ck, raw, "captain")):
        e = f"captain #{i + 1}"
        trig = tuple(ORDERS.index(ck.one_of(ck.field(t, f"{s}_trigger", str, e), ORDERS, e,
                                            "trigger")) for s in "ab")
        caps.append(Captain(ck.field(t, "name", str, e), (trig[0], trig[1]),
                            (_dice(ck, t, "a_dice", e), _dice(ck, t, "b_dice", e))))
    ck.expect(len(caps) == CAPTAINS, "captain", f"expected {CAPTAINS}, found {len(caps)}")

    crew = []
    for i, t in enumerate(_table_list(ck, raw, "crew")):
        e = f"crew #{i + 1}"
        ctrig = ORDERS.index(ck.one_of(ck.field(t, "trigger", str, e), ORDERS, e, "trigger"))
        bonus = ck.field(t, "bonus", list, e)
        for b in bonus:
            ck.one_of(b, BONUSES, e, "bonus")
            ck.expect(b != "hide out", e, "hide out is not a bonus action")
        auto = _int(ck, t, "auto", e, 0, 9) if "auto" in t else 0
        crew.append(Crew(ck.field(t, "name", str, e), ctrig, _dice(ck, t, "dice", e), auto,
                         tuple(BONUSES.index(b) for b in bonus)))
    ck.expect(len(crew) == CREW_CARDS, "crew", f"expected {CREW_CARDS} crew cards, found "
              f"{len(crew)}")
    ck.expect(len({c.name for c in crew}) == CREW_CARDS, "crew", "crew names must differ")

    return Ruleset(
        path=str(path),
        gold_cap=gold_cap,
        start_gold=_int(ck, g, "start_gold", "general", 0, gold_cap),
        ship_capacity=_int(ck, g, "ship_capacity", "general", 1, 9),
        dice=_int(ck, g, "dice", "general", 3, 3),
        surefire_tokens=_int(ck, g, "surefire_tokens", "general", 0, 99),
        deckhands=_int(ck, g, "deckhands", "general", 4, 4),
        navy_base=_int(ck, g, "navy_base_damage", "general", 0, 30),
        navy_div=_int(ck, g, "navy_level_divisor", "general", 1, 7),
        solo_dice=solo,
        booty=booty,
        booty_colour=colours,
        booty_short=shorts,
        cubes=cubes,
        legend=tuple(levels),
        treasure_cost=cost,
        treasure_level=gate,
        merchants=tuple(merchants),
        merchant_legend=mleg,
        search=tuple(search),
        maps=tuple(maps),
        captains=tuple(caps),
        crew=tuple(crew),
    )
