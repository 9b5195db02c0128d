"""A Tiny Epic Pirates ruleset file (``<ruleset>.toml``): its schema, read by the core's
typed loader (:func:`cove.core.data.load_typed`, which checks every type, bound and allowed
value), the checks that relate its entries to each other, and the plain tuples the rules
index by int, built from it.

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

from cove.core import DataChecker, OptionError, entry, load_typed

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

# ---------------------------------------------------------------- the file's schema
@dataclass(frozen=True)
class GeneralFile:
    gold_cap: int = entry(minimum=1, maximum=99, help="the most Gold a player holds (R2.1)")
    start_gold: int = entry(minimum=0, maximum=99, help="Gold at the start, at most gold_cap")
    ship_capacity: int = entry(minimum=1, maximum=9, help="cubes a Pirate Ship holds (R2.2)")
    merchant_capacity: int = entry(
        minimum=1, maximum=1,
        help="cubes a Merchant holds (R2.2); a Merchant carries one cube in these rules")
    dice: int = entry(minimum=3, maximum=3, help="dice in the game (the Legend Track's most)")
    surefire_tokens: int = entry(minimum=0, maximum=99,
                                 help="sure-fire tokens in the finite supply")
    deckhands: int = entry(minimum=4, maximum=4,
                           help="Deckhands per player, the one on the Legend Track included")
    navy_base_damage: int = entry(minimum=0, maximum=30,
                                  help="the Navy deals this + Legend level // divisor (R6.4)")
    navy_level_divisor: int = entry(minimum=1, maximum=7, help="see navy_base_damage")
    solo_dice: tuple[int, ...] = entry(
        minimum=1, maximum=6, min_items=TREASURES + 1, max_items=TREASURES + 1,
        help="the solo pirate's attack dice by treasures buried, 0 to 3 (R12.2)")


@dataclass(frozen=True)
class BootyFile:
    name: str = entry(help="the booty type's name, used by the markets")
    colour: str = entry(help="its cubes' colour on the web board, #rrggbb (presentation)")
    short: str = entry(help="its cubes' label on the web board, 1-3 letters (presentation)")
    cubes: int = entry(minimum=2, maximum=99, help="cubes of this type in the game")


@dataclass(frozen=True)
class LevelFile:
    name: str = entry(help="the Legend level's name")
    sail: int = entry(minimum=0, maximum=9, help="movement at this level (R5.1)")
    dice: int = entry(minimum=1, maximum=3, help="battle dice at this level (R7.7)")
    bonus: str = entry(choices=LEGEND_BONUS, help="what reaching the level gives")
    amount: int = entry(minimum=0, maximum=13, help="how much of the bonus")


@dataclass(frozen=True)
class TreasureFile:
    cost: int = entry(minimum=0, maximum=99, help="Gold to bury it, at most gold_cap (R10.1)")
    min_level: int = entry(minimum=1, maximum=LEGEND_LEVELS,
                           help="the lowest Legend level that may bury it (R10.1)")


@dataclass(frozen=True)
class MerchantFile:
    value: int = entry(choices=MERCHANT_VALUES, help="the card's value (damage and Gold)")
    count: int = entry(minimum=1, maximum=MERCHANT_CARDS, help="cards of this value")
    legend_players: int = entry(minimum=0, maximum=4,
                                help="sinking it gives Legend at 1..N players (0: never)")


@dataclass(frozen=True)
class SearchFile:
    kind: str = entry(choices=SEARCH_KINDS, help="what the token gives (R7.5)")
    amount: int = entry(minimum=1, maximum=13, help="how much of it")
    count: int = entry(minimum=1, maximum=SEARCH_TOKENS, help="tokens of this kind")


@dataclass(frozen=True)
class MapFile:
    name: str = entry(help="the card's name")
    kind: str = entry(choices=KINDS, help="cove, market, settlement or storm")
    plunder: int = entry(minimum=0, maximum=2, default=0,
                         help="a settlement's plunder icons, 1 or 2 (only a settlement)")
    booty: str = entry(default="", help="the booty type a market buys (only a market)")


@dataclass(frozen=True)
class CaptainFile:
    name: str = entry(help="the Captain's name")
    a_trigger: str = entry(choices=ORDERS, help="side A's trigger Order")
    a_dice: tuple[int, ...] = entry(minimum=1, maximum=6, help="side A's die symbols")
    b_trigger: str = entry(choices=ORDERS, help="side B's trigger Order")
    b_dice: tuple[int, ...] = entry(minimum=1, maximum=6, help="side B's die symbols")


@dataclass(frozen=True)
class CrewFile:
    name: str = entry(help="the crew card's name (the names differ)")
    trigger: str = entry(choices=ORDERS, help="the Order that triggers its bonus actions")
    dice: tuple[int, ...] = entry(minimum=1, maximum=6, help="its die symbols")
    bonus: tuple[str, ...] = entry(choices=tuple(b for b in BONUSES if b != "hide out"),
                                   help="its bonus actions (R8)")
    auto: int = entry(minimum=0, maximum=9, default=0, help="automatic hits in a battle")


@dataclass(frozen=True)
class RulesetFile:
    general: GeneralFile
    booty: tuple[BootyFile, ...]
    legend: tuple[LevelFile, ...]
    treasure: tuple[TreasureFile, ...]
    merchant: tuple[MerchantFile, ...]
    search: tuple[SearchFile, ...]
    map: tuple[MapFile, ...]
    captain: tuple[CaptainFile, ...]
    crew: tuple[CrewFile, ...]


# ---------------------------------------------------------------- the tables the rules read
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
    navy_base_damage: int
    navy_level_divisor: int
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


def load(path: str | Path) -> Ruleset:
    """Load and validate one ruleset file."""
    data = load_typed(RulesetFile, path)
    _check(data, DataChecker(path))
    return _tables(data, str(path))


def _check(f: RulesetFile, ck: DataChecker) -> None:
    """What the schema cannot say: the counts the rulebook states, entries that must differ
    or refer to each other, and the two text formats (the typed loader has no pattern or
    text-length bound)."""
    g = f.general
    ck.expect(len(f.booty) == BOOTY_TYPES, "booty",
              f"expected {BOOTY_TYPES} booty types, found {len(f.booty)}")
    names = [b.name for b in f.booty]
    ck.expect(len(set(names)) == BOOTY_TYPES, "booty", "booty names must differ")
    for i, b in enumerate(f.booty):
        ck.expect(re.fullmatch(r"#[0-9a-fA-F]{6}", b.colour) is not None,
                  f"booty[{i}].colour", f"must be #rrggbb, got {b.colour!r}")
        ck.expect(1 <= len(b.short) <= 3, f"booty[{i}].short",
                  f"must be 1-3 letters, got {b.short!r}")
    ck.expect(len(f.legend) == LEGEND_LEVELS, "legend",
              f"expected {LEGEND_LEVELS} levels, found {len(f.legend)}")
    ck.expect(len(f.treasure) == TREASURES, "treasure",
              f"expected {TREASURES}, found {len(f.treasure)}")
    ck.expect(g.start_gold <= g.gold_cap, "general.start_gold",
              f"must be at most gold_cap ({g.gold_cap})")
    for i, t in enumerate(f.treasure):
        ck.expect(t.cost <= g.gold_cap, f"treasure[{i}].cost",
                  f"must be at most gold_cap ({g.gold_cap})")
    merchants = sum(m.count for m in f.merchant)
    ck.expect(merchants == MERCHANT_CARDS, "merchant",
              f"expected {MERCHANT_CARDS} merchant cards, found {merchants}")
    tokens = sum(t.count for t in f.search)
    ck.expect(tokens == SEARCH_TOKENS, "search",
              f"expected {SEARCH_TOKENS} search tokens, found {tokens}")
    for i, m in enumerate(f.map):
        settlement, market = m.kind == "settlement", m.kind == "market"
        ck.expect(m.plunder in ((1, 2) if settlement else (0,)), f"map[{i}].plunder",
                  "a settlement needs 1 or 2" if settlement else "only a settlement has one")
        if market:
            ck.one_of(m.booty, names, f"map[{i}].booty", "booty")
        else:
            ck.expect(not m.booty, f"map[{i}].booty", "only a market names a booty type")
    ck.expect(len(f.map) == MAP_CARDS, "map",
              f"expected {MAP_CARDS} map cards, found {len(f.map)}")
    ck.expect(sum(m.kind == "cove" for m in f.map) >= 4, "map", "needs at least 4 coves")
    ck.expect({m.booty for m in f.map if m.kind == "market"} == set(names), "map",
              "needs a market for every booty type")
    ck.expect(len(f.captain) == CAPTAINS, "captain",
              f"expected {CAPTAINS}, found {len(f.captain)}")
    ck.expect(len(f.crew) == CREW_CARDS, "crew",
              f"expected {CREW_CARDS} crew cards, found {len(f.crew)}")
    ck.expect(len({c.name for c in f.crew}) == CREW_CARDS, "crew", "crew names must differ")


def _tables(f: RulesetFile, path: str) -> Ruleset:
    """The int-indexed tables the rules read, from a checked file."""
    g = f.general
    booty = tuple(b.name for b in f.booty)
    merchants = sorted((m.value for m in f.merchant for _ in range(m.count)), reverse=True)
    return Ruleset(
        path=path,
        gold_cap=g.gold_cap,
        start_gold=g.start_gold,
        ship_capacity=g.ship_capacity,
        dice=g.dice,
        surefire_tokens=g.surefire_tokens,
        deckhands=g.deckhands,
        navy_base_damage=g.navy_base_damage,
        navy_level_divisor=g.navy_level_divisor,
        solo_dice=g.solo_dice,
        booty=booty,
        booty_colour=tuple(b.colour for b in f.booty),
        booty_short=tuple(b.short for b in f.booty),
        cubes=tuple(b.cubes for b in f.booty),
        legend=tuple(Level(lv.name, lv.sail, lv.dice, LEGEND_BONUS.index(lv.bonus), lv.amount)
                     for lv in f.legend),
        treasure_cost=tuple(t.cost for t in f.treasure),
        treasure_level=tuple(t.min_level for t in f.treasure),
        merchants=tuple(merchants),   # bottom of the deck first: 8s, 6s, 4s, 2s on top
        merchant_legend={m.value: m.legend_players for m in f.merchant},
        search=tuple((SEARCH_KINDS.index(t.kind), t.amount) for t in f.search
                     for _ in range(t.count)),
        maps=tuple(MapCard(m.name, KINDS.index(m.kind), m.plunder,
                           booty.index(m.booty) if m.kind == "market" else -1)
                   for m in f.map),
        captains=tuple(Captain(c.name, (ORDERS.index(c.a_trigger), ORDERS.index(c.b_trigger)),
                               (c.a_dice, c.b_dice)) for c in f.captain),
        crew=tuple(Crew(c.name, ORDERS.index(c.trigger), c.dice, c.auto,
                        tuple(BONUSES.index(b) for b in c.bonus)) for c in f.crew),
    )
