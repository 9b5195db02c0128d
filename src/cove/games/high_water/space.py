"""High Water's fixed action space and observation encoding (see SPEC.md).

The action universe lists every action a configuration can offer, built from the data file:
trick cards, crates, die codes, card names, seats and faces. A crate pick is keyed by the
crate number alone (its dice differ every round); every other action is its own key, since
its fields are already drawn from finite tables.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from cove.core.options import Options
from cove.core.state import SparseObservation
from cove.games.high_water.actions import (
    END,
    NEXT,
    ROLL,
    STOP,
    Cycle,
    Face,
    Take,
)
from cove.games.high_water.common import OVER, PHASE_NAMES, SEG, TRICK
from cove.games.high_water.data import HWData, get
from cove.games.high_water.steps import CHOICES, RULES, Choice
from cove.games.high_water.tables import tables

if TYPE_CHECKING:
    from cove.games.high_water.state import HighWaterState

MAX_PLAYERS = 5


def _data(options: Options) -> HWData:
    return get(str(getattr(options, "data_file", "")))


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action key, in a fixed order (SPEC.md, "Action space"). The values are the
    rules' own ready-made ones (tables.py) where there are some: a legal action then finds
    its index by identity, without comparing fields."""
    D = _data(options)
    T = tables(D)
    codes = list(D.codes)
    crew = [c.id for c in D.cards if c.kind != "quest"]
    quests = [c.id for c in D.cards if c.kind == "quest"]
    cards = [c.key for c in D.cards]
    rounds = 1 + min(int(getattr(options, "tie_rereveals", 0)), len(D.trick_cards) - 1)
    out: list[Hashable] = [T.play[r, v] for r in range(rounds) for v in D.trick_cards]
    out += [("take", i) for i in range(players)]
    out += [T.activate[c] for c in crew]
    out += [T.use[d] for d in codes]
    out += [T.mark[d] for d in codes]
    out.append(ROLL)
    out += [T.pick[d] for d in codes]
    out += [Face(f) for f in range(1, D.faces + 1)]
    out += [Cycle(k) for k in cards]
    out += [T.buy[c.id] for c in D.cards]
    out += [T.pay[d] for d in codes]
    for q in quests:
        out.append(T.advance[q])
        out += [T.advance_die[q, d] for d in codes]
    out += [T.target[o, q] for o in range(players) for q in quests]
    out += [T.remove[q] for q in quests]
    out += [T.extra[q] for q in quests]
    out += [T.ret[d] for d in codes]
    out += [NEXT, STOP, END]
    return out


def action_key(action: Any) -> Hashable:
    if isinstance(action, Take):
        return ("take", action.crate)
    k: Hashable = action
    return k


# -- observation ------------------------------------------------------------------------------
def _sizes(D: HWData) -> tuple[int, int, int, int]:
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
    path = str(getattr(options, "data_file", ""))
    size = _SIZES.get(path)
    if size is None:
        glob, seat, market, pend = _sizes(get(path))
        size = _SIZES[path] = glob + MAX_PLAYERS * seat + market + pend
    return size


