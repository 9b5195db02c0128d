"""High Water's fixed action space and observation encoding (see SPEC.md).

The action universe lists every action a configuration can offer, built from the data file:
trick cards, crates, die codes, card names, seats and faces. A crate pick is keyed by the
crate number alone (its dice differ every round); every other action is its own key, since
its fields are already drawn from finite tables.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from cove.core.options import Options
from cove.games.high_water.actions import (
    END,
    NEXT,
    ROLL,
    STOP,
    Activate,
    Advance,
    Buy,
    Cycle,
    Extra,
    Face,
    Mark,
    Pay,
    Pick,
    Play,
    Remove,
    Return,
    Take,
    Target,
    Use,
)
from cove.games.high_water.common import PHASE_NAMES, SEG, TRICK
from cove.games.high_water.data import HWData, get
from cove.games.high_water.steps import CHOICES

if TYPE_CHECKING:
    from cove.games.high_water.state import HighWaterState

MAX_PLAYERS = 5


def _data(options: Options) -> HWData:
    return get(str(getattr(options, "data_file", "")))


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action key, in a fixed order (SPEC.md, "Action space")."""
    D = _data(options)
    codes = list(D.codes)
    crew = [c.key for c in D.cards if c.kind != "quest"]
    quests = [c.key for c in D.cards if c.kind == "quest"]
    cards = [c.key for c in D.cards]
    rounds = 1 + min(int(getattr(options, "tie_rereveals", 0)), len(D.trick_cards) - 1)
    out: list[Hashable] = [Play(v, r) for r in range(rounds) for v in D.trick_cards]
    out += [("take", i) for i in range(players)]
    out += [Activate(k) for k in crew]
    out += [Use(d, D.label[d]) for d in codes]
    out += [Mark(d, D.label[d]) for d in codes]
    out.append(ROLL)
    out += [Pick(d, D.label[d]) for d in codes]
    out += [Face(f) for f in range(1, D.faces + 1)]
    out += [Cycle(k) for k in cards]
    out += [Buy(k) for k in cards]
    out += [Pay(d, D.label[d]) for d in codes]
    for q in quests:
        out.append(Advance(q))
        out += [Advance(q, D.label[d], d) for d in codes]
    out += [Target(o, q) for o in range(players) for q in quests]
    out += [Remove(q) for q in quests]
    out += [Extra(q) for q in quests]
    out += [Return(d, D.label[d]) for d in codes]
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


def observation_size(players: int, options: Options) -> int:
    glob, seat, market, pend = _sizes(_data(options))
    return glob + MAX_PLAYERS * seat + market + pend


def observation(s: HighWaterState, player: int) -> list[float]:
    """What ``player`` sees, as floats; seats are listed from ``player`` on (SPEC.md)."""
    D = s.D
    o = s.options
    nt = len(D.trick_cards)
    tpos = {v: i for i, v in enumerate(D.trick_cards)}
    nd = len(D.colours) * D.faces
    nk = len(D.cards)
    glob, seat_size, _, _ = _sizes(D)
    out: list[float] = [s.rnd / o.max_rounds, 1.0 if s.high else 0.0]
    phase = s.phase
    out += [1.0 if phase == i else 0.0 for i in range(len(PHASE_NAMES))]
    step = s.step if phase == SEG else 0
    out += [1.0 if step == i else 0.0 for i in range(1, 7)]
    total = [c.count for c in D.colours]
    out += [s.bag[c] / max(1, total[c]) for c in range(len(D.colours))]
    out.append(1.0 if s.triggered else 0.0)
    assert len(out) == glob
    waiting = s.waiting

    def dice_vec(dice: list[int]) -> list[float]:
        v = [0.0] * nd
        for d in dice:
            v[(d // 10) * D.faces + d % 10 - 1] += 1.0 / 3
        return v

    for k in range(MAX_PLAYERS):
        if k >= s.n:
            out += [0.0] * seat_size
            continue
        p = (player + k) % s.n
        part: list[float] = [1.0]
        for pile in (s.hands[p], s.played[p], s.keys[p]):
            v = [0.0] * nt
            for c in pile:
                v[tpos[c]] = 1.0
            part += v
        part += [1.0 if p in waiting else 0.0,
                 1.0 if phase == TRICK and s.commit[p] >= 0 else 0.0,
                 s.order.index(p) / s.n if p in s.order else -1.0]
        part += [s.gold[p] / 10, s.rum[p] / 10]
        part += dice_vec(s.dice[p])
        crew = [0.0] * nk
        for c in s.crew[p]:
            crew[c] += 1.0
        part += crew
        active = [0.0] * (3 * nk)
        for cid, done, marks in s.quests[p]:
            active[3 * cid] = 1.0
            active[3 * cid + 1] = done / max(1, len(D.cards[cid].tasks))
            active[3 * cid + 2] = marks / max(1, D.max_markers)
        part += active
        done_v = [0.0] * nk
        for c in s.done_q[p]:
            done_v[c] = 1.0
        part += done_v
        part.append(s.influence[p] / o.goal)
        part += [1.0 if p == s.won else 0.0, 1.0 if p == s.last else 0.0]
        assert len(part) == seat_size
        out += part
    for row in (s.crew_row, s.quest_row):
        v = [0.0] * nk
        for c in row:
            if c >= 0:
                v[c] += 1.0
        out += v
    out += [len(s.crew_deck) / max(1, len(D.crew_deck)),
            len(s.quest_deck) / max(1, len(D.quest_deck))]
    # the open sub-decision (kind one-hot, then my secret card in a trick, then the dice
    # it concerns: chosen for a re-roll or payment)
    pend = [0.0] * 11
    chosen: list[int] = []
    open_ = s.pending
    if phase == SEG and open_ is not None:
        pend[CHOICES.index(open_.kind)] = 1.0
        if open_.kind in ("reroll", "pay"):
            picked = open_.data[2] if open_.kind == "reroll" else open_.data[3]
            chosen = [s.dice[open_.player][i] for i in picked]
    elif phase != SEG:
        pend[10] = 1.0
    mine = [0.0] * nt
    if phase == TRICK and s.commit[player] >= 0:
        mine[tpos[s.commit[player]]] = 1.0
    out += pend + mine + dice_vec(chosen)
    return out
