"""The observation encoding (SPEC.md, Observation): ``OBS_SIZE`` floats of what one player
sees, handed out in sparse form (``State.observation_sparse``) as one whole run: no
separate ones, every value from index 0 in order (``at`` is the core's shared
``index_run(0, OBS_SIZE)``), so the core's dense list and the environments' float32 array
are each made from it in one pass.

Speed: each observer's whole observation is kept between calls
(:class:`Seen`, in ``state.obs_seen[player]``, made on its first call) with a copy of
every field of the state it was made from, and a call brings it up to date from the state
as it is now, setting only the values whose inputs differ (docs/ARCHITECTURE.md, the rules
every kept part follows):

- the one-hots (each seat slot's card in the trick and ship cell, the round, hand, leader
  and lead) clear the cell they had set and set the new one; the phase, current player and
  heading follow the top step, the monsters and the event follow ``mod`` (both immutable,
  kept as they are and compared by identity);
- the card masks (hand, cards out of play) set the bits that differ, or the whole block
  from per-byte tables when many differ (a new deal);
- the runs of values (the map, goods, orders, holds in seat-slot order, delivered gold,
  sightings bonus, hold limit and bag) are copied in whole from small caches keyed by
  their counts, when the state's list differs from the copy kept. The goods and the
  holds change in most steps of sailing, in counts seldom seen before, so their runs are
  made once per change for every observer (:class:`Table`, ``state.obs_table``, with its
  own copies of the counts) and each observer copies a run in when it is not the very
  (immutable) run it copied last.

A list of the state is compared with its copy in C (``trick != kept``), ints and immutable
tuples as they are, so a clone, a copy from JSON, a redeterminized copy or a state changed
by hand never gets a stale value. The kept observation belongs to one state: ``clone``,
pickling and ``to_json`` leave ``obs_seen`` and ``obs_table`` out, and the apply path does
nothing for them, so a state nobody observes pays nothing. A copy of the kept values is
handed out (a later call never changes what a caller holds). :func:`encode_sparse` makes
the observation from nothing (a fresh :class:`Seen` and :class:`Table`): the tests compare
the kept one with it and with the plain SPEC.md encoder. Every value is the float the
plain formula in SPEC.md gives (``k / 10.0`` for a count ``k`` ...).
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol, cast

from cove.core.decisions import Step
from cove.core.state import SparseObservation, index_run
from cove.games.tricky_tides.constants import (
    HANDS,
    ISLAND_GOODS,
    ORDER_GOLD,
    ROUNDS,
    SEATS,
    G,
)
from cove.games.tricky_tides.data import DATA, NAV_CARDS
from cove.games.tricky_tides.decision_stack import K_SEA, OVER, PHASE_NAMES, PHASE_OF
from cove.games.tricky_tides.geometry import CELLS
from cove.games.tricky_tides.module_state import Modules

if TYPE_CHECKING:
    from cove.games.tricky_tides.state import TidesState

OBS_SIZE = (2 * 32 + SEATS * 32 + SEATS * 12 + 12 + 12 + 12 * 5 + 12 * 10 + SEATS * 5
            + SEATS * (1 + 4 + 2) + 4 + ROUNDS + HANDS + len(PHASE_NAMES) + 3 * SEATS + 8
            + 1 + 5 + 4 * 12 + 12 + SEATS)
"""The length of ``observation(p)`` at every player count (see SPEC.md)."""

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


WHOLE = index_run(0, OBS_SIZE)
"""Every index in order: the ``at`` of every observation (shared, never changed)."""
_NO_ONES: tuple[int, ...] = ()
_PHASE_OF_KIND = {kind: PHASE + phase for kind, phase in PHASE_OF.items()}
_TENTHS = tuple(k / 10.0 for k in range(256))
_BITS8 = tuple(array("d", [float(b >> i & 1) for i in range(8)]) for b in range(256))
"""Per byte: its eight bits, lowest first, as floats."""
_BITS4 = tuple(b[:4] for b in _BITS8[:16])
MANY_BITS = 4
"""A card mask that differs from the kept one in more bits than this is set whole."""
_SIGHT = tuple(array("d", [b / 3.0 for b in sc.bonus]) for sc in DATA.sightings)


class _Cells(Protocol):
    """A memoryview of an ``array("d")``: its items are floats (typeshed types a
    memoryview's items as ints, those of bytes)."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


@lru_cache(maxsize=512)
def _map_values(layout: tuple[int, ...], sea: tuple[bool, ...]) -> array[float]:
    """Open sea per cell, then each cell's island goods number / 5 (fixed all game)."""
    return array("d", [float(x) for x in sea]
                 + [ISLAND_GOODS[layout[c]] / 5.0 for c in range(CELLS)])


@lru_cache(maxsize=8192)
def _tenths_of(counts: bytes) -> array[float]:
    """Each count / 10 (goods on the islands, the holds in seat-slot order). Keyed by the
    counts as bytes (built and hashed in C)."""
    tenths = _TENTHS
    return array("d", [tenths[k] for k in counts])


@lru_cache(maxsize=1024)
def _orders_values(orders: tuple[int, ...]) -> array[float]:
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
    return array("d", out)


@lru_cache(maxsize=1024)
def _won_values(won: tuple[int, ...]) -> array[float]:
    """A seat's delivered gold / 40 and number of orders / 10."""
    return array("d", [sum(ORDER_GOLD[o] for o in won) / 40.0, len(won) / 10.0])


@lru_cache(maxsize=1024)
def _bag_values(bag: bytes, hold_limit: int) -> array[float]:
    """The hold limit / 10 and the cubes in the bag per type / 20."""
    return array("d", [hold_limit / 10.0] + [k / 20.0 for k in bag])


def _step_cells(top: Step | None, player: int, n: int) -> tuple[int, ...]:
    """The cells the top step sets: its phase, the current player's seat slot (from
    ``player``'s) and the heading on open sea."""
    if top is None:
        return (PHASE + OVER,)
    out = [_PHASE_OF_KIND[top.kind]]
    if top.players and top.players[0] >= 0:
        out.append(CUR + (top.players[0] - player) % n)
    if top.kind == K_SEA and top.data[0] >= 0:
        out.append(HEADING + top.data[0])
    return tuple(out)


def _mod_cells(mod: Modules) -> tuple[int, ...]:
    """The cells the modules set: each monster's cell and the face-up event."""
    out = [MONSTERS + CELLS * i + c for i, c in enumerate(mod.mpos) if c >= 0]
    if mod.event >= 0:
        out.append(EVENT + mod.event)
    return tuple(out)


class Table:
    """The runs of values every observer of a state shares, kept between calls
    (``state.obs_table``): the goods per cell and type, and the holds per seat and type,
    each / 10 (``goods_run``, ``hold_run``: immutable, from ``_tenths_of``), with a copy of
    the state's counts each was made from (``goods``, ``hold``). A change of the counts
    makes the run once for every observer; the counts change in most steps of sailing,
    and a new run is mostly one not seen before."""

    __slots__ = ("goods", "goods_run", "hold", "hold_run")

    def __init__(self) -> None:
        self.goods: list[int] = [-1]  # not made: no real counts are [-1]
        self.hold: list[int] = [-1]
        self.goods_run = self.hold_run = array("d")

    def set_goods(self, goods: list[int]) -> None:
        self.goods_run = _tenths_of(bytes(goods))
        self.goods = goods[:]

    def set_hold(self, hold: list[int]) -> None:
        self.hold_run = _tenths_of(bytes(hold))
        self.hold = hold[:]


class Seen:
    """One observer's whole observation, kept between calls (``state.obs_seen[player]``):
    ``values`` as last brought up to date (``cells``: a memoryview of it, for setting
    single values; a copy is handed out, never this array) and a copy of each field of the
    state it shows, as it was then (see the module's docstring). ``seats`` are the seats
    from the observer's on, in slot order. Each state has its own (a clone starts without
    any), so one state's moves never reach another's."""

    __slots__ = ("anchors", "bag", "cells", "goods", "hand", "hand_no", "hold", "layout",
                 "lead", "leader", "limit", "mod", "mod_at", "n", "orders", "played",
                 "player", "pos", "round", "sea", "seats", "sight", "step_at", "top",
                 "trick", "values", "voids", "won")

    def __init__(self, player: int, n: int) -> None:
        self.player, self.n = player, n
        self.seats = tuple(enumerate((player + i) % n for i in range(n)))
        self.values = array("d", bytes(8 * OBS_SIZE))  # all 0.0
        # single values are set through a view of the same memory: an array's own item
        # assignment parses each float with a format string, a memoryview's does not
        cells = self.cells = cast(_Cells, memoryview(self.values))
        for i in range(n):
            cells[IN_GAME + i] = 1.0
        # the copies of an empty table: what the zeros show
        self.hand = self.played = self.anchors = self.voids = 0
        self.trick = [-1] * n
        self.pos = [-1] * n
        self.won: list[tuple[int, ...]] = [()] * n
        self.round = self.hand_no = self.leader = self.lead = -1
        self.step_at: tuple[int, ...] = ()
        self.mod_at: tuple[int, ...] = ()
        # not set yet: made on the first call
        self.sight = self.limit = -1
        self.layout: tuple[int, ...] = ()  # the copies below: not made yet, each a
        # value of its own type no state holds (a compiled attribute holds only its type)
        self.sea: tuple[bool, ...] = ()
        self.goods: array[float] = array("d", [-1.0])
        self.orders: list[int] = [-1]
        self.hold: array[float] = array("d", [-1.0])
        self.bag: list[int] = [-1]
        self.top: Step | None = Step("(not made)")  # compared by identity
        self.mod: Modules = Modules(event=-2)  # compared by identity

    def observe(self, s: TidesState, table: Table) -> SparseObservation:
        """The observation of ``s`` by this observer as one whole run, brought up to date
        first where the state differs from the copies kept (``table``: the state's
        shared runs)."""
        cells, values = self.cells, self.values
        player = self.player
        m = s.hands[player]
        if m != self.hand:
            self.set_mask(HAND, self.hand, m)
            self.hand = m
        m = s.played
        if m != self.played:
            self.set_mask(PLAYED, self.played, m)
            self.played = m
        now = s.trick
        if now != self.trick:
            self.set_slots(TRICK, NAV_CARDS, self.trick, now)
            self.trick = now[:]
        now = s.pos
        if now != self.pos:
            self.set_slots(POS, CELLS, self.pos, now)
            self.pos = now[:]
        if s.layout is not self.layout or s.sea is not self.sea:
            values[SEA:GOODS] = _map_values(s.layout, s.sea)
            self.layout, self.sea = s.layout, s.sea
        # goods and holds: the runs every observer shares (``table``), made once per
        # change of the state's counts; a run is immutable, so the one copied in last is
        # compared by identity
        now = s.goods
        if now != table.goods:
            table.set_goods(now)
        run = table.goods_run
        if run is not self.goods:
            values[GOODS:ORDERS] = run
            self.goods = run
        now = s.orders_on
        if now != self.orders:
            values[ORDERS:HOLD] = _orders_values(tuple(now))
            self.orders = now[:]
        now = s.hold
        if now != table.hold:
            table.set_hold(now)
        run = table.hold_run
        if run is not self.hold:
            b = player * G
            end = HOLD + len(run)
            values[HOLD:end - b] = run[b:]     # seat-slot order: the observer's first
            if b:  # (an empty slice assignment counts as a resize: refused while viewed)
                values[end - b:end] = run[:b]
            self.hold = run
        x = s.anchors
        if x != self.anchors:
            for i, q in self.seats:
                cells[ANCHOR + i] = float(x >> q & 1)
            self.anchors = x
        x = s.voids
        if x != self.voids:
            for i, q in self.seats:
                values[VOIDS + 4 * i:VOIDS + 4 * i + 4] = _BITS4[x >> (q * 4) & 15]
            self.voids = x
        won = s.won
        if won != self.won:
            for i, q in self.seats:
                values[WON + 2 * i:WON + 2 * i + 2] = _won_values(won[q])
            self.won = won[:]
        x = s.sight[player]
        if x != self.sight:
            values[SIGHT:ROUND] = _SIGHT[x]
            self.sight = x
        x = s.round
        if x != self.round:
            self.move(ROUND, ROUNDS, self.round, x)
            self.round = x
        x = s.hand_no
        if x != self.hand_no:
            self.move(HAND_NO, HANDS, self.hand_no, x)
            self.hand_no = x
        steps = s._steps
        top = steps[-1] if steps else None
        if top is not self.top:
            for c in self.step_at:
                cells[c] = 0.0
            self.step_at = _step_cells(top, player, self.n)
            for c in self.step_at:
                cells[c] = 1.0
            self.top = top
        x = s.leader
        if x != self.leader:
            self.move(LEADER, SEATS, self.slot(self.leader), self.slot(x))
            self.leader = x
        x = s.lead
        if x != self.lead:
            self.move(LEAD, SEATS, self.slot(self.lead), self.slot(x))
            self.lead = x
        if s.bag != self.bag or s.hold_limit != self.limit:
            values[HOLD_LIMIT:MONSTERS] = _bag_values(bytes(s.bag), s.hold_limit)
            self.bag, self.limit = s.bag[:], s.hold_limit
        mod = s.mod
        if mod is not self.mod:
            for c in self.mod_at:
                cells[c] = 0.0
            self.mod_at = _mod_cells(mod)
            for c in self.mod_at:
                cells[c] = 1.0
            self.mod = mod
        return _NO_ONES, WHOLE, values[:]

    def slot(self, seat: int) -> int:
        """The seat slot of ``seat`` (-1: none)."""
        return (seat - self.player) % self.n if seat >= 0 else -1

    def move(self, base: int, size: int, was: int, now: int) -> None:
        """A one-hot of ``size`` cells from ``base`` moves from ``was`` to ``now`` (either
        outside ``0 .. size-1``: no cell)."""
        cells = self.cells
        if 0 <= was < size:
            cells[base + was] = 0.0
        if 0 <= now < size:
            cells[base + now] = 1.0

    def set_slots(self, base: int, size: int, was: list[int], now: list[int]) -> None:
        """Each seat slot's one-hot of ``size`` cells (slot i from ``base + size * i``):
        seat q's moves from ``was[q]`` to ``now[q]`` (-1: none)."""
        cells = self.cells
        for i, q in self.seats:
            c, d = was[q], now[q]
            if c != d:
                if c >= 0:
                    cells[base + size * i + c] = 0.0
                if d >= 0:
                    cells[base + size * i + d] = 1.0

    def set_mask(self, base: int, was: int, now: int) -> None:
        """The 32 bits of a card mask from ``base``: the bits that differ from ``was`` one
        by one, or all of them from per-byte tables when many differ."""
        diff = was ^ now
        if diff.bit_count() > MANY_BITS:
            bits = _BITS8
            self.values[base:base + NAV_CARDS] = (
                bits[now & 255] + bits[now >> 8 & 255] + bits[now >> 16 & 255]
                + bits[now >> 24])
            return
        cells = self.cells
        while diff:
            low = diff & -diff
            cells[base + low.bit_length() - 1] = 1.0 if now & low else 0.0
            diff ^= low


def observation_sparse(s: TidesState, player: int) -> SparseObservation:
    """``player``'s observation of ``s`` (layout: SPEC.md) as one whole run, from the
    observation kept for ``player`` (made on the first call)."""
    seen = s.obs_seen
    if seen is None:
        seen = s.obs_seen = [None] * s.n
        s.obs_table = Table()
    view = seen[player]
    if view is None:
        view = seen[player] = Seen(player, s.n)
    table = s.obs_table
    assert table is not None  # made with obs_seen
    return view.observe(s, table)


def encode_sparse(s: TidesState, player: int) -> SparseObservation:
    """``player``'s observation of ``s`` made from nothing (a fresh :class:`Seen` and
    :class:`Table`, kept by nobody): what the tests compare the kept observation with."""
    return Seen(player, s.n).observe(s, Table())


__all__ = ["OBS_SIZE", "WHOLE", "Seen", "SparseObservation", "Table", "encode_sparse",
           "observation_sparse"]
