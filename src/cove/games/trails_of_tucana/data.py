"""Trails of Tucana's data file (``trails_of_tucana.toml``): its schema, read by the core's
typed loader (:func:`cove.core.data.load_typed`), and the tables the rules use, built from
it: both islands, the decks and the score tables.

The loader checks every value's type and bounds and refuses a missing or unknown field.
Checked here are what the rulebook counts (73 and 104 hexes, the terrain totals, 10
villages, 2 or 3 of each sight, 27 terrain cards 8/7/6/4/2, 13 set-up cards with each
letter twice, 10 blue and 5 red bonus cards) and what relates the entries to each other
(the terrain and sight codes the map uses, the letters, sight names and maps the tables
are keyed by), so a malformed file fails at import with a :class:`cove.DataError` naming
the file, the entry and the problem.

Spaces are numbered 0..N-1 in reading order (row by row, left to right); a space is named
by its (doubled) column's letter and its row's number, e.g. ``i1`` (row 0, column 8).
Edges (pairs of adjacent spaces) are numbered too; a segment is drawn along an edge.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

from cove.core import DataChecker, HexGrid, load_typed
from cove.core.data import entry  # ruff knows entry() as an immutable default by this path
from cove.games.trails_of_tucana.island import Island

NEIGHBOUR_ORDER = ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))
"""West, east, north-west, north-east, south-west, south-east: the order each space's
neighbours are listed in (doubled coordinates, cove.core.components.HexGrid)."""

DATA_FILE = Path(__file__).with_name("trails_of_tucana.toml")

# Counts stated by the rulebook and the sourced notes (asserted on load); Final, so the
# compiled rules read them as numbers, not as names looked up in this module.
TERRAINS: Final = 4
ANY: Final = 4  # the wild card's index after the four terrains
CARD_NAMES = ("desert", "forest", "mountain", "water", "any")
DECK_COUNTS = {"desert": 8, "forest": 7, "mountain": 6, "water": 4, "any": 2}
DECK_SIZE: Final = 27
TURNS_PER_ROUND: Final = (DECK_SIZE - 1) // 2  # 13: the round ends with one card left
SETUP_CARDS: Final = 13
VILLAGES: Final = 10
KINDS: Final = 5
LETTERS: Final = 5
LETTER_NAMES = "ABCDE"
MAP_EXPECT: dict[str, dict[str, Any]] = {
    "petit": {
        "hexes": 73,
        "terrain": {"desert": 24, "forest": 20, "mountain": 16, "water": 13},
        "per_kind": 2,
        "rounds": 2,
    },
    "grande": {
        "hexes": 104,
        "terrain": {"desert": 34, "forest": 29, "mountain": 24, "water": 17},
        "per_kind": 3,
        "rounds": 3,
    },
}

_CELL = re.compile(r"^(\d+):([A-Z])(v\d+|[A-Z][a-z])?$")


# -- the file's schema ---------------------------------------------------------------------
@dataclass(frozen=True)
class Deck:
    """The terrain cards of each kind (the rulebook's 8/7/6/4/2, checked on load)."""

    desert: int = entry(minimum=0, help="desert cards")
    forest: int = entry(minimum=0, help="forest cards")
    mountain: int = entry(minimum=0, help="mountain cards")
    water: int = entry(minimum=0, help="water cards")
    any: int = entry(minimum=0, help="wild cards: each player picks the terrain")


@dataclass(frozen=True)
class Setup:
    """The set-up cards (13, each letter twice, checked on load)."""

    cards: tuple[str, ...] = entry(
        help="the set-up cards: 10 letters each, A-E twice, read from the top village "
        "circle clockwise")


@dataclass(frozen=True)
class Solo:
    """The DESIGN solo rule (R9)."""

    discard_after_round_1: int = entry(
        minimum=0, maximum=LETTERS,
        help="blue cards discarded at random after round 1 of a solo game (the default of "
        "option solo_discards)")
    target: dict[str, int] = entry(
        minimum=0, help="per map: the score a solo player tries to reach")


@dataclass(frozen=True)
class MapData:
    """One side of the score sheet, ``[maps.<key>]``."""

    name: str = entry(help="the island's name, as the screens show it")
    rounds: int = entry(minimum=1, help="rounds played on this island")
    pair_values: dict[str, int] = entry(
        minimum=1, help="per letter: the points of joining that pair of villages")
    sight_values: dict[str, tuple[int, ...]] = entry(
        minimum=1, help="per sight kind: the values circled in turn, one per sight of the kind")
    rows: tuple[str, ...] = entry(
        min_items=1,
        help='the spaces row by row, "col:code" each: a doubled column, a terrain code and '
        "an optional feature (vN = village N, or a sight code)")


@dataclass(frozen=True)
class TucanaData:
    """The whole file, ``trails_of_tucana.toml``."""

    # the tables of their own, each checked by its schema
    deck: Deck
    setup: Setup
    solo: Solo
    maps: dict[str, MapData]  # the two sides of the score sheet, by option value
    terrains: tuple[str, ...] = entry(help="the four terrains, in card order")
    terrain_codes: tuple[str, ...] = entry(help="per terrain: the letter the map writes")
    sights: tuple[str, ...] = entry(help="the five kinds of sight, in score-sheet order")
    sight_codes: tuple[str, ...] = entry(help="per sight kind: the two letters the map writes")
    letters: tuple[str, ...] = entry(help="the letters of the village pairs")
    blue: dict[str, tuple[int, ...]] = entry(
        minimum=1, min_items=2, max_items=2,
        help="per letter: the values of blue bonus cards #1 and #2")
    red: dict[str, int] = entry(
        minimum=1, help="per sight kind: the value of its red bonus card (Special Bonus)")


# -- the tables the rules use ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Tables:
    """Everything in the data file, validated, as the rules use it."""

    islands: dict[str, Island]
    deck: tuple[int, ...]  # 27 card ints (0..3 terrains, 4 any)
    setup_cards: tuple[str, ...]
    blue: tuple[tuple[int, int], ...]  # per letter: (#1, #2)
    red: tuple[int, ...]  # per kind: value
    solo_discards: int
    solo_target: dict[str, int]
    sight_names: tuple[str, ...]
    sight_codes: tuple[str, ...]  # per sight kind, as the map writes it: "Ob", ...
    terrain_codes: tuple[str, ...]  # per terrain, as the map writes it: "D", ...


def load_tables(path: str | Path = DATA_FILE) -> Tables:
    """The data file at ``path``, checked, as the rules' tables; a DataError names the
    file, the entry and the problem."""
    chk = DataChecker(path)
    data = load_typed(TucanaData, path)
    _check_names(chk, data)
    deck = _deck(chk, data.deck)
    _check_setup_cards(chk, data.setup.cards, data.letters)
    blue = _keyed(chk, "blue", data.blue, data.letters)
    chk.expect(len(data.red) == KINDS, "red",
               f"expected {KINDS} red cards, found {len(data.red)}")
    red = _keyed(chk, "red", data.red, data.sights)
    maps = _keyed(chk, "maps", data.maps, tuple(MAP_EXPECT))
    target = _keyed(chk, "solo.target", data.solo.target, tuple(MAP_EXPECT))
    return Tables(
        islands={key: _island(chk, key, m, data) for key, m in zip(MAP_EXPECT, maps, strict=True)},
        deck=deck,
        setup_cards=data.setup.cards,
        blue=tuple((v[0], v[1]) for v in blue),
        red=red,
        solo_discards=data.solo.discard_after_round_1,
        solo_target=dict(zip(MAP_EXPECT, target, strict=True)),
        sight_names=data.sights,
        sight_codes=data.sight_codes,
        terrain_codes=data.terrain_codes,
    )


# -- checks relating the entries --------------------------------------------------------------
V = TypeVar("V")


def _keyed(chk: DataChecker, entry: str, table: Mapping[str, V],
           names: Sequence[str]) -> tuple[V, ...]:
    """``table``'s values in the order of ``names``, which must be exactly its keys (a
    table keyed by the letters, the sight names or the maps)."""
    missing = [k for k in names if k not in table]
    chk.expect(not missing, entry, f"missing {', '.join(map(repr, missing))}")
    unknown = [k for k in table if k not in names]
    chk.expect(not unknown, entry, f"unknown {', '.join(map(repr, unknown))}; expected "
               f"{', '.join(names)}")
    return tuple(table[k] for k in names)


def _check_names(chk: DataChecker, data: TucanaData) -> None:
    """The terrains and letters the code counts on; distinct codes the map can use."""
    for key, got, want in (("terrains", data.terrains, CARD_NAMES[:TERRAINS]),
                           ("letters", data.letters, tuple(LETTER_NAMES))):
        chk.expect(got == want, key, f"expected {list(want)}, found {list(got)}")
    chk.expect(len(data.sights) == KINDS and len(set(data.sights)) == KINDS, "sights",
               f"needs {KINDS} distinct sight names")
    for key, codes, count, form, pattern in (
            ("terrain_codes", data.terrain_codes, TERRAINS, "one upper-case letter", "[A-Z]"),
            ("sight_codes", data.sight_codes, KINDS,
             "an upper-case then a lower-case letter", "[A-Z][a-z]")):
        chk.expect(len(codes) == count and len(set(codes)) == count, key,
                   f"needs {count} distinct codes")
        for c in codes:
            chk.expect(re.fullmatch(pattern, c) is not None, key, f"code {c!r} must be {form}")


def _deck(chk: DataChecker, counts: Deck) -> tuple[int, ...]:
    """The 27 terrain cards as card ints (0..3 the terrains, 4 any), the rulebook's mix."""
    deck: list[int] = []
    for c, name in enumerate(CARD_NAMES):
        k = getattr(counts, name)
        chk.expect(k == DECK_COUNTS[name], f"deck.{name}",
                   f"expected {DECK_COUNTS[name]} cards, found {k}")
        deck += [c] * k
    chk.expect(len(deck) == DECK_SIZE, "deck", f"expected {DECK_SIZE} cards, found {len(deck)}")
    return tuple(deck)


def _check_setup_cards(chk: DataChecker, cards: tuple[str, ...],
                       letters: tuple[str, ...]) -> None:
    chk.expect(len(cards) == SETUP_CARDS, "setup.cards",
               f"expected {SETUP_CARDS} set-up cards, found {len(cards)}")
    for i, card in enumerate(cards):
        where = f"setup.cards[{i}]"
        chk.expect(len(card) == VILLAGES, where, f"needs a string of {VILLAGES} letters")
        for letter in letters:
            chk.expect(card.count(letter) == 2, where,
                       f"letter {letter} appears {card.count(letter)} times, not twice")


def check_adjacency(
    chk: DataChecker, entry: str, labels: tuple[str, ...], adj: tuple[tuple[int, ...], ...]
) -> None:
    """Every adjacency must be symmetric, distinct and between existing spaces."""
    n = len(adj)
    for a, ns in enumerate(adj):
        chk.expect(len(ns) <= 6, f"{entry} space {labels[a]}", f"has {len(ns)} neighbours (> 6)")
        chk.expect(len(set(ns)) == len(ns), f"{entry} space {labels[a]}", "repeats a neighbour")
        for b in ns:
            chk.expect(0 <= b < n and b != a, f"{entry} space {labels[a]}", f"bad neighbour {b}")
            chk.expect(
                a in adj[b],
                f"{entry} space {labels[a]}",
                f"is next to {labels[b]} but {labels[b]} is not next to it (asymmetric)",
            )


def _cells(chk: DataChecker, entry: str, rows: tuple[str, ...], codes: tuple[str, ...],
           ) -> tuple[list[tuple[int, int]], list[int], list[str]]:
    """A map's rows read cell by cell: each space's (row, doubled column), terrain and
    feature code (``""`` for none, ``v3``, ``Ob``)."""
    coords: list[tuple[int, int]] = []
    terrain: list[int] = []
    feats: list[str] = []
    for r, line in enumerate(rows):
        for tok in line.split():
            m = _CELL.match(tok)
            where = f"{entry}.rows[{r}] cell {tok!r}"
            chk.expect(m is not None, where, "not of the form col:T[feature], e.g. 8:Mv1")
            assert m is not None
            col = int(m.group(1))
            chk.expect((r + col) % 2 == 0, where,
                       "row + doubled column must be even on this hex grid")
            chk.expect((r, col) not in coords, where, "space listed twice")
            t = m.group(2)
            chk.expect(t in codes, where, f"terrain {t!r} is not one of {', '.join(codes)}")
            coords.append((r, col))
            terrain.append(codes.index(t))
            feats.append(m.group(3) or "")
    return coords, terrain, feats


def _features(chk: DataChecker, entry: str, labels: tuple[str, ...], feats: list[str],
              data: TucanaData) -> tuple[list[int], list[int], list[int]]:
    """The village on each space (index 0..9, or -1), the space of each village, and the
    kind of each sight in reading order: 10 villages, each once; sights the map knows."""
    village = [-1] * len(feats)
    village_space = [-1] * VILLAGES
    sight_kind: list[int] = []
    for i, f in enumerate(feats):
        where = f"{entry} space {labels[i]}"
        if f.startswith("v"):
            v = int(f[1:])
            chk.expect(1 <= v <= VILLAGES, where, f"village number {v} is not 1..{VILLAGES}")
            chk.expect(village_space[v - 1] < 0, where, f"village {v} appears twice")
            village_space[v - 1] = i
            village[i] = v - 1
        elif f:
            chk.expect(f in data.sight_codes, where,
                       f"sight {f!r} is not one of {', '.join(data.sight_codes)}")
            sight_kind.append(data.sight_codes.index(f))
    missing = [str(v + 1) for v in range(VILLAGES) if village_space[v] < 0]
    chk.expect(not missing, f"{entry}.rows", f"expected {VILLAGES} villages; missing {missing}")
    return village, village_space, sight_kind


def _island(chk: DataChecker, key: str, raw: MapData, data: TucanaData) -> Island:
    """One side of the score sheet, checked against the rulebook's counts, with its
    geometry and its precomputed tables."""
    entry = f"maps.{key}"
    expect = MAP_EXPECT[key]
    per_kind = expect["per_kind"]
    chk.expect(raw.rounds == expect["rounds"], f"{entry}.rounds",
               f"expected {expect['rounds']} rounds, found {raw.rounds}")
    coords, terrain, feats = _cells(chk, entry, raw.rows, data.terrain_codes)
    n = len(coords)
    chk.expect(n == expect["hexes"], f"{entry}.rows",
               f"expected {expect['hexes']} hexes, found {n}")
    for t, want in expect["terrain"].items():
        got = terrain.count(CARD_NAMES.index(t))
        chk.expect(got == want, f"{entry}.rows", f"expected {want} {t} spaces, found {got}")
    # geometry: a space's name is its (doubled) column's letter and its row's number (i1);
    # its neighbours are (r, c+-2) and (r+-1, c+-1)
    grid = HexGrid(coords, NEIGHBOUR_ORDER)
    labels = grid.names
    village, village_space, sight_kind = _features(chk, entry, labels, feats, data)
    for k, kname in enumerate(data.sights):
        got = sight_kind.count(k)
        chk.expect(got == per_kind, f"{entry}.rows",
                   f"expected {per_kind} of sight {kname!r}, found {got}")
    adj = grid.neighbours
    check_adjacency(chk, entry, labels, adj)
    dist = tuple(_distances(adj, a) for a in range(n))
    chk.expect(min(dist[0]) >= 0, f"{entry}.rows", "the island is not one connected piece")
    sight_values = _keyed(chk, f"{entry}.sight_values", raw.sight_values, data.sights)
    for kname, vals in zip(data.sights, sight_values, strict=True):
        chk.expect(len(vals) == per_kind, f"{entry}.sight_values.{kname}",
                   f"needs {per_kind} positive whole numbers")
    pair_values = _keyed(chk, f"{entry}.pair_values", raw.pair_values, data.letters)

    sight_space = [i for i, f in enumerate(feats) if f and not f.startswith("v")]
    sight = [-1] * n
    for s, i in enumerate(sight_space):
        sight[i] = s
    kind_mask = [0] * KINDS
    for s, k in enumerate(sight_kind):
        kind_mask[k] |= 1 << s
    edges = tuple(sorted({(min(a, b), max(a, b)) for a in range(n) for b in adj[a]}))
    matching = {(c1, c2): tuple(e for e, (a, b) in enumerate(edges)
                                if _fits(terrain[a], terrain[b], c1, c2))
                for c1 in range(len(CARD_NAMES)) for c2 in range(len(CARD_NAMES))}
    return Island(
        key=key,
        name=raw.name,
        rounds=raw.rounds,
        per_kind=per_kind,
        coords=tuple(coords),
        labels=labels,
        terrain=tuple(terrain),
        village=tuple(village),
        sight=tuple(sight),
        village_space=tuple(village_space),
        sight_space=tuple(sight_space),
        sight_kind=tuple(sight_kind),
        kind_mask=tuple(kind_mask),
        sight_values=sight_values,
        pair_values=pair_values,
        adj=adj,
        edges=edges,
        edge_index={e: i for i, e in enumerate(edges)},
        ends=tuple(f"{labels[a]}-{labels[b]}" for a, b in edges),
        matching=matching,
        space_features=tuple(((1 << village[i]) if village[i] >= 0 else 0)
                    | ((1 << (VILLAGES + sight[i])) if sight[i] >= 0 else 0)
                    for i in range(n)),
        dist=dist,
        size=n,
        pair_points=tuple(sum(v for L, v in enumerate(pair_values) if m >> L & 1)
                          for m in range(1 << LETTERS)),
        sight_cum=tuple(tuple(sum(vals[:c]) for c in range(per_kind + 1))
                        for vals in sight_values),
        sight_points=_sight_points(sight_kind, kind_mask, sight_values),
    )


def _fits(ta: int, tb: int, c1: int, c2: int) -> bool:
    """Whether a segment between terrains ``ta`` and ``tb`` fits the cards ``c1`` and
    ``c2`` (either way round; ``ANY`` fits every terrain)."""
    return ((c1 in (ta, ANY) and c2 in (tb, ANY))
            or (c2 in (ta, ANY) and c1 in (tb, ANY)))


def _sight_points(kinds: list[int], kind_mask: list[int],
                  values: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The points of every set of circled sights (a bitmask over the sights): a set's
    lowest sight, the c-th circled of its kind, adds that kind's c-th value to the rest."""
    pts = [0] * (1 << len(kinds))
    for m in range(1, len(pts)):
        k = kinds[(m & -m).bit_length() - 1]
        pts[m] = pts[m & (m - 1)] + values[k][(m & kind_mask[k]).bit_count() - 1]
    return tuple(pts)


def _distances(adj: tuple[tuple[int, ...], ...], a: int) -> tuple[int, ...]:
    """Steps from space ``a`` to every space over the island (-1 where none leads)."""
    out = [-1] * len(adj)
    out[a] = 0
    frontier = [a]
    while frontier:
        nxt = []
        for x in frontier:
            for y in adj[x]:
                if out[y] < 0:
                    out[y] = out[x] + 1
                    nxt.append(y)
        frontier = nxt
    return tuple(out)


TABLES = load_tables()
"""The built-in data, loaded once."""
