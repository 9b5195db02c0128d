"""The parts of The Tide's observation (SPEC.md, Observation) that change seldom, kept
while their inputs are unchanged.

Most steps move a friend and nothing else: the beach and the piles change only when a tile
is collected or returned (one step in ten in random play), the seats' counts about as
seldom. So ``TideState._observation_sparse`` builds only the friends and the few one-hots
and scales of the moment each call, and takes the rest from two kept parts:

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

from cove.games.the_tide.beach import COLS, SQUARES
from cove.games.the_tide.data import DATA

HEIGHT = DATA.pile_height
PILE_SPAN = 1 + HEIGHT * 5
"""A pile's floats: its height, then a one-hot of 5 per slot (the slot's tile, if seen)."""
MAX_FRIENDS = DATA.max_on_beach
C1, C2, C3, C4, C5 = DATA.counts[1:6]
WIN = DATA.win_points


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
        """Where the values go, in the order ``_observation_sparse`` lists them: the
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
