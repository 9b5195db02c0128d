"""Load and validate trails_of_tucana.toml: both islands, the decks and the score tables.

Everything the rulebook counts is asserted here (73 and 104 hexes, the terrain totals,
10 villages, 2 or 3 of each sight, 27 terrain cards 8/7/6/4/2, 13 set-up cards with each
letter twice, 10 blue and 5 red bonus cards), so a malformed file fails at import with a
:class:`cove.DataError` naming the file, the entry and the problem.

Spaces are numbered 0..N-1 in reading order (row by row, left to right); a space is named
by its row letter and doubled column, e.g. ``a8`` (row 0, column 8). Edges (pairs of
adjacent spaces) are numbered too; a segment is drawn along an edge.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any

from cove.core.components import HexGrid
from cove.core.data import DataChecker, load_data
from cove.games.trails_of_tucana.actions import PASS, Bonus, Draw, bonus_code, draw_code

NEIGHBOUR_ORDER = ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))
"""West, east, north-west, north-east, south-west, south-east: the order each space's
neighbours are listed in (doubled coordinates, cove.core.components.HexGrid)."""

DATA_FILE = Path(__file__).with_name("trails_of_tucana.toml")

# Counts stated by the rulebook and the sourced notes (asserted on load).
TERRAINS = 4
ANY = 4  # the wild card's index after the four terrains
CARD_NAMES = ("desert", "forest", "mountain", "water", "any")
DECK_COUNTS = {"desert": 8, "forest": 7, "mountain": 6, "water": 4, "any": 2}
DECK_SIZE = 27
TURNS_PER_ROUND = (DECK_SIZE - 1) // 2  # 13: the round ends with one card left
SETUP_CARDS = 13
VILLAGES = 10
KINDS = 5
LETTERS = 5
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

FREE_BYTES = bytes.maketrans(b"01", b"\x01\x00")
"""Translates a binary digit of ``drawn`` into a free flag (1 = no segment there)."""

_CELL = re.compile(r"^(\d+):([A-Z])(v\d+|[A-Z][a-z])?$")


@dataclass(frozen=True, slots=True)
class Island:
    """One score-sheet side: geometry, features, score tables and precomputed tables."""

    key: str
    name: str
    rounds: int
    per_kind: int
    coords: tuple[tuple[int, int], ...]  # (row, doubled col) per space
    labels: tuple[str, ...]  # "a8" per space
    terrain: tuple[int, ...]  # 0..3 per space
    village: tuple[int, ...]  # village index 0..9 or -1 per space
    sight: tuple[int, ...]  # sight index or -1 per space
    village_space: tuple[int, ...]  # space of village 0..9 (village number - 1)
    sight_space: tuple[int, ...]  # space of each sight
    sight_kind: tuple[int, ...]  # kind 0..4 of each sight
    kind_mask: tuple[int, ...]  # bitmask over sight indices, per kind
    sight_values: tuple[tuple[int, ...], ...]  # per kind: 1st, 2nd(, 3rd) value
    pair_values: tuple[int, ...]  # per letter A..E
    adj: tuple[tuple[int, ...], ...]  # neighbours per space
    edges: tuple[tuple[int, int], ...]  # (a, b) with a < b
    edge_index: dict[tuple[int, int], int]
    matching: dict[tuple[int, int], tuple[int, ...]]  # (card, card) -> edges that fit
    draws: tuple[Draw, ...]  # per edge
    bonuses: tuple[Bonus, ...]  # per edge
    info0: tuple[int, ...]  # per space: village bit | sight bit << VILLAGES
    dist: tuple[tuple[int, ...], ...]  # steps between two spaces over the island
    size: int  # number of spaces
    # For the legal lists: ``format(drawn, free_format).encode().translate(FREE_BYTES)``
    # is one byte per edge, 1 where the edge is free, edge e at index ``len(edges) - 1 -
    # e``; per (card, card), ``match_draws`` are the draws along ``matching`` and
    # ``match_free`` picks their flags out of those bytes (two extra flags at the end make
    # it always return a tuple), so that ``compress`` filters them in C.
    free_format: str  # format spec of ``drawn`` as one binary digit per edge
    match_draws: dict[tuple[int, int], tuple[Draw, ...]]
    match_free: dict[tuple[int, int], Callable[[bytes], tuple[int, ...]]]
    # Scoring and encoding tables: the points of every set of joined pairs (a bitmask over
    # the letters), the points of a kind's first c sights (per kind, c = 0..per_kind),
    # and the action-space index of every action (draws, bonuses, pass).
    pair_points: tuple[int, ...]
    sight_cum: tuple[tuple[int, ...], ...]
    sight_points: tuple[int, ...]  # points of every set of circled sights (a bitmask)
    action_index: dict[Hashable, int]
    # recently encoded sheets for the observation: drawn segments -> one float per edge
    # (filled by observation.py; a cache, not part of the island's description)
    segment_rows: dict[int, array[float]] = field(
        default_factory=dict, compare=False, repr=False)

    def space(self, label: str) -> int:
        """The space named ``label`` (e.g. ``"a8"``)."""
        return self.labels.index(label)

    def edge(self, a: str, b: str) -> int:
        x, y = self.space(a), self.space(b)
        return self.edge_index[(min(x, y), max(x, y))]


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything in the data file, validated."""

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


