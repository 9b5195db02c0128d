"""The Tide's observation (SPEC.md, Observation): the research encoding of a seat's view,
built in sparse form by :func:`observation_sparse` (``TideState._observation_sparse``).

Parts of it change seldom and are kept while their inputs are unchanged. Most steps move a
friend and nothing else: the beach and the piles change only when a tile is collected or
returned (one step in ten in random play), the seats' counts about as seldom. So each call
builds only the friends and the few one-hots and scales of the moment, and takes the rest
from two kept parts:

- :class:`Board`: the beach's and the piles' ones and the piles' heights;
- :class:`Seats`: every seat's counts and the removed tiles as values, in absolute seat
  order, and turned to each observer's relative order when first asked.

A part keeps private copies of what it was made from and is reused only while the state's
lists compare equal to them (one comparison of lists in C each, no key to build), so a part
can never go stale: not when a state is changed by hand, nor when a clone that shares it
(``clone`` copies the reference) moves on; the clone makes a part of its own. Nothing in a
part changes after it is made except ``Seats.turned``, filled in once per seat, which
depends only on the copies.
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import TYPE_CHECKING

from cove.core.state import SparseObservation
from cove.games.the_tide.beach import COLS, SQUARES
from cove.games.the_tide.data import DATA
from cove.games.the_tide.rules import PHASE_INDEX, PLACE, RETURN, PendingReturn

if TYPE_CHECKING:
    from cove.games.the_tide.state import TideState

HEIGHT = DATA.pile_height
PILE_SPAN = 1 + HEIGHT * 5
"""A pile's floats: its height, then a one-hot of 5 per slot (the slot's tile, if seen)."""
MAX_FRIENDS = DATA.max_on_beach
C1, C2, C3, C4, C5 = DATA.counts[1:6]
WIN = DATA.win_points

OBS_FIXED = SQUARES * 6 + COLS * (1 + HEIGHT * 5) + 5 + 5 + 1 + 5 + 1 + 3 + 3
OBS_PER_SEAT = SQUARES + 8 + 3


def observation_size(players: int, options: object) -> int:
    return OBS_FIXED + OBS_PER_SEAT * players


class Layout:
    """Where each part of one player count's observation starts, and the index tables
    that do not depend on the state (made once per player count, see :func:`layout`)."""

    __slots__ = ("active", "at", "counters", "decider", "friends", "n", "phase", "piles",
                 "placing", "ret", "seats", "turn_friends")

    def __init__(self, n: int) -> None:
        self.n = n
        friends = SQUARES * 6
        self.piles = piles = friends + SQUARES * n
        self.seats = seats = piles + COLS * PILE_SPAN
        self.active = active = seats + 8 * n + 5
        self.decider = decider = active + n
        self.phase = phase = decider + n
        self.placing = placing = phase + 5
        self.ret = ret = placing + n + 1
        self.counters = counters = ret + 9
        self.friends = friends
        self.turn_friends: tuple[tuple[int, ...], ...] = tuple(
            tuple(friends + i * n + (f - p) % n for i in range(SQUARES) for f in range(n))
            for p in range(n))
        """``turn_friends[p][k]``: the one seen by ``p`` for the friend at offset ``k``
        (:class:`Friends`)."""
        self.at = array("q", [piles + c * PILE_SPAN for c in range(COLS)])
        """Where the values go, in the order ``observation_sparse`` lists them: the
        piles' heights, the seats' counts and the removed tiles, the friends left to
        place, the return's pool and tiles left, the two counters (a value may be 0.0)."""
        self.at.extend(range(seats, seats + 8 * n + 5))
        self.at.append(placing + n)
        self.at.extend(range(ret, ret + 6))
        self.at.extend((counters, counters + 1))


@lru_cache(maxsize=8)
def layout(n: int) -> Layout:
    """The :class:`Layout` of ``n`` players, shared by every game of that count."""
    return Layout(n)


class Board:
    """The beach's ones, the piles' ones and the piles' heights, and the copies of the
    beach, the piles and their unseen bottoms they were made from."""

    __slots__ = ("grid", "heights", "hidden", "ones", "piles")

    def __init__(self, grid: list[int], piles: list[list[int]], hidden: list[int],
                 base: int) -> None:
        self.grid = grid[:]
        self.piles = [p[:] for p in piles]
        self.hidden = hidden[:]
        ones = array("q", [i * 6 + t for i, t in enumerate(grid) if t >= 0])
        for c, pile in enumerate(piles):
            for k in range(hidden[c], len(pile)):
                ones.append(base + k * 5 + pile[k])
            base += PILE_SPAN
        self.ones = ones
        self.heights = array("d", [len(p) / HEIGHT for p in piles])


class Friends:
    """The friends on the beach as offsets ``square * n + owner`` (seat 0's ones of the
    friends part, less the part's start; ``Layout.turn_friends`` turns them for any
    observer), and the copy of the beach's owners ``fr`` they stand for.

    Unlike the other parts this one is changed in place: friends move on most steps, so
    the state's apply path moves it along with ``fr`` (:meth:`put`, only once an
    observation has made it), and it belongs to one state (``clone`` does not pass it
    on). It is still checked against the state's ``fr`` before each use, so a change made
    by hand, or a change of ``fr`` that did not go through :meth:`put`, remakes it.
    ValueError for an owner that is no seat (a state made by hand)."""

    __slots__ = ("fr", "n", "offsets")

    def __init__(self, fr: list[int], n: int) -> None:
        if fr and max(fr) >= n:
            raise ValueError("a friend of no seat")
        self.n = n
        self.fr = fr[:]
        self.offsets = [i * n + f for i, f in enumerate(fr) if f >= 0]

    def put(self, sq: int, owner: int) -> None:
        """``fr[sq] = owner`` (-1: no friend), as the state just did."""
        fr = self.fr
        old = fr[sq]
        if old == owner:
            return
        n = self.n
        if old >= 0:
            self.offsets.remove(sq * n + old)
        if 0 <= owner < n:
            self.offsets.append(sq * n + owner)
            fr[sq] = owner
        elif owner >= n:  # a friend of no seat (a step made by hand): the copy now differs
            fr[sq] = -2 - owner  # from ``fr`` until it is put back, so it is not used
        else:
            fr[sq] = owner