class _Layout:
    """Where each part of the observation starts, for one data file (SPEC.md's order).
    Offsets in a seat's part are from the seat's start; ``tpos`` and ``dpos`` place a
    trick card and a die code in their one-hot or count blocks."""

    def __init__(self, D: HWData) -> None:
        t, k = len(D.trick_cards), len(D.cards)
        glob, seat, market, pend = _sizes(D)
        self.size = glob + MAX_PLAYERS * seat + market + pend
        self.zeros = array("d", bytes(8 * self.size))  # copied per observation
        self.every = array("q", range(self.size))      # its indices, one run
        self.glob, self.seat = glob, seat
        self.step_at = 2 + len(PHASE_NAMES) - 1  # + step (1..6)
        self.bag_at = 2 + len(PHASE_NAMES) + 6
        self.bag_div = [max(1, c.count) for c in D.colours]
        self.tpos = {v: i for i, v in enumerate(D.trick_cards)}
        self.dpos = {d: (d // 10) * D.faces + d % 10 - 1 for d in D.codes}
        self.hand = {v: 1 + i for v, i in self.tpos.items()}
        self.played = {v: 1 + t + i for v, i in self.tpos.items()}
        self.keys = {v: 1 + 2 * t + i for v, i in self.tpos.items()}
        self.waiting = 1 + 3 * t
        self.dice = self.waiting + 5
        self.crew = self.dice + len(D.colours) * D.faces
        self.active = self.crew + k
        self.done = self.active + 3 * k
        self.influence = self.done + k
        self.tasks = [max(1, len(c.tasks)) for c in D.cards]
        self.markers = max(1, D.max_markers)
        self.market = glob + MAX_PLAYERS * seat
        self.k = k
        self.decks = (max(1, len(D.crew_deck)), max(1, len(D.quest_deck)))
        self.pend = self.market + market
        self.mine = self.pend + 11
        self.chosen = self.mine + t


_LAYOUTS: dict[int, tuple[HWData, _Layout]] = {}


def _layout(D: HWData) -> _Layout:
    hit = _LAYOUTS.get(id(D))
    if hit is None or hit[0] is not D:
        hit = _LAYOUTS[id(D)] = (D, _Layout(D))
    return hit[1]


THIRD = 1.0 / 3  # a die's weight in a dice count (3 dice: 1.0)


def observation_sparse(s: HighWaterState, player: int) -> SparseObservation:
    """What ``player`` sees, in sparse form (``State.observation_sparse``; the core makes
    the dense list from it); seats are listed from ``player`` on (SPEC.md).

    Written for speed (an environment encodes one per step): a copy of a zeroed
    ``array("d")``, then only the values that are not zero, at offsets worked out once per
    data file (``_Layout``), handed back whole as one run of values from index 0 (numpy
    reads the array as it is; ``ones`` is empty). A value is computed by the same float
    operations, in the same order, as the plain encoding SPEC.md describes, so the floats
    are identical.
    """
    L = _layout(s.D)
    o = s.options
    n = s.n
    out = L.zeros[:]
    out[0] = s.rnd / o.max_rounds
    if s.high:
        out[1] = 1.0
    # the phase, the segment step, the trick's players and the open sub-decision, read
    # from the top of the stack once (the state's properties each look it up again)
    stack = s.steps
    top = stack[-1] if stack else None
    rule = RULES[top.kind] if top is not None else None
    phase = rule.phase if rule is not None else OVER
    out[2 + phase] = 1.0
    if phase == SEG:
        step = s.step
        if 1 <= step <= 6:
            out[L.step_at + step] = 1.0
    bag, bag_div, at = s.bag, L.bag_div, L.bag_at
    for c in range(len(bag_div)):
        out[at + c] = bag[c] / bag_div[c]
    if s.triggered:
        out[L.glob - 1] = 1.0
    trick = phase == TRICK
    waiting: tuple[int, ...] = (top.data[0] if top is not None and top.kind == "trick"
                                else ())
    order = s.order
    hand_at, played_at, keys_at, dpos = L.hand, L.played, L.keys, L.dpos
    tasks, markers, goal = L.tasks, L.markers, o.goal
    hands, played, keys, commit = s.hands, s.played, s.keys, s.commit
    gold, rum, dice, crew, quests = s.gold, s.rum, s.dice, s.crew, s.quests
    done_q, influence, won, last = s.done_q, s.influence, s.won, s.last
    w_at, dice_at, crew_at, active_at = L.waiting, L.dice, L.crew, L.active
    done_at, infl_at = L.done, L.influence
    b = L.glob
    for k in range(n):
        p = (player + k) % n
        out[b] = 1.0
        for c in hands[p]:
            out[b + hand_at[c]] = 1.0
        for c in played[p]:
            out[b + played_at[c]] = 1.0
        for c in keys[p]:
            out[b + keys_at[c]] = 1.0
        w = b + w_at
        if p in waiting:
            out[w] = 1.0
        if trick and commit[p] >= 0:
            out[w + 1] = 1.0
        out[w + 2] = order.index(p) / n if p in order else -1.0
        out[w + 3] = gold[p] / 10
        out[w + 4] = rum[p] / 10
        at = b + dice_at
        for d in dice[p]:
            out[at + dpos[d]] += THIRD
        at = b + crew_at
        for c in crew[p]:
            out[at + c] += 1.0
        at = b + active_at
        for cid, done, marks in quests[p]:
            i = at + 3 * cid
            out[i] = 1.0
            out[i + 1] = done / tasks[cid]
            out[i + 2] = marks / markers
        at = b + done_at
        for c in done_q[p]:
            out[at + c] = 1.0
        at = b + infl_at
        out[at] = influence[p] / goal
        if p == won:
            out[at + 1] = 1.0
        if p == last:
            out[at + 2] = 1.0
        b += L.seat
    at = L.market
    for c in s.crew_row:
        if c >= 0:
            out[at + c] += 1.0
    at += L.k
    for c in s.quest_row:
        if c >= 0:
            out[at + c] += 1.0
    at += L.k
    out[at] = len(s.crew_deck) / L.decks[0]
    out[at + 1] = len(s.quest_deck) / L.decks[1]
    # the open sub-decision (kind one-hot, then my secret card in a trick, then the dice
    # it concerns: chosen for a re-roll or payment)
    if phase == SEG:
        if isinstance(rule, Choice):
            assert top is not None
            open_ = top
            kind = open_.kind
            out[L.pend + CHOICES.index(kind)] = 1.0
            if kind == "reroll" or kind == "pay":
                picked = open_.data[2] if kind == "reroll" else open_.data[3]
                hold = s.dice[open_.player]
                at = L.chosen
                for i in picked:
                    out[at + dpos[hold[i]]] += THIRD
    else:
        out[L.pend + 10] = 1.0
        if trick and s.commit[player] >= 0:
            out[L.mine + L.tpos[s.commit[player]]] = 1.0
    return (), L.every[:], out
