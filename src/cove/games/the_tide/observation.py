"""The Tide's observation (SPEC.md, Observation), declared as named blocks
(:mod:`cove.core.observer`): the core lays them out, keeps the blocks that declare their
inputs while those are unchanged, and writes the SPEC.md table from them.

Seats are relative to the observer: seat index k is the seat k places after the observer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cove.core import Block, Observer, Out
from cove.games.the_tide.beach import COLS, SQUARES
from cove.games.the_tide.data import DATA
from cove.games.the_tide.rules import PHASE_INDEX, PLACE, RETURN, PendingReturn, Placing

if TYPE_CHECKING:
    from cove.games.the_tide.state import TideState

HEIGHT: Final = DATA.pile_height
PILE_SPAN: Final = 1 + HEIGHT * 5
"""A pile's floats: its height, then a one-hot of 5 per slot (the slot's tile, if seen)."""
MAX_FRIENDS: Final = DATA.max_on_beach
COUNTS: Final = DATA.counts
WIN: Final = DATA.win_points


def beach(state: TideState, player: int, out: Out) -> None:
    for square, tile in enumerate(state.grid):
        if tile >= 0:
            out.one(square * 6 + tile)


def friends(state: TideState, player: int, out: Out) -> None:
    n = state.n
    for square, owner in enumerate(state.friends):
        if owner >= 0:
            out.one(square * n + (owner - player) % n)


def piles(state: TideState, player: int, out: Out) -> None:
    for column, pile in enumerate(state.piles):
        start = column * PILE_SPAN
        out.value(start, len(pile) / HEIGHT)
        for slot in range(state.hidden[column], len(pile)):  # slots nobody saw stay zero
            out.one(start + 1 + slot * 5 + pile[slot] - 1)  # tiles are 1..5


def seats(state: TideState, player: int, out: Out) -> None:
    n = state.n
    for relative in range(n):
        seat = (player + relative) % n
        held = state.held[seat]
        out.run(8 * relative, [
            held[1] / COUNTS[1], held[2] / COUNTS[2], held[3] / COUNTS[3],
            held[4] / COUNTS[4], held[5] / COUNTS[5], state.points[seat] / WIN,
            state.friends_on_beach[seat] / MAX_FRIENDS,
            state.friends_waiting[seat] / MAX_FRIENDS])


def removed(state: TideState, player: int, out: Out) -> None:
    gone = state.removed
    out.run(0, [gone[1] / COUNTS[1], gone[2] / COUNTS[2], gone[3] / COUNTS[3],
                gone[4] / COUNTS[4], gone[5] / COUNTS[5]])


def active(state: TideState, player: int, out: Out) -> None:
    out.one((state.active - player) % state.n)


def decider(state: TideState, player: int, out: Out) -> None:
    top = state.top_step
    if top is not None:
        out.one((top.players[0] - player) % state.n)


def phase(state: TideState, player: int, out: Out) -> None:
    top = state.top_step
    if top is not None:
        out.one(PHASE_INDEX[top.kind])


def placement(state: TideState, player: int, out: Out) -> None:
    top = state.top_step
    n = state.n
    if top is not None and top.kind == PLACE:
        placing: Placing = top.data
        out.one((placing.owner - player) % n)
        out.value(n, len(placing.owners) / MAX_FRIENDS)
    else:
        out.value(n, 0.0)


def return_(state: TideState, player: int, out: Out) -> None:
    top = state.top_step
    if top is not None and top.kind == RETURN:
        pending: PendingReturn = top.data
        pool = pending.pool
        out.run(0, [pool[1] / 4, pool[2] / 4, pool[3] / 4, pool[4] / 4, pool[5] / 4])
        if pending.reason > 0:
            out.one(5 + pending.reason)
    else:
        out.run(0, [0.0] * 5)
    out.value(5, state.tiles_to_return / 4)


def counters(state: TideState, player: int, out: Out) -> None:
    rules = state.rules
    out.run(0, [state.idle_turns / (rules.stall_rounds * state.n),
                state.turns / rules.turn_limit])
    if state.column_end:
        out.one(2)


OBSERVER: Final = Observer([
    Block("beach", beach, "36 squares × one-hot tile (empty, shell, bottle, bag, cigarette, "
          "melon)", size=SQUARES * 6, inputs=("grid",), same_for_all=True),
    Block("friends", friends, "36 squares × one-hot relative seat of the friend there (all "
          "zero: none)", per_seat=SQUARES, inputs=("friends",)),
    Block("piles", piles, "per pile a–f: height / 6, then 6 slots (bottom first) × one-hot "
          "of 5 tile types; zeros for an empty slot or one nobody has seen",
          size=COLS * PILE_SPAN, inputs=("piles", "hidden"), same_for_all=True),
    Block("seats", seats, "per relative seat: held shells, bottles, bags, cigarettes, "
          "melons (each / box count), points / 10, friends on beach / 3, friends waiting "
          "/ 3", per_seat=8,
          inputs=("held", "points", "friends_on_beach", "friends_waiting")),
    Block("removed", removed, "removed tiles per type / box count", size=5,
          inputs=("removed",), same_for_all=True),
    Block("active", active, "one-hot relative seat whose turn it is", per_seat=1),
    Block("decider", decider, "one-hot relative seat to decide (all zero when over)",
          per_seat=1),
    Block("phase", phase, "one-hot place, act, shirk, return, reward (all zero when over)",
          size=5),
    Block("placement", placement, "one-hot relative owner of the friend being placed, "
          "friends left to place / 3", size=1, per_seat=1, floats="n + 1"),
    Block("return", return_, "tiles of each type that may still go back / 4, tiles left to "
          "return / 4, one-hot reason (recycling, double recycling, specific collection)",
          size=9, floats="5 + 1 + 3"),
    Block("counters", counters, "counted stall turns / stall limit, turns / turn limit, "
          "column end pending (0/1)", size=3),
])
"""The Tide's observation: ``425 + 47 n`` floats for ``n`` players."""