class Seats:
    """Every seat's counts (held tiles by type / box count, points / 10, friends on the
    beach and waiting / 3) in absolute seat order, then the removed tiles / box count,
    and the copies they were made from. ``turned[p]``: the same in ``p``'s relative seat
    order (see :meth:`turn`), None until asked."""

    __slots__ = ("held", "onboard", "points", "removed", "turned", "values", "waiting")

    def __init__(self, held: list[list[int]], points: list[int], onboard: list[int],
                 waiting: list[int], removed: list[int]) -> None:
        self.held = [h[:] for h in held]
        self.points = points[:]
        self.onboard = onboard[:]
        self.waiting = waiting[:]
        self.removed = removed[:]
        values = array("d")
        for p, h in enumerate(held):
            _, h1, h2, h3, h4, h5 = h
            values.extend((h1 / C1, h2 / C2, h3 / C3, h4 / C4, h5 / C5, points[p] / WIN,
                           onboard[p] / MAX_FRIENDS, waiting[p] / MAX_FRIENDS))
        r = removed
        values.extend((r[1] / C1, r[2] / C2, r[3] / C3, r[4] / C4, r[5] / C5))
        self.values = values
        self.turned: list[array[float] | None] = [None] * len(held)

    def turn(self, player: int) -> array[float]:
        """The values in ``player``'s relative seat order (kept)."""
        v = self.values
        cut, end = 8 * player, 8 * len(self.held)
        out = self.turned[player] = v[cut:end] + v[:cut] + v[end:]
        return out


def observation_sparse(state: TideState, player: int) -> SparseObservation:
    """``observation_size(n) = OBS_FIXED + OBS_PER_SEAT * n`` floats (SPEC.md,
    Observation) in sparse form: the one-hots as indices, the counts and scales as
    values at fixed places (``Layout.at``; a value may be 0.0); the core makes the
    dense list from it. Seats are relative: index k is the seat k places after
    ``player``. Pile slots never seen by anyone (R8.3) are zeros. The beach and piles
    (``obs_board``), the friends (``obs_friends``, moved along by the apply path) and
    the seats' counts (``obs_seats``) are kept parts, remade when the state's lists
    differ from the copies they hold (the classes above); the rest is built each call."""
    rules = state.rules
    lay = rules.layout
    if lay is None:
        lay = rules.layout = layout(state.n)
    n = lay.n
    grid, piles, hidden = state.grid, state.piles, state.hidden
    board = state.obs_board
    if board is None or board.grid != grid or board.piles != piles \
            or board.hidden != hidden:
        board = state.obs_board = Board(grid, piles, hidden, lay.piles)
    held, points, onboard, waiting, removed = (
        state.held, state.points, state.onboard, state.waiting, state.removed)
    seats = state.obs_seats
    if seats is None or seats.held != held or seats.points != points \
            or seats.onboard != onboard or seats.waiting != waiting \
            or seats.removed != removed:
        seats = state.obs_seats = Seats(held, points, onboard, waiting, removed)
    counts = seats.turned[player]
    if counts is None:
        counts = seats.turn(player)
    # friends: a one for each friend, at its square's seat slot
    fr = state.fr
    friends = state.obs_friends
    if friends is None or friends.fr != fr:
        try:
            friends = state.obs_friends = Friends(fr, n)
        except ValueError:  # a friend of no seat, in a state made by hand
            friends = state.obs_friends = None
    if friends is not None:
        ones = board.ones + array("q", map(lay.turn_friends[player].__getitem__,
                                           friends.offsets))
    else:
        base = lay.friends
        ones = board.ones + array("q", [base + i * n + (f - player) % n
                                        for i, f in enumerate(fr) if f >= 0])
    ones.append(lay.active + (state.cur - player) % n)
    steps = state._steps
    placed = 0.0
    if steps:
        top = steps[-1]
        kind = top.kind
        ones.append(lay.decider + (top.players[0] - player) % n)
        ones.append(lay.phase + PHASE_INDEX[kind])
        if kind == PLACE:
            placing = top.data
            if placing:
                ones.append(lay.placing + (placing[0] - player) % n)
                placed = len(placing) / MAX_FRIENDS
        elif kind == RETURN:
            pending: PendingReturn = top.data[0]
            pool = pending.pool
            if pending.reason > 0:
                ones.append(lay.ret + 5 + pending.reason)
            if state.col_end:
                ones.append(lay.counters + 2)
            return ones, lay.at, board.heights + counts + array("d", (
                placed, pool[1] / 4, pool[2] / 4, pool[3] / 4, pool[4] / 4,
                pool[5] / 4, state.ret_k / 4, state.idle / (rules.stall_rounds * n),
                state.turns / rules.turn_limit))
    if state.col_end:
        ones.append(lay.counters + 2)
    return ones, lay.at, board.heights + counts + array("d", (
        placed, 0.0, 0.0, 0.0, 0.0, 0.0, state.ret_k / 4,
        state.idle / (rules.stall_rounds * n), state.turns / rules.turn_limit))
