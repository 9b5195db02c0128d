"""High Water's fixed action space and the observation's size and parts (see SPEC.md; the
observation itself is encoded in observe.py).

The action universe lists every action a configuration can offer, built from the data file:
trick cards, crates, die codes, card names, seats and faces. A crate pick is keyed by the
crate number alone (its dice differ every round); every other action by its text, which is
unique among them all.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from cove.core.options import Options
from cove.games.high_water import actions
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
    """Every action key, in a fixed order (SPEC.md, "Action space"): an action's text
    (``str(action)``, unique among all the actions a configuration can offer), except a
    crate pick, keyed by ``("take", crate)``. Texts hash once (a string keeps its hash),
    where a frozen dataclass's hash is a Python call per look-up; the rules' ready-made
    actions (tables.py) find their text by identity (``action_key``)."""
    D = _data(options)
    T = tables(D)
    codes = list(D.codes)
    crew = [c.id for c in D.cards if c.kind != "quest"]
    quests = [c.id for c in D.cards if c.kind == "quest"]
    cards = [c.key for c in D.cards]
    rounds = 1 + min(int(getattr(options, "tie_rereveals", 0)), len(D.trick_cards) - 1)
    acts: list[Any] = [T.play[r, v] for r in range(rounds) for v in D.trick_cards]
    takes = len(acts)
    acts += [T.activate[c] for c in crew]
    acts += [T.use[d] for d in codes]
    acts += [T.mark[d] for d in codes]
    acts.append(ROLL)
    acts += [T.pick[d] for d in codes]
    acts += [Face(f) for f in range(1, D.faces + 1)]
    acts += [Cycle(k) for k in cards]
    acts += [T.buy[c.id] for c in D.cards]
    acts += [T.pay[d] for d in codes]
    for q in quests:
        acts.append(T.advance[q])
        acts += [T.advance_die[q, d] for d in codes]
    acts += [T.target[o, q] for o in range(players) for q in quests]
    acts += [T.remove[q] for q in quests]
    acts += [T.extra[q] for q in quests]
    acts += [T.ret[d] for d in codes]
    acts += [NEXT, STOP, END]
    # every other ready-made action too (a play of a later re-reveal, a sabotage target
    # of a seat past ``players``): a key found by identity is only ever its own text
    texts = _TEXTS
    for table in (T.play, T.activate, T.use, T.mark, T.pick, T.buy, T.pay, T.advance,
                  T.advance_die, T.target, T.remove, T.extra, T.ret):
        for a in table.values():
            texts[id(a)] = (a, str(a))
    for a in acts:
        texts[id(a)] = (a, str(a))
    out: list[Hashable] = [str(a) for a in acts[:takes]]
    out += [("take", i) for i in range(players)]
    out += [str(a) for a in acts[takes:]]
    return out


_TEXTS: dict[int, tuple[Any, str]] = {}
"""id(action) -> (action, its text) for the ready-made actions (they live as long as their
tables) and the universe's own values; the action is kept, so its id is never reused."""


def action_key(action: Any) -> Hashable:
    """``action``'s key in the universe: its text, found by identity for a ready-made
    action (no hash of its fields), or ``("take", crate)`` for a crate pick."""
    hit = _TEXTS.get(id(action))
    if hit is not None and hit[0] is action:
        return hit[1]
    if type(action) is Take:
        return ("take", action.crate)
    if type(action) in _KINDS:
        return str(action)
    return (action,)  # not a High Water action: no key is a 1-tuple, so it is refused


_KINDS = frozenset(v for v in vars(actions).values()
                   if isinstance(v, type) and v.__module__ == actions.__name__)
"""High Water's action classes."""


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

