"""The observation encoding (SPEC.md, Observation): ``OBS_SIZE`` floats of what one player
sees, built from precomputed float tuples.

Every part of the layout is a tuple looked up by a small int (a one-hot by its index, the
bits of a card mask by the mask's bytes, a scaled count by the count, an order's ten floats
by the order) and appended with ``list +=``, so no float is computed per call; the part that
is fixed for a whole game (open sea and island goods numbers per cell) is cached by the map.
Each table holds exactly the floats the plain formula in SPEC.md gives (``k / 10.0`` for a
count ``k`` ...), so the encoding is the same value for value; the tests compare it with
the plain one over thousands of states.
"""

from __future__ import annotations

from functools import lru_cache

from cove.games.tricky_tides.data import CUBES, DATA, NAV_CARDS
from cove.games.tricky_tides.geometry import CELLS
from cove.games.tricky_tides.table import (
    HANDS,
    ISLAND_GOODS,
    K_SEA,
    ORDER_GOLD,
    OVER,
    PHASE_NAMES,
    PHASE_OF,
    ROUNDS,
    SEATS,
    G,
    TidesTable,
)

Floats = tuple[float, ...]


def one_hots(k: int) -> tuple[Floats, ...]:
    """``one_hots(k)[i + 1]``: ``k`` floats with 1.0 at ``i`` (all zeros for ``i = -1``)."""
    return tuple(tuple(1.0 if j == i else 0.0 for j in range(k)) for i in range(-1, k))


def scaled(top: int, by: float) -> Floats:
    """``scaled(top, by)[k] == k / by`` for ``0 <= k <= top``."""
    return tuple(k / by for k in range(top + 1))


_BYTE = tuple(tuple(float(b >> i & 1) for i in range(8)) for b in range(256))
"""The 8 bits of a byte as floats, lowest first."""
_NIBBLE = tuple(tuple(float(b >> i & 1) for i in range(4)) for b in range(16))
_CARD = one_hots(NAV_CARDS)
_CELL = one_hots(CELLS)
_SLOT = one_hots(SEATS)
_HEADING = one_hots(8)
_ROUND_HAND = tuple(tuple(_r + _h for _h in one_hots(HANDS)) for _r in one_hots(ROUNDS))
"""``_ROUND_HAND[round + 1][hand + 1]``: the round and hand one-hots together."""
_PHASE = one_hots(len(PHASE_NAMES))
_EVENT = one_hots(len(DATA.events))
_TENTHS = scaled(CUBES, 10.0)          # cube counts and hold limits (at most 20) / 10
_TWENTIETHS = scaled(CUBES, 20.0)
_ZERO = (0.0,)
_ZEROS = {k: (0.0,) * k for k in (2, 4, 5, 10, CELLS, NAV_CARDS)}
_NO_MONSTERS = _CELL[0] * 4
_ORDER = (_ZEROS[10], *(tuple(k / 5.0 for k in o.need) + (o.gold / 10.0,) + _SLOT[o.monster + 1]
                        for o in DATA.orders))
"""``_ORDER[o + 1]``: order ``o``'s ten floats (needs / 5, gold / 10, monster one-hot)."""
_SIGHT = tuple(tuple(b / 3.0 for b in sc.bonus) for sc in DATA.sightings)
_IN_GAME = tuple((1.0,) * n + (0.0,) * (SEATS - n) for n in range(SEATS + 1))
assert len(_ORDER[1]) == 10 and len(_ROUND_HAND[1][1]) == ROUNDS + HANDS


@lru_cache(maxsize=512)
def _map_part(layout: tuple[int, ...], sea: tuple[bool, ...]) -> Floats:
    """Open sea per cell, then each cell's island goods number / 5 (fixed all game)."""
    return (tuple(float(x) for x in sea)
            + tuple(ISLAND_GOODS[layout[c]] / 5.0 for c in range(CELLS)))


@lru_cache(maxsize=4096)
def _tenths_of(counts: bytes) -> Floats:
    """Each count / 10 (goods on the islands, the holds in seat-slot order). Keyed by the
    counts as bytes: built and hashed in C, and the counts change only on a few moves."""
    tenths = _TENTHS
    return tuple([tenths[k] for k in counts])


@lru_cache(maxsize=1024)
def _orders_part(orders: tuple[int, ...]) -> Floats:
    """Each cell's order as ten floats (zeros without one)."""
    out: list[float] = []
    for o in orders:
        out += _ORDER[o + 1]
    return tuple(out)


@lru_cache(maxsize=1024)
def _won_part(won: tuple[int, ...]) -> Floats:
    """A seat's delivered gold / 40 and number of orders / 10."""
    return (sum(ORDER_GOLD[o] for o in won) / 40.0, len(won) / 10.0)


def encode(s: TidesTable, player: int) -> list[float]:
    """``player``'s observation of ``s`` (the layout is in SPEC.md)."""
    n = s.n
    seats = [(player + i) % n for i in range(n)]
    pad = SEATS - n
    byte = _BYTE
    out: list[float] = []
    for m in (s.hands[player], s.played):
        out += byte[m & 255]
        out += byte[m >> 8 & 255]
        out += byte[m >> 16 & 255]
        out += byte[m >> 24]
    trick = s.trick
    for q in seats:
        out += _CARD[trick[q] + 1]
    out += _ZEROS[NAV_CARDS] * pad
    pos = s.pos
    for q in seats:
        out += _CELL[pos[q] + 1]
    out += _ZEROS[CELLS] * pad
    out += _map_part(s.layout, s.sea)
    out += _tenths_of(bytes(s.goods))
    out += _orders_part(tuple(s.orders_on))
    hold = s.hold
    b = player * G
    out += _tenths_of(bytes(hold[b:] + hold[:b]))     # seat-slot order
    out += _ZEROS[5] * pad
    anchors = s.anchors
    for q in seats:
        out.append(1.0 if anchors >> q & 1 else 0.0)
    out += _ZERO * pad
    voids = s.voids
    for q in seats:
        out += _NIBBLE[voids >> (q * 4) & 15]
    out += _ZEROS[4] * pad
    won = s.won
    for q in seats:
        out += _won_part(won[q])
    out += _ZEROS[2] * pad
    out += _SIGHT[s.sight[player]]
    out += _ROUND_HAND[s.round + 1 if s.round < ROUNDS else 0][s.hand_no + 1]
    steps = s._steps
    top = steps[-1] if steps else None
    if top is None:
        out += _PHASE[OVER + 1]
        out += _SLOT[0]
    else:
        out += _PHASE[PHASE_OF[top.kind] + 1]
        cur = top.players[0] if top.players else -1
        out += _SLOT[(cur - player) % n + 1 if cur >= 0 else 0]
    out += _SLOT[(s.leader - player) % n + 1]
    out += _SLOT[(s.lead - player) % n + 1]
    out += _HEADING[top.data[0] + 1 if top is not None and top.kind == K_SEA else 0]
    out.append(_TENTHS[s.hold_limit])
    twentieths = _TWENTIETHS
    out += [twentieths[k] for k in s.bag]
    mod = s.mod
    if mod.mpos:
        for c in mod.mpos:
            out += _CELL[c + 1]
    else:
        out += _NO_MONSTERS
    out += _EVENT[mod.event + 1]
    out += _IN_GAME[n]
    return out

