"""The players' sheets as the rules keep them: each seat's drawn segments as one flag per
edge of the island, and its trail networks as a union-find.

Each seat's drawn segments are one ``bytes`` value, a flag per edge of the island, 1
where a segment is drawn (``state.drawn[p]``; ``drawn_on`` gives it, ``drawn_edges`` the
edges it marks, ``with_drawn`` the flags with one more). Like the seat's circled sights,
joined pairs, linked kinds, sight counts and bonus segments owed, it is an immutable
value in a tuple with one per seat, replaced when it changes (``cove.core.replaced``):
a clone shares these tuples and a snapshot keeps the values, neither copies them. Sets of
small numbers (the sights circled, the village pairs joined, the villages
and sights of a network) are kept as bit masks: member ``i`` is bit ``i``. The rules
read and change them only through named operations: the core's for any set
(``cove.core.bits``: ``has``, ``including``, ``minus``, ``members`` ...) and the ones
below for villages and sights (``pairs_within``, ``villages_in``, ``sights_in``).

The union-find is stored flat for all seats: space ``i`` of seat ``p`` is index
``p * N + i`` (``N`` the island's number of spaces; ``base = p * N`` is where the seat's
sheet starts) of ``state.parent``, a ``bytearray`` holding the space (``0 .. N - 1``) it
points to, and of ``state.features``, an ``array`` holding at each root the villages and
sights in its network. A clone copies the two as blocks of memory, and linking is near
O(1). ``link`` draws a segment and scores what it connects (R4, R6.1, R7.1); ``commit``
puts a decision on its sheet, with a snapshot of the sheet before it (R3.8); ``restore``
puts the sheet back from that snapshot.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, ClassVar, Final

from cove.core import pickle_by_fields, replaced
from cove.core.bits import count_common, first_n, has, including, members, minus
from cove.games.trails_of_tucana.actions import BONUS, PASS, Action
from cove.games.trails_of_tucana.data import VILLAGES

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState


# -- village pairs -------------------------------------------------------------------------------
def pairs_within(villages: int, village_pairs: tuple[int, ...]) -> int:
    """The letters (a set) whose two villages, ``village_pairs[letter]``, are both in
    ``villages``."""
    letters = 0
    for letter, pair in enumerate(village_pairs):
        if villages & pair == pair:
            letters |= 1 << letter
    return letters


# -- a network's villages and sights ------------------------------------------------------------
VILLAGE_BITS: Final = first_n(VILLAGES)
"""The villages' bits of a network's features (the sights' bits follow them)."""


def villages_in(features: int) -> int:
    """The villages of a network's ``features``, as a set of village numbers."""
    return features & VILLAGE_BITS


def sights_in(features: int) -> int:
    """The sights of a network's ``features``, as a set of sight numbers."""
    return features >> VILLAGES


FEATURE_SETS: Final = "I" if array("I").itemsize >= 4 else "L"
"""The typecode of ``state.features``: unsigned ints of 4 bytes, enough for a network's
villages and sights (25 bits on Isla Grande)."""


# -- drawn segments ------------------------------------------------------------------------------
def drawn_on(state: TucanaState, seat: int) -> bytes:
    """``seat``'s drawn segments: one flag per edge of the island, 1 where a segment is
    drawn."""
    return state.drawn[seat]


def with_drawn(flags: bytes, edge: int) -> bytes:
    """``flags`` (``drawn_on``) with a segment drawn on ``edge``."""
    return flags[:edge] + b"\x01" + flags[edge + 1 :]


def drawn_edges(flags: bytes) -> list[int]:
    """The edges with a segment in one seat's ``flags`` (``drawn_on``), lowest first."""
    return [edge for edge in range(len(flags)) if flags[edge]]


class Snapshot:
    """A seat's sheet at the start of a step, before its decision in it (R3.8): what the
    other seats see until the step is revealed, and what ``restore`` puts back.

    One is made for nearly every decision of a game with several players, so it is a
    plain record (its fields named in ``__match_args__``), which the compiled build makes
    a native class; a dataclass's ``__init__`` stays Python code (docs/BUILD.md)."""

    # a ClassVar: compiled, a bare class attribute would be a field of every instance
    __match_args__: ClassVar[tuple[str, ...]] = (
        "drawn", "circled", "sight_counts", "pairs", "linked", "bonus_owed")

    def __init__(self, drawn: bytes, circled: int, sight_counts: bytes, pairs: int,
                 linked: int, bonus_owed: int) -> None:
        self.drawn: Final = drawn  # drawn_on
        self.circled: Final = circled
        self.sight_counts: Final = sight_counts  # per sight kind
        self.pairs: Final = pairs
        self.linked: Final = linked
        self.bonus_owed: Final = bonus_owed

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Snapshot) and self.drawn == other.drawn
                and self.circled == other.circled and self.sight_counts == other.sight_counts
                and self.pairs == other.pairs and self.linked == other.linked
                and self.bonus_owed == other.bonus_owed)