def _island(chk: DataChecker, key: str, raw: Any, codes: dict[str, Any]) -> Island:
    slot = list(MAP_EXPECT).index(key)  # numbers the island's actions (actions.py)
    entry = f"maps.{key}"
    chk.expect(isinstance(raw, dict), entry, "must be a table")
    expect = MAP_EXPECT[key]
    name = chk.field(raw, "name", str, entry)
    rounds = chk.field(raw, "rounds", int, entry)
    chk.expect(rounds == expect["rounds"], f"{entry}.rounds",
               f"expected {expect['rounds']} rounds, found {rounds}")
    rows = chk.field(raw, "rows", list, entry)
    coords: list[tuple[int, int]] = []
    terrain: list[int] = []
    feats: list[str] = []
    for r, line in enumerate(rows):
        chk.expect(isinstance(line, str), f"{entry}.rows[{r}]", "must be a string")
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
            chk.expect(t in codes["terrain"], where,
                       f"terrain {t!r} is not one of {', '.join(codes['terrain'])}")
            coords.append((r, col))
            terrain.append(codes["terrain"].index(t))
            feats.append(m.group(3) or "")
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
    village = [-1] * n
    sight = [-1] * n
    village_space = [-1] * VILLAGES
    sight_space: list[int] = []
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
            chk.expect(f in codes["sight"], where,
                       f"sight {f!r} is not one of {', '.join(codes['sight'])}")
            sight[i] = len(sight_space)
            sight_space.append(i)
            sight_kind.append(codes["sight"].index(f))
    missing = [str(v + 1) for v in range(VILLAGES) if village_space[v] < 0]
    chk.expect(not missing, f"{entry}.rows", f"expected {VILLAGES} villages; missing {missing}")
    per_kind = expect["per_kind"]
    for k, kname in enumerate(codes["sight_names"]):
        got = sight_kind.count(k)
        chk.expect(got == per_kind, f"{entry}.rows",
                   f"expected {per_kind} of sight {kname!r}, found {got}")
    adj = grid.neighbours
    check_adjacency(chk, entry, labels, adj)
    seen = {0}
    todo = [0]
    while todo:
        for b in adj[todo.pop()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    chk.expect(len(seen) == n, f"{entry}.rows", "the island is not one connected piece")
    edges = tuple(sorted({(min(a, b), max(a, b)) for a in range(n) for b in adj[a]}))
    edge_index = {e: i for i, e in enumerate(edges)}
    matching: dict[tuple[int, int], tuple[int, ...]] = {}
    for c1 in range(5):
        for c2 in range(5):
            def fits(t: int, c: int) -> bool:
                return c == ANY or t == c
            matching[(c1, c2)] = tuple(
                e for e, (a, b) in enumerate(edges)
                if (fits(terrain[a], c1) and fits(terrain[b], c2))
                or (fits(terrain[a], c2) and fits(terrain[b], c1))
            )
    sv_raw = chk.field(raw, "sight_values", dict, entry)
    sight_values = []
    for kname in codes["sight_names"]:
        vals = chk.field(sv_raw, kname, list, f"{entry}.sight_values")
        chk.expect(len(vals) == per_kind and all(isinstance(x, int) and x > 0 for x in vals),
                   f"{entry}.sight_values.{kname}", f"needs {per_kind} positive whole numbers")
        sight_values.append(tuple(vals))
    pv_raw = chk.field(raw, "pair_values", dict, entry)
    pair_values = []
    for letter in codes["letters"]:
        val = chk.field(pv_raw, letter, int, f"{entry}.pair_values")
        chk.expect(val > 0, f"{entry}.pair_values.{letter}", "must be positive")
        pair_values.append(val)
    kind_mask = [0] * KINDS
    for s, k in enumerate(sight_kind):
        kind_mask[k] |= 1 << s
    info0 = tuple(
        ((1 << village[i]) if village[i] >= 0 else 0)
        | ((1 << (VILLAGES + sight[i])) if sight[i] >= 0 else 0)
        for i in range(n)
    )
    ne = len(edges)
    draws = tuple(Draw.make(draw_code(slot, e), e, f"{labels[a]}-{labels[b]}")
                  for e, (a, b) in enumerate(edges))
    bonuses = tuple(Bonus.make(bonus_code(slot, e), e, f"{labels[a]}-{labels[b]}")
                    for e, (a, b) in enumerate(edges))
    return Island(
        key=key,
        name=name,
        rounds=rounds,
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
        sight_values=tuple(sight_values),
        pair_values=tuple(pair_values),
        adj=adj,
        edges=edges,
        edge_index=edge_index,
        matching=matching,
        draws=draws,
        bonuses=bonuses,
        info0=info0,
        dist=tuple(_distances(adj, a) for a in range(n)),
        size=n,
        free_format=f"0{ne}b",
        match_draws={cc: tuple(draws[e] for e in es) for cc, es in matching.items()},
        match_free={cc: itemgetter(*(ne - 1 - e for e in es), 0, 0)
                    for cc, es in matching.items()},
        pair_points=tuple(sum(v for L, v in enumerate(pair_values) if m >> L & 1)
                          for m in range(1 << LETTERS)),
        sight_cum=tuple(tuple(sum(vals[:c]) for c in range(per_kind + 1))
                        for vals in sight_values),
        sight_points=_sight_points(sight_kind, kind_mask, sight_values),
        action_index={a: i for i, a in enumerate((*draws, *bonuses, PASS))},
    )


def _sight_points(kinds: list[int], kind_mask: list[int],
                  values: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The points of every set of circled sights (a bitmask over the sights): a set's
    lowest sight, the c-th circled of its kind, adds that kind's c-th value to the rest."""
    pts = [0] * (1 << len(kinds))
    for m in range(1, len(pts)):
        k = kinds[(m & -m).bit_length() - 1]
        pts[m] = pts[m & (m - 1)] + values[k][(m & kind_mask[k]).bit_count() - 1]
    return tuple(pts)


def _distances(adj: tuple[tuple[int, ...], ...], a: int) -> tuple[int, ...]:
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


def _names(chk: DataChecker, data: dict[str, Any], key: str, want: list[str]) -> list[str]:
    got = chk.field(data, key, list, key)
    chk.expect(got == want, key, f"expected {want}, found {got}")
    return want


def load_tables(path: str | Path = DATA_FILE) -> Tables:
    """Parse and validate a data file; raise DataError naming file, entry and problem."""
    chk = DataChecker(path)
    data = load_data(path)
    _names(chk, data, "terrains", list(CARD_NAMES[:TERRAINS]))
    tcodes = chk.field(data, "terrain_codes", list, "terrain_codes")
    chk.expect(len(tcodes) == TERRAINS and len(set(tcodes)) == TERRAINS, "terrain_codes",
               f"needs {TERRAINS} distinct codes")
    for c in tcodes:
        chk.expect(isinstance(c, str) and re.fullmatch(r"[A-Z]", c) is not None,
                   "terrain_codes", f"code {c!r} must be one upper-case letter")
    sight_names = chk.field(data, "sights", list, "sights")
    chk.expect(len(sight_names) == KINDS and len(set(sight_names)) == KINDS, "sights",
               f"needs {KINDS} distinct sight names")
    sight_codes = chk.field(data, "sight_codes", list, "sight_codes")
    chk.expect(len(sight_codes) == KINDS and len(set(sight_codes)) == KINDS, "sight_codes",
               f"needs {KINDS} distinct codes")
    for c in sight_codes:
        chk.expect(isinstance(c, str) and re.fullmatch(r"[A-Z][a-z]", c) is not None,
                   "sight_codes", f"code {c!r} must be an upper-case then a lower-case letter")
    letters = _names(chk, data, "letters", list(LETTER_NAMES))
    codes = {"terrain": tcodes, "sight": sight_codes, "sight_names": sight_names,
             "letters": letters}

    deck_raw = chk.field(data, "deck", dict, "deck")
    deck: list[int] = []
    for c, name in enumerate(CARD_NAMES):
        k = chk.field(deck_raw, name, int, "deck")
        chk.expect(k == DECK_COUNTS[name], f"deck.{name}",
                   f"expected {DECK_COUNTS[name]} cards, found {k}")
        deck += [c] * k
    chk.expect(len(deck) == DECK_SIZE, "deck", f"expected {DECK_SIZE} cards, found {len(deck)}")

    setup_raw = chk.field(data, "setup", dict, "setup")
    cards = chk.field(setup_raw, "cards", list, "setup")
    chk.expect(len(cards) == SETUP_CARDS, "setup.cards",
               f"expected {SETUP_CARDS} set-up cards, found {len(cards)}")
    for i, card in enumerate(cards):
        where = f"setup.cards[{i}]"
        chk.expect(isinstance(card, str) and len(card) == VILLAGES, where,
                   f"needs a string of {VILLAGES} letters")
        for letter in letters:
            chk.expect(card.count(letter) == 2, where,
                       f"letter {letter} appears {card.count(letter)} times, not twice")

    blue_raw = chk.field(data, "blue", dict, "blue")
    blue = []
    for letter in letters:
        vals = chk.field(blue_raw, letter, list, "blue")
        chk.expect(len(vals) == 2 and all(isinstance(x, int) and x > 0 for x in vals),
                   f"blue.{letter}", "needs two positive values (card #1, card #2)")
        blue.append((vals[0], vals[1]))
    red_raw = chk.field(data, "red", dict, "red")
    chk.expect(len(red_raw) == KINDS, "red", f"expected {KINDS} red cards, found {len(red_raw)}")
    red = []
    for kname in sight_names:
        v = chk.field(red_raw, kname, int, "red")
        chk.expect(v > 0, f"red.{kname}", "must be positive")
        red.append(v)

    solo = chk.field(data, "solo", dict, "solo")
    discards = chk.field(solo, "discard_after_round_1", int, "solo")
    chk.expect(0 <= discards <= LETTERS, "solo.discard_after_round_1", "must be 0..5")
    target = chk.field(solo, "target", dict, "solo")

    maps_raw = chk.field(data, "maps", dict, "maps")
    islands = {}
    for key in MAP_EXPECT:
        chk.expect(key in maps_raw, "maps", f"missing map {key!r}")
        islands[key] = _island(chk, key, maps_raw[key], codes)
        chk.field(target, key, int, "solo.target")
    return Tables(
        islands=islands,
        deck=tuple(deck),
        setup_cards=tuple(cards),
        blue=tuple(blue),
        red=tuple(red),
        solo_discards=discards,
        solo_target={k: int(target[k]) for k in MAP_EXPECT},
        sight_names=tuple(sight_names),
        sight_codes=tuple(sight_codes),
        terrain_codes=tuple(tcodes),
    )


TABLES = load_tables()
