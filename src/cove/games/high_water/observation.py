"""High Water's observation (SPEC.md, "Observation"): its size and its encoding, built for
an environment that encodes one per step.

From one step to the next usually one seat changes, or none, and the market and the
global values change now and then. So the observation is made of blocks of values, each
kept with a copy of the content it was made from: each seat's part (SPEC.md's S) and, to
rebuild a seat's part, its trick cards, its dice and its cards (crew, active and completed
quests); the global part (G) and the market (M). A call compares each block's content now
(the state's own lists and numbers, gathered in a tuple without copying them) with the
kept copy, copies the block into place when they are equal and rebuilds it when not, then
writes the open sub-decision (X), which depends on the top of the stack and the observer.

A block is kept with its content itself, never with a state or its identity: a clone, a
copy rebuilt from JSON, a redeterminised copy or a state changed by hand is compared by
content, so a block can never be stale, and a state never sees another's. Only the last
block of each kind (per seat number for a seat's blocks) is kept, so the memory stays
small and warm (a dict of every content seen, tried first, was slower than encoding from
scratch); a block does not depend on the seat slot it is copied to, so the blocks are
kept as values and the observation is handed back as one whole run of values (the core's
shared ``index_run``), which the environments convert in one pass.

Every value is computed by the same float operations, in the same order, as the plain
encoding SPEC.md describes, so the floats are identical (tests/games/high_water).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from cove.core.options import Options
from cove.core.state import SparseObservation, index_run
from cove.games.high_water.actions import MAX_PLAYERS
from cove.games.high_water.data import HWData, get
from cove.games.high_water.rules import CHOICES, OVER, PHASE_NAMES, SEG, STEPS, TRICK, Choice

if TYPE_CHECKING:
    from cove.games.high_water.state import HighWaterState

THIRD = 1.0 / 3  # a die's weight in a dice count (3 dice: 1.0)

Key = tuple[object, ...]
Kept = tuple[Key, "array[float]"]
"""A block of values with a copy of the content it was made from."""


def part_sizes(D: HWData) -> tuple[int, int, int, int]:
    """(global part, one seat's part, the market part, the pending part)."""
    t, k = len(D.trick_cards), len(D.cards)
    dice = len(D.colours) * D.faces
    glob = 2 + len(PHASE_NAMES) + 6 + len(D.colours) + 1
    seat = 1 + t + t + t + 3 + 2 + dice + k + 3 * k + k + 1 + 2
    market = 2 * k + 2
    pend = 11 + t + dice
    return glob, seat, market, pend


_SIZES: dict[str, int] = {}


def observation_size(players: int, options: Options) -> int:
    """The observation's length for a configuration (the declaration's
    ``observation_encoding``): the same at every player count."""
    path = str(getattr(options, "data_file", ""))
    size = _SIZES.get(path)
    if size is None:
        glob, seat, market, pend = part_sizes(get(path))
        size = _SIZES[path] = glob + MAX_PLAYERS * seat + market + pend
    return size


def _zeros(n: int) -> array[float]:
    return array("d", bytes(8 * n))


class _Layout:
    """Where each part of the observation starts, for one data file (SPEC.md's order).
    Offsets in a seat's part are from the seat's start; ``tpos`` and ``dpos`` place a
    trick card and a die code in their one-hot or count blocks."""

    def __init__(self, D: HWData) -> None:
        t, k = len(D.trick_cards), len(D.cards)
        glob, seat, market, pend = part_sizes(D)
        self.size = glob + MAX_PLAYERS * seat + market + pend
        self.glob, self.seat, self.market_size = glob, seat, market
        self.t, self.k = t, k
        self.step_at = 2 + len(PHASE_NAMES) - 1  # + step (1..6)
        self.bag_at = 2 + len(PHASE_NAMES) + 6
        self.bag_div = [max(1, c.count) for c in D.colours]
        self.tpos = {v: i for i, v in enumerate(D.trick_cards)}
        self.dpos = {d: (d // 10) * D.faces + d % 10 - 1 for d in D.codes}
        self.ndice = len(D.colours) * D.faces
        self.waiting = 1 + 3 * t
        self.dice = self.waiting + 5
        self.crew = self.dice + self.ndice  # then active quests (3k) and completed (k)
        self.influence = self.crew + 5 * k
        self.tasks = [max(1, len(c.tasks)) for c in D.cards]
        self.markers = max(1, D.max_markers)
        self.decks = (max(1, len(D.crew_deck)), max(1, len(D.quest_deck)))
        self.market = glob + MAX_PLAYERS * seat  # in the full observation
        self.caches: dict[tuple[int, int, int], _Caches] = {}


class _Caches:
    """The blocks kept for one data file, player count, goal and round cap, and where the
    open sub-decision's values sit (X)."""

    def __init__(self, L: _Layout, n: int, goal: int, max_rounds: int) -> None:
        self.L, self.n, self.goal, self.max_rounds = L, n, goal, max_rounds
        self.pend = L.market + L.market_size
        self.mine = self.pend + 11
        self.chosen = self.mine + L.t
        self.zeros = _zeros(L.size)
        self.seat_zeros = _zeros(L.seat)
        # the last block of each kind, with its key: per seat number for a seat's blocks
        none: Kept = ((object(),), self.seat_zeros)  # equal to no key: never used
        self.glob: Kept = none
        self.market: Kept = none
        self.seats: list[Kept] = [none] * n
        self.tricks: list[Kept] = [none] * n
        self.dice: list[Kept] = [none] * n
        self.cards: list[Kept] = [none] * n

    def glob_block(self, rnd: int, high: bool, phase: int, step: int,
                   triggered: bool, bag: list[int]) -> array[float]:
        """SPEC.md's G."""
        L = self.L
        out = _zeros(L.glob)
        out[0] = rnd / self.max_rounds
        if high:
            out[1] = 1.0
        out[2 + phase] = 1.0
        if 1 <= step <= 6:
            out[L.step_at + step] = 1.0
        bag_div, at = L.bag_div, L.bag_at
        for c in range(len(bag_div)):
            out[at + c] = bag[c] / bag_div[c]
        if triggered:
            out[L.glob - 1] = 1.0
        self.glob = ((rnd, high, phase, step, triggered, bag[:]), out)
        return out

    def seat_block(self, p: int, hand: list[int], played: list[int],
                   keys: list[int], dice: list[int], crew: list[int],
                   quests: list[list[int]], done_q: list[int], waiting: bool,
                   committed: bool, pos: int, gold: int, rum: int, influence: int,
                   won: bool, last: bool) -> array[float]:
        """SPEC.md's S for seat ``p``, from the kept blocks of its trick cards, dice and
        cards where their content is unchanged."""
        L = self.L
        out = self.seat_zeros[:]
        out[0] = 1.0
        t = L.t
        part: Key = (hand, played, keys)
        kept, block = self.tricks[p]
        if kept != part:
            block = _zeros(3 * t)
            tpos = L.tpos
            for c in hand:
                block[tpos[c]] = 1.0
            for c in played:
                block[t + tpos[c]] = 1.0
            for c in keys:
                block[2 * t + tpos[c]] = 1.0
            self.tricks[p] = ((hand[:], played[:], keys[:]), block)
        out[1:1 + 3 * t] = block
        w = L.waiting
        if waiting:
            out[w] = 1.0
        if committed:
            out[w + 1] = 1.0
        out[w + 2] = pos / self.n if pos >= 0 else -1.0
        out[w + 3] = gold / 10
        out[w + 4] = rum / 10
        part = (dice,)
        kept, block = self.dice[p]
        if kept != part:
            block = _zeros(L.ndice)
            dpos = L.dpos
            for d in dice:
                block[dpos[d]] += THIRD
            self.dice[p] = ((dice[:],), block)
        at = L.dice
        out[at:at + L.ndice] = block
        quests_now = [q[:] for q in quests]
        part = (crew, done_q, quests_now)
        kept, block = self.cards[p]
        k = L.k
        if kept != part:
            block = _zeros(5 * k)
            for c in crew:
                block[c] += 1.0
            tasks, markers = L.tasks, L.markers
            for cid, done, marks in quests:
                i = k + 3 * cid
                block[i] = 1.0
                block[i + 1] = done / tasks[cid]
                block[i + 2] = marks / markers
            for c in done_q:
                block[4 * k + c] = 1.0
            self.cards[p] = ((crew[:], done_q[:], quests_now), block)
        at = L.crew
        out[at:at + 5 * k] = block
        i = L.influence
        out[i] = influence / self.goal
        if won:
            out[i + 1] = 1.0
        if last:
            out[i + 2] = 1.0
        self.seats[p] = ((waiting, committed, pos, gold, rum, influence, won, last, hand[:],
                          played[:], keys[:], dice[:], crew[:], done_q[:], quests_now), out)
        return out

    def market_block(self, crew_row: list[int], quest_row: list[int],
                     ncrew: int, nquest: int) -> array[float]:
        """SPEC.md's M."""
        L = self.L
        out = _zeros(L.market_size)
        for c in crew_row:
            if c >= 0:
                out[c] += 1.0
        k = L.k
        for c in quest_row:
            if c >= 0:
                out[k + c] += 1.0
        out[2 * k] = ncrew / L.decks[0]
        out[2 * k + 1] = nquest / L.decks[1]
        self.market = ((ncrew, nquest, crew_row[:], quest_row[:]), out)
        return out


_LAYOUTS: dict[int, tuple[HWData, _Layout]] = {}


def _layout(D: HWData) -> _Layout:
    hit = _LAYOUTS.get(id(D))
    if hit is None or hit[0] is not D:
        hit = _LAYOUTS[id(D)] = (D, _Layout(D))
    return hit[1]


def observation_sparse(s: HighWaterState, player: int) -> SparseObservation:
    """What ``player`` sees, in sparse form (``State.observation_sparse``; the core makes
    the dense list from it); seats are listed from ``player`` on (SPEC.md).

    One whole run of values (``ones`` is empty, ``at`` the shared ``index_run``): a copy
    of a zeroed ``array("d")`` with the blocks copied in and X written (numpy reads the
    array as it is)."""
    L = _layout(s.D)
    o = s.opts
    n = s.n
    ckey = (n, o.goal, o.max_rounds)
    C = L.caches.get(ckey)
    if C is None:
        C = L.caches[ckey] = _Caches(L, *ckey)
    out = C.zeros[:]
    # the phase, the segment step, the trick's players and the open sub-decision, read
    # from the top of the stack once (the state's properties each look it up again)
    stack = s._steps
    top = stack[-1] if stack else None
    rule = STEPS[top.kind] if top is not None else None
    phase = rule.phase if rule is not None else OVER
    step = s.step if phase == SEG else 0
    rnd, high, triggered, bag = s.rnd, s.high, s.triggered, s.bag
    key: Key = (rnd, high, phase, step, triggered, bag)
    kept, block = C.glob
    if kept != key:
        block = C.glob_block(rnd, high, phase, step, triggered, bag)
    b = L.glob
    out[:b] = block
    trick = phase == TRICK
    waiting: tuple[int, ...] = (top.data[0] if top is not None and top.kind == "trick"
                                else ())
    order, seats, size = s.order, C.seats, L.seat
    hands, played, keys, commit = s.hands, s.played, s.keys, s.commit
    gold, rum, dice, crew, quests = s.gold, s.rum, s.dice, s.crew, s.quests
    done_q, influence, won, last = s.done_q, s.influence, s.won, s.last
    for k in range(n):
        p = (player + k) % n
        h, pl, ks, d, cr, qs, dq = (hands[p], played[p], keys[p], dice[p], crew[p],
                                    quests[p], done_q[p])
        w, c = p in waiting, trick and commit[p] >= 0
        pos = order.index(p) if p in order else -1
        g, r, i, x, y = gold[p], rum[p], influence[p], p == won, p == last
        key = (w, c, pos, g, r, i, x, y, h, pl, ks, d, cr, dq, qs)
        kept, block = seats[p]
        if kept != key:
            block = C.seat_block(p, h, pl, ks, d, cr, qs, dq, w, c, pos, g, r, i, x, y)
        out[b:b + size] = block
        b += size
    crew_row, quest_row = s.crew_row, s.quest_row
    ncrew, nquest = len(s.crew_deck), len(s.quest_deck)
    key = (ncrew, nquest, crew_row, quest_row)
    kept, block = C.market
    if kept != key:
        block = C.market_block(crew_row, quest_row, ncrew, nquest)
    b = L.market
    out[b:b + L.market_size] = block
    # the open sub-decision (kind one-hot, then my secret card in a trick, then the dice
    # it concerns: chosen for a re-roll or payment)
    if phase == SEG:
        if isinstance(rule, Choice):
            assert top is not None
            kind = top.kind
            out[C.pend + CHOICES.index(kind)] = 1.0
            if kind == "reroll" or kind == "pay":
                picked = top.data[2] if kind == "reroll" else top.data[3]
                hold = dice[top.player]
                at, dpos = C.chosen, L.dpos
                for j in picked:
                    out[at + dpos[hold[j]]] += THIRD
    else:
        out[C.pend + 10] = 1.0
        if trick and commit[player] >= 0:
            out[C.mine + L.tpos[commit[player]]] = 1.0
    return (), index_run(0, L.size), out
