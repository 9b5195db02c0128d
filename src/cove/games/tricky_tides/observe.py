"""The observation encoding (SPEC.md, Observation): ``OBS_SIZE`` floats of what one player
sees, built in sparse form (``State.observation_sparse``: the indices that hold 1.0, and
the other nonzero values by index); the dense list is made from it by the core.

Each part of the layout starts at a fixed offset (the layout is padded to ``SEATS`` seat
slots at every player count). A one-hot is one index, the bits of a card mask come from
per-byte tables of indices; the fixed map and the orders are kept per value by small
caches as ready (indices, values) arrays, and the scaled counts (goods, holds, the bag) as
whole runs of values (zeros too: a run placed with ``index_run`` costs no test per value).
Every value is the float the plain formula in SPEC.md gives (``k / 10.0`` for a count
``k`` ...); the tests compare the dense form with the plain encoder over thousands of
states.
"""

from __future__ import annotations

from array import array
from functools import lru_cache

from cove.core.state import SparseObservation, index_run
from cove.games.tricky_tides.data import DATA, NAV_CARDS
from cove.games.tricky_tides.geometry import CELLS
from cove.games.tricky_tides.table import (
    HANDS,
    ISLAND_GOODS,
    K_SEA,
    OBS_SIZE,
    ORDER_GOLD,
    OVER,
    PHASE_NAMES,
    PHASE_OF,
    ROUNDS,
    SEATS,
    G,
    TidesTable,
)

Part = tuple["array[int]", "array[float]"]
"""Indices ("q") and their nonzero values ("d"), appended to the result with ``+=``
(a copy of machine words, no Python object per value)."""

# offsets of the layout's parts, in SPEC.md's order
HAND = 0
PLAYED = HAND + NAV_CARDS
TRICK = PLAYED + NAV_CARDS
POS = TRICK + SEATS * NAV_CARDS
SEA = POS + SEATS * CELLS
ISLAND = SEA + CELLS
GOODS = ISLAND + CELLS
ORDERS = GOODS + CELLS * G
HOLD = ORDERS + CELLS * 10
ANCHOR = HOLD + SEATS * G
VOIDS = ANCHOR + SEATS
WON = VOIDS + SEATS * 4
SIGHT = WON + SEATS * 2
ROUND = SIGHT + 4
HAND_NO = ROUND + ROUNDS
PHASE = HAND_NO + HANDS
CUR = PHASE + len(PHASE_NAMES)
LEADER = CUR + SEATS
LEAD = LEADER + SEATS
HEADING = LEAD + SEATS
HOLD_LIMIT = HEADING + 8
BAG = HOLD_LIMIT + 1
MONSTERS = BAG + G
EVENT = MONSTERS + 4 * CELLS
IN_GAME = EVENT + len(DATA.events)
assert IN_GAME + SEATS == OBS_SIZE

_BYTE_AT = tuple(tuple(array("q", [base + 8 * k + i for i in range(8) if b >> i & 1])
                       for b in range(256)) for base in (HAND, PLAYED) for k in range(4))
"""``_BYTE_AT[4 * mask + k][b]``: the indices of the set bits of byte ``k`` (= ``b``) of
the hand (mask 0) or the cards out of play (mask 1)."""
_VOID_AT = tuple(tuple(array("q", [VOIDS + 4 * slot + i for i in range(4) if b >> i & 1])
                       for b in range(16)) for slot in range(SEATS))
_PHASE_OF_KIND = {kind: PHASE + phase for kind, phase in PHASE_OF.items()}
_TENTHS = tuple(k / 10.0 for k in range(256))


def _part(base: int, floats: tuple[float, ...] | list[float]) -> Part:
    """The nonzero entries of ``floats`` placed from ``base``."""
    at = [base + i for i, x in enumerate(floats) if x]
    return array("q", at), array("d", [floats[i - base] for i in at])


@lru_cache(maxsize=512)
def _map_part(layout: tuple[int, ...], sea: tuple[bool, ...]) -> Part:
    """Open sea per cell, then each cell's island goods number / 5 (fixed all game)."""
    return _part(SEA, [float(x) for x in sea]
                 + [ISLAND_GOODS[layout[c]] / 5.0 for c in range(CELLS)])


@lru_cache(maxsize=8192)
def _tenths_of(counts: bytes) -> array[float]:
    """Each count / 10 (goods on the islands, the holds in seat-slot order), zeros too: a
    run of values placed with ``index_run``. Keyed by the counts as bytes (built and
    hashed in C); new games bring new counts, so a third of the look-ups miss, and a miss
    is one pass of table look-ups."""
    tenths = _TENTHS
    return array("d", [tenths[k] for k in counts])


