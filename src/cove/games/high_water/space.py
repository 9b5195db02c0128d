"""High Water's fixed action space and the observation's size and parts (see SPEC.md; the
observation itself is encoded in observe.py).

The action universe lists every action a configuration can offer, built from the data file:
trick cards, crates, die codes, card names, seats and faces. A crate pick is keyed by the
crate number alone (its dice differ every round); every other action is its own key, since
its fields are already drawn from finite tables.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from cove.core.options import Options
from cove.games.high_water.actions import (
    END,
    NEXT,
    ROLL,
    STOP,
    Cycle,
    Face,
    Take,
)
from cove.games.high_water.common import PHASE_NAMES
from cove.games.high_water.data import HWData, get
from cove.games.high_water.tables import tables

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