def root(state: TucanaState, base: int, space: int) -> int:
    """The root of ``space`` on the sheet starting at ``base``, without shortening paths:
    for checks, which must leave the state exactly as it was (``parent`` is part of the
    stored state)."""
    parent = state.parent
    while parent[base + space] != space:
        space = parent[base + space]
    return space


def find(state: TucanaState, base: int, space: int) -> int:
    """The root of ``space`` on the sheet starting at ``base``, halving the path to it on
    the way."""
    parent = state.parent
    while (up := parent[base + space]) != space:
        parent[base + space] = space = parent[base + up]
    return space


def link(state: TucanaState, seat: int, edge: int) -> None:
    """Draw ``edge`` on ``seat``'s sheet and score what it connects."""
    island = state.island
    state.drawn = replaced(state.drawn, seat, with_drawn(state.drawn[seat], edge))
    a, b = island.edges[edge]
    base = seat * island.size
    root_a = find(state, base, a)
    root_b = find(state, base, b)
    if root_a == root_b:
        return
    state.parent[base + root_b] = root_a
    features = state.features
    joined = features[base + root_a] | features[base + root_b]
    features[base + root_a] = joined
    villages = villages_in(joined)
    sights = sights_in(joined)
    if villages:
        circled = state.circled[seat]
        newly_linked = minus(sights, circled)
        if newly_linked:
            state.circled = replaced(state.circled, seat, circled | newly_linked)
            counts = bytearray(state.sight_counts[seat])
            earned = 0
            for sight in members(newly_linked):
                kind = island.sight_kind[sight]
                counts[kind] += 1
                if counts[kind] == island.per_kind:
                    earned += 1
            state.sight_counts = replaced(state.sight_counts, seat, bytes(counts))
            if earned:
                state.bonus_owed = replaced(state.bonus_owed, seat,
                                            state.bonus_owed[seat] + earned)
        pairs = state.pairs[seat]
        pairs_now = pairs | pairs_within(villages, state.village_pairs[seat])
        if pairs_now != pairs:
            state.pairs = replaced(state.pairs, seat, pairs_now)
    if state.special_bonus and sights:
        for kind in state.red_cards:
            linked = state.linked[seat]
            if not has(linked, kind) and count_common(sights, island.kind_mask[kind]) >= 2:
                state.linked = replaced(state.linked, seat, including(linked, kind))


def commit(state: TucanaState, seat: int, action: Action, snapshot: bool = True) -> None:
    """``seat``'s one decision of this step on its sheet (no logging, no flow), and the
    snapshot of the sheet before it unless ``snapshot`` is false."""
    if snapshot:  # the sheet's parts are immutable values: kept, not copied
        state.snapshots[seat] = Snapshot(  # positional: the faster call in the pure build
            drawn_on(state, seat), state.circled[seat], state.sight_counts[seat],
            state.pairs[seat], state.linked[seat], state.bonus_owed[seat])
    state.moves[seat] = (*state.moves[seat], action)
    owed = state.bonus_owed[seat]
    if action is PASS:  # the only Pass
        if owed:  # nothing fits, or the rest of the bonus chain is declined
            state.bonus_owed = replaced(state.bonus_owed, seat, 0)
    else:
        if action >= BONUS:  # the bonuses' codes follow the draws'
            state.bonus_owed = replaced(state.bonus_owed, seat, owed - 1)
        link(state, seat, state.island_actions.edge[action])


def restore(state: TucanaState, seat: int, snapshot: Snapshot) -> None:
    """Put ``seat``'s sheet back as it was at the start of the step, before its decision
    in this step."""
    island = state.island
    size = island.size
    base = seat * size
    state.parent[base : base + size] = range(size)
    state.features[base : base + size] = array(FEATURE_SETS, island.space_features)
    state.drawn = replaced(state.drawn, seat, snapshot.drawn)
    for edge in drawn_edges(snapshot.drawn):
        a, b = island.edges[edge]
        root_a = find(state, base, a)
        root_b = find(state, base, b)
        if root_a != root_b:
            state.parent[base + root_b] = root_a
            state.features[base + root_a] |= state.features[base + root_b]
    state.circled = replaced(state.circled, seat, snapshot.circled)
    state.sight_counts = replaced(state.sight_counts, seat, snapshot.sight_counts)
    state.pairs = replaced(state.pairs, seat, snapshot.pairs)
    state.linked = replaced(state.linked, seat, snapshot.linked)
    state.bonus_owed = replaced(state.bonus_owed, seat, snapshot.bonus_owed)
    state.moves[seat] = state.moves[seat][:-1]


pickle_by_fields(Snapshot)  # pickled as a call with its fields, in both builds