@lru_cache(maxsize=1024)
def _orders_part(orders: tuple[int, ...]) -> Part:
    """Each cell's order as ten floats (zeros without one): needs / 5, gold / 10, the
    monster suit one-hot."""
    out: list[float] = []
    for o in orders:
        if o < 0:
            out += [0.0] * 10
        else:
            od = DATA.orders[o]
            out += [k / 5.0 for k in od.need] + [od.gold / 10.0]
            out += [1.0 if j == od.monster else 0.0 for j in range(4)]
    return _part(ORDERS, out)


@lru_cache(maxsize=1024)
def _won_part(won: tuple[int, ...], slot: int) -> Part:
    """A seat's delivered gold / 40 and number of orders / 10, at seat slot ``slot``."""
    return _part(WON + 2 * slot, [sum(ORDER_GOLD[o] for o in won) / 40.0, len(won) / 10.0])


_SIGHT = tuple(_part(SIGHT, [b / 3.0 for b in sc.bonus]) for sc in DATA.sightings)


@lru_cache(maxsize=1024)
def _bag_part(bag: bytes, hold_limit: int) -> array[float]:
    """The hold limit / 10 and the cubes in the bag per type / 20 (a run of values)."""
    return array("d", [hold_limit / 10.0] + [k / 20.0 for k in bag])


def encode_sparse(s: TidesTable, player: int) -> SparseObservation:
    """``player``'s observation of ``s`` as ``(ones, at, values)`` (layout: SPEC.md)."""
    n = s.n
    seats = [(player + i) % n for i in range(n)]
    ones = array("q")
    byte_at = _BYTE_AT
    k = 0
    for m in (s.hands[player], s.played):
        ones += byte_at[k][m & 255]
        ones += byte_at[k + 1][m >> 8 & 255]
        ones += byte_at[k + 2][m >> 16 & 255]
        ones += byte_at[k + 3][m >> 24]
        k += 4
    trick, pos, anchors, voids = s.trick, s.pos, s.anchors, s.voids
    for i, q in enumerate(seats):
        c = trick[q]
        if c >= 0:
            ones.append(TRICK + NAV_CARDS * i + c)
        c = pos[q]
        if c >= 0:
            ones.append(POS + CELLS * i + c)
        if anchors >> q & 1:
            ones.append(ANCHOR + i)
        ones += _VOID_AT[i][voids >> (q * 4) & 15]
        ones.append(IN_GAME + i)
    at, values = _map_part(s.layout, s.sea)
    at, values = at[:], values[:]
    at += index_run(GOODS, CELLS * G)
    values += _tenths_of(bytes(s.goods))
    part = _orders_part(tuple(s.orders_on))
    at += part[0]
    values += part[1]
    hold = s.hold
    b = player * G
    at += index_run(HOLD, n * G)
    values += _tenths_of(bytes(hold[b:] + hold[:b]))     # seat-slot order
    won = s.won
    for i, q in enumerate(seats):
        if won[q]:
            part = _won_part(won[q], i)
            at += part[0]
            values += part[1]
    part = _SIGHT[s.sight[player]]
    at += part[0]
    values += part[1]
    if 0 <= s.round < ROUNDS:
        ones.append(ROUND + s.round)
    if s.hand_no >= 0:
        ones.append(HAND_NO + s.hand_no)
    steps = s._steps
    top = steps[-1] if steps else None
    if top is None:
        ones.append(PHASE + OVER)
    else:
        ones.append(_PHASE_OF_KIND[top.kind])
        if top.players and top.players[0] >= 0:
            ones.append(CUR + (top.players[0] - player) % n)
        if top.kind == K_SEA and top.data[0] >= 0:
            ones.append(HEADING + top.data[0])
    ones.append(LEADER + (s.leader - player) % n)
    ones.append(LEAD + (s.lead - player) % n)
    at += index_run(HOLD_LIMIT, 1 + G)
    values += _bag_part(bytes(s.bag), s.hold_limit)
    for i, c in enumerate(s.mod.mpos):
        if c >= 0:
            ones.append(MONSTERS + CELLS * i + c)
    if s.mod.event >= 0:
        ones.append(EVENT + s.mod.event)
    return ones, at, values


__all__ = ["OBS_SIZE", "SparseObservation", "encode_sparse"]
