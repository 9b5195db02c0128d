"""The research encoding of a seat's view (SPEC.md, Observation): the cards, the round,
the bonus cards, then every sheet's segments and score as the observer sees them.

Each observer's whole observation is kept between calls (``_Seen``, in the state's
``obs_seen``) and brought up to date from the state on each call; what changes only from
one turn to the next is kept in the state's ``obs_cache`` until the next flip.
``TucanaState._observation_sparse`` is ``observation_sparse`` itself (no extra call).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import product
from operator import add
from struct import Struct
from typing import TYPE_CHECKING, Protocol, cast

from cove.core.options import Options
from cove.core.state import SparseObservation, index_run
from cove.games.trails_of_tucana.data import (
    CARD_NAMES,
    KINDS,
    LETTERS,
    TABLES,
    TURNS_PER_ROUND,
    Island,
)
from cove.games.trails_of_tucana.options import TucanaOptions

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState

OBS_HEAD = 24
"""Observation values before the sheets: 5 cards, 5 seen, 4 turn, 5 blue, 5 red."""
_NO_ONES: tuple[int, ...] = ()
"""The observation's ``ones``: its every value goes by index, in runs."""


# encoding tables for the observation's head (see head_parts): each part's values as the
# bytes of an ``array("d")``, so the head is one array made from their joined bytes
def _packed(values: Sequence[float]) -> bytes:
    return array("d", values).tobytes()


CARDS_HOT: dict[tuple[int, int] | None, bytes] = {
    (c1, c2): _packed([float((c1 == c) + (c2 == c)) for c in range(len(CARD_NAMES))])
    for c1 in range(len(CARD_NAMES)) for c2 in range(len(CARD_NAMES))
}
CARDS_HOT[None] = _packed([0.0] * len(CARD_NAMES))
SEEN_PACK = Struct(f"{len(CARD_NAMES)}d")
NOT_SEEN = SEEN_PACK.pack(*[0.0] * len(CARD_NAMES))
TURN_HOT: dict[tuple[int, int, int], bytes] = {
    (rounds, rnd, turn): _packed([rnd / rounds, turn / TURNS_PER_ROUND, 0.0, 0.0])
    for rounds in {isl.rounds for isl in TABLES.islands.values()}
    for rnd in range(rounds + 1) for turn in range(TURNS_PER_ROUND + 1)
}
"""Per (rounds, round, turn): rounds finished / rounds, the turn / 13, then 0 for the
bonus step and the bonus segments owed (set per call)."""
BLUE_HOT: dict[tuple[int, ...], bytes] = {
    lens: _packed([n / 2 for n in lens]) for lens in product(range(3), repeat=LETTERS)
}
"""Per number of blue cards left on each letter's stack: the numbers / 2."""
RED_HOT: dict[tuple[int, ...], bytes] = {
    reds: _packed([float(k in reds) for k in range(KINDS)])
    for reds in ((), *((k,) for k in range(KINDS)),
                 *((k1, k2) for k1 in range(KINDS) for k2 in range(k1 + 1, KINDS)))
}


BITS8 = tuple(tuple(float(b >> j & 1) for j in range(8)) for b in range(256))
"""Per byte: its eight bits, lowest first, as floats."""


ROTATIONS = tuple(tuple((*range(p, n), *range(p)) for p in range(n)) for n in range(9))
"""Per number of players and seat p: the seats from p on (p, p+1, ... wrapping)."""

REDRAW_BITS = 8
"""A sheet slot whose segments differ in more than this many edges from what it showed is
copied whole from a kept row (``_Seen.redraw``), else set edge by edge."""

SEGMENT_ROWS = 1024
"""How many encoded sheets ``Island.segment_rows`` keeps (a few hundred shared floats
each: a couple of megabytes at most)."""


