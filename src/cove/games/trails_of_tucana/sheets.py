"""The players' sheets as the rules keep them: each seat's drawn segments as a bitmask
over the island's edges, and its networks as a union-find.

The union-find is stored flat for all seats (space ``i`` of seat ``p`` is index
``p * N + i`` of ``state.par``) with, at each root, a bitmask of the villages and sights
in its network (``state.info``), so a clone copies two flat lists and linking is near
O(1). ``link`` draws a segment and scores what it connects (R4, R6.1, R7.1); ``commit``
puts a decision on its sheet, with a snapshot of the sheet before it (R3.8); ``restore``
puts the sheet back from that snapshot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.games.trails_of_tucana.actions import BONUS, PASS, Action
from cove.games.trails_of_tucana.data import KINDS, VILLAGES

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState

VMASK = (1 << VILLAGES) - 1
"""The villages' bits of a network's mask (the sights' bits follow them)."""

# snapshot of a sheet at the start of the step: drawn, circled, kind counts, pairs, linked,
# bonus segments owed
Snap = tuple[int, int, tuple[int, ...], int, int, int]



def bits(x: int) -> list[int]:
    """Indices of the set bits of ``x``, lowest first (one step per set bit)."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def root(state: TucanaState, x: int) -> int:
    """The root of ``x`` without shortening paths: for checks, which must leave the
    state exactly as it was (``par`` is part of the stored state)."""
    par = state.par
    while par[x] != x:
        x = par[x]
    return x


def find(state: TucanaState, x: int) -> int:
    """The root of ``x``, halving the path to it on the way."""
    par = state.par
    while par[x] != x:
        par[x] = x = par[par[x]]
    return x


def link(state: TucanaState, p: int, e: int) -> None:
    """Draw edge ``e`` on seat ``p``'s sheet and score what it connects."""
    state.drawn[p] |= 1 << e
    isl = state.isl
    a, b = isl.edges[e]
    base = p * isl.size
    ra = find(state, base + a)
    rb = find(state, base + b)
    if ra == rb:
        return
    state.par[rb] = ra
    info = state.info
    inf = info[ra] | info[rb]
    info[ra] = inf
    vm = inf & VMASK
    sm = inf >> VILLAGES
    if vm:
        new = sm & ~state.circled[p]
        if new:
            state.circled[p] |= new
            kc = state.kcount
            for s in bits(new):
                i = p * KINDS + isl.sight_kind[s]
                kc[i] += 1
                if kc[i] == isl.per_kind:
                    state.bonus[p] += 1
        done_pairs = state.pairs[p]
        for L, pm in enumerate(state.pair_masks[p]):
            if not (done_pairs >> L) & 1 and vm & pm == pm:
                done_pairs |= 1 << L
        state.pairs[p] = done_pairs
    if state.red_on and sm:
        for k in state.red:
            if (sm & isl.kind_mask[k]).bit_count() >= 2:
                state.linked[p] |= 1 << k


def commit(state: TucanaState, p: int, a: Action, snap: bool = True) -> None:
    """Seat ``p``'s one decision of this step on its sheet (no logging, no flow), and
    the snapshot of the sheet before it unless ``snap`` is false."""
    if snap:
        k = p * KINDS
        state.snap[p] = (
            state.drawn[p],
            state.circled[p],
            tuple(state.kcount[k : k + KINDS]),
            state.pairs[p],
            state.linked[p],
            state.bonus[p],
        )
    state.moves[p] = (*state.moves[p], a)
    if a is PASS:  # the only Pass
        state.bonus[p] = 0  # nothing fits, or the rest of the bonus chain is declined
    else:
        if a >= BONUS:  # the bonuses' codes follow the draws'
            state.bonus[p] -= 1
        link(state, p, state.acts.edge[a])


def restore(state: TucanaState, q: int, snap: Snap) -> None:
    """Put seat ``q``'s sheet back as it was at the start of the step, before its
    decision in this step."""
    isl = state.isl
    size = isl.size
    base = q * size
    state.par[base : base + size] = range(base, base + size)
    state.info[base : base + size] = isl.info0
    drawn, circled, kc, pairs, linked, bonus = snap
    for e in bits(drawn):
        a, b = isl.edges[e]
        ra = find(state, base + a)
        rb = find(state, base + b)
        if ra != rb:
            state.par[rb] = ra
            state.info[ra] |= state.info[rb]
    state.drawn[q] = drawn
    state.circled[q] = circled
    state.kcount[q * KINDS : q * KINDS + KINDS] = kc
    state.pairs[q] = pairs
    state.linked[q] = linked
    state.bonus[q] = bonus
    state.moves[q] = state.moves[q][:-1]