def _segment_row(isl: Island, drawn: int) -> array[float]:
    """One float per edge, 1.0 where ``drawn`` has a segment: copied whole into a kept
    observation's sheet slot when it differs from the sheet there in many edges (a
    state's, a clone's or a copy's first observation; a sheet put back), since one copy
    costs less than setting the edges one by one (``_Seen.redraw``). The clones and
    copies a search makes of one state show the same sheets, so rows are kept in the
    island's ``segment_rows``, emptied when full."""
    out: list[float] = []
    edges = len(isl.edges)
    for byte in drawn.to_bytes((edges + 7) // 8, "little"):
        out += BITS8[byte]
    row = array("d", out[:edges])
    rows = isl.segment_rows
    if len(rows) >= SEGMENT_ROWS:
        rows.clear()
    rows[drawn] = row
    return row



class _Cells(Protocol):
    """A memoryview of an ``array("d")``: its items are floats (typeshed types a
    memoryview's items as ints, those of bytes)."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


class _Seen:
    """One observer's whole observation, kept between calls (``TucanaState.obs_seen``):
    ``values`` as last handed out (a copy is handed out, never this array; ``cells`` is a
    memoryview of it, for setting single values), ``head`` the ``obs_cache`` head its
    first 24 values came from, ``shown`` the segments (a bitmask) its slot of each seat
    holds. Where each seat's segments and score go is fixed per observer: ``offset[q]``
    is where seat ``q``'s segments start, ``own`` and ``own_score`` where the observer's
    own segments and score are, ``others`` the other seats with where their segments and
    scores are, in the observation's order. Each state has its own (a clone starts
    without), so one state's moves never reach another's kept values."""

    __slots__ = ("at", "cells", "edges", "head", "isl", "offset", "others", "own",
                 "own_score", "shown", "values")

    def __init__(self, state: TucanaState, player: int) -> None:
        isl = self.isl = state.isl
        edges = self.edges = len(isl.edges)
        n = state.n
        size = OBS_HEAD + n * (edges + 1)
        self.at = index_run(0, size)  # all of it, shared
        self.values = array("d", bytes(8 * size))  # all 0.0
        # one value at a time is set through a view of the same memory: an array's own
        # item assignment parses each float with a format string, a memoryview's does not
        self.cells = cast(_Cells, memoryview(self.values))
        self.head: array[float] | None = None
        self.shown = [0] * n
        offset = [0] * n
        for slot, q in enumerate(ROTATIONS[n][player]):
            offset[q] = OBS_HEAD + slot * (edges + 1)
        self.offset = offset
        self.own = offset[player]
        self.own_score = offset[player] + edges
        self.others = tuple((q, offset[q], offset[q] + edges) for q in ROTATIONS[n][player][1:])

    def redraw(self, q: int, drawn: int) -> None:
        """Seat ``q``'s slot shows the segments ``drawn``: set the values that differ from
        what it showed, one by one when they are few (a move draws one segment), else
        from a kept row (a new observer, a clone's first call, a sheet put back)."""
        cells = self.cells
        off = self.offset[q]
        diff = drawn ^ self.shown[q]
        self.shown[q] = drawn
        if not diff & (diff - 1):  # one segment: the common case
            cells[off + diff.bit_length() - 1] = 1.0 if drawn & diff else 0.0
        elif diff.bit_count() <= REDRAW_BITS:
            while diff:
                low = diff & -diff
                cells[off + low.bit_length() - 1] = 1.0 if drawn & low else 0.0
                diff ^= low
        else:
            isl = self.isl
            row = isl.segment_rows.get(drawn)
            self.values[off : off + self.edges] = _segment_row(isl, drawn) if row is None else row


def observation_sparse(state: TucanaState, player: int) -> SparseObservation:
    """See SPEC.md: the cards, the round, the bonus cards, then every sheet's segments
    and score as ``player`` sees them (the others' as at the start of the step), in
    sparse form (the core makes the dense list from it): every value as one run from
    index 0 (the 24 head values, then each sheet's segments and score), handed back as
    a copy of ``player``'s kept observation.

    Each observer's observation is kept whole in ``obs_seen`` (a ``_Seen``, made on
    the first call) with the segments each sheet slot shows; a call brings it up to
    date from the state as it is now: the 24 head values are copied in when the
    turn-long ``obs_cache`` is new, a slot's segments only where the sheet it shows
    differs from the one encoded (by the differing bits, or a kept row when many
    differ), and the bonus step, the bonus owed and every score are set each time.
    Nothing in the apply path keeps it: a state nobody observes pays nothing, and
    what is compared is the state itself, so a change by hand is caught like a move.
    What changes only from one turn to the next (the cards, round, turn and bonus
    cards, and every seat's boxed and bonus-card points) is kept in ``obs_cache``
    until the next flip, as before."""
    cache = state.obs_cache
    if cache is None:
        cache = state.obs_cache = head_parts(state)
    head, fixed = cache
    seen = state.obs_seen
    if seen is None:
        seen = state.obs_seen = [None] * state.n
    view = seen[player]
    if view is None:
        view = seen[player] = _Seen(state, player)
    values = view.values
    cells = view.cells
    if view.head is not head:
        values[:OBS_HEAD] = head
        view.head = head
    steps = state._steps
    cells[12] = 1.0 if steps and steps[-1].data[0] else 0.0
    cells[13] = state.bonus[player] / KINDS
    isl = state.isl
    pair_points = isl.pair_points
    sight_points = isl.sight_points
    over = state.over
    shown = view.shown
    drawn_now = state.drawn
    circled_now = state.circled
    pairs_now = state.pairs
    # the observer's own sheet as it is, then the others' (the snapshot while one is
    # kept: the sheet as at the start of the step); a sheet that differs from its
    # slot in one segment (a move) is set here, in more by ``redraw``
    drawn = drawn_now[player]
    was = shown[player]
    if drawn != was:
        diff = drawn ^ was
        if diff & (diff - 1):
            view.redraw(player, drawn)
        else:
            cells[view.own + diff.bit_length() - 1] = 1.0 if drawn & diff else 0.0
            shown[player] = drawn
    score = fixed[player] + pair_points[pairs_now[player]]
    cells[view.own_score] = (
        score if over else score + sight_points[circled_now[player]]) / 100
    snaps = state.snap
    for q, off, end in view.others:
        snap = snaps[q]
        if snap is None:
            drawn, circled, pairs = drawn_now[q], circled_now[q], pairs_now[q]
        else:
            drawn, circled, _, pairs, _, _ = snap
        was = shown[q]
        if drawn != was:
            diff = drawn ^ was
            if diff & (diff - 1):
                view.redraw(q, drawn)
            else:
                cells[off + diff.bit_length() - 1] = 1.0 if drawn & diff else 0.0
                shown[q] = drawn
        score = fixed[q] + pair_points[pairs]
        cells[end] = (score if over else score + sight_points[circled]) / 100
    return _NO_ONES, view.at, values[:]


def head_parts(state: TucanaState) -> tuple[array[float], tuple[int, ...]]:
    """The observation's first 24 values with 0 for the bonus step and the bonus
    segments owed (filled in per call), and every seat's boxed and bonus-card points.
    Made once a turn, so written for few steps: the head from the bytes of its parts
    (building an ``array`` from floats parses each one), most of them from tables,
    the points of the seats added up seat by seat in C (``map``), one round at a
    time."""
    isl = state.isl
    if state.opts.hide_earlier_cards:
        seen = NOT_SEEN
    else:
        count = state.seen.count
        seen = SEEN_PACK.pack(count(0) / 8, count(1) / 8, count(2) / 8, count(3) / 8,
                              count(4) / 8)
    turn = TURN_HOT.get((isl.rounds, state.rnd, state.turn))
    if turn is None:  # not a turn of play (a state changed by hand)
        turn = _packed([state.rnd / isl.rounds, state.turn / TURNS_PER_ROUND, 0.0, 0.0])
    b0, b1, b2, b3, b4 = state.blue
    lens = (len(b0), len(b1), len(b2), len(b3), len(b4))
    blue = BLUE_HOT.get(lens)
    if blue is None:  # more than two cards on a stack (a state changed by hand)
        blue = _packed([n / 2 for n in lens])
    head = array("d", CARDS_HOT[state.cards] + seen + turn + blue + RED_HOT[tuple(state.red)])
    # every seat's bonus-card points, then its boxes of the rounds played so far (seat
    # q's box of round r is boxes[q * rounds + r]: the slice from r in steps of rounds)
    fixed = map(add, state.blue_pts, state.red_pts)
    boxes = state.boxes
    rounds = isl.rounds
    for r in range(state.rnd):
        fixed = map(add, fixed, boxes[r::rounds])
    return head, tuple(fixed)


def size(players: int, options: Options) -> int:
    """The observation's length: the head, then per seat a value per edge and the score."""
    assert isinstance(options, TucanaOptions)
    return OBS_HEAD + players * (len(TABLES.islands[options.map].edges) + 1)
