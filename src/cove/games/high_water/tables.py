"""Tables built once per data file for the hot paths: every action value the rules can
offer, ready made, and the per-colour die actions.

An action is a small frozen dataclass; building one costs more than looking it up, and the
legal lists are rebuilt at almost every decision. The values here are equal to (and have
the same text as) the ones the rules would build, so sharing them changes nothing but speed.
Each card's cost is also kept ready for the quick check of a hold (``common.affords``).
"""

from __future__ import annotations

from dataclasses import dataclass

from cove.games.high_water.actions import (
    Activate,
    Advance,
    Buy,
    Extra,
    Mark,
    Pay,
    Pick,
    Play,
    Remove,
    Return,
    Target,
    Use,
)
from cove.games.high_water.common import Pattern, pattern
from cove.games.high_water.data import HWData


@dataclass(frozen=True, slots=True)
class Tables:
    """Ready-made actions of one data file, by die code or card id."""

    use: dict[int, Use]
    mark: dict[int, Mark]
    pick: dict[int, Pick]
    pay: dict[int, Pay]
    ret: dict[int, Return]
    play: dict[tuple[int, int], Play]  # (re-reveal, card)
    activate: dict[int, Activate]
    buy: dict[int, Buy]
    advance: dict[int, Advance]  # a quest's task without a die
    advance_die: dict[tuple[int, int], Advance]  # (quest, die code)
    remove: dict[int, Remove]
    extra: dict[int, Extra]
    target: dict[tuple[int, int], Target]  # (seat, quest)
    pattern: tuple[Pattern, ...]  # each card's cost, by card id


MAX_SEATS = 5

_CACHE: dict[int, tuple[HWData, Tables]] = {}


def tables(D: HWData) -> Tables:
    """The tables of ``D`` (built on first use; kept with ``D`` so the key stays unique)."""
    hit = _CACHE.get(id(D))
    if hit is not None and hit[0] is D:
        return hit[1]
    lab = D.label
    codes = D.codes
    cards = D.cards
    quests = [c for c in cards if c.kind == "quest"]
    t = Tables(
        use={d: Use(d, lab[d]) for d in codes},
        mark={d: Mark(d, lab[d]) for d in codes},
        pick={d: Pick(d, lab[d]) for d in codes},
        pay={d: Pay(d, lab[d]) for d in codes},
        ret={d: Return(d, lab[d]) for d in codes},
        play={(r, v): Play(v, r) for r in range(len(D.trick_cards)) for v in D.trick_cards},
        activate={c.id: Activate(c.key) for c in cards},
        buy={c.id: Buy(c.key) for c in cards},
        advance={c.id: Advance(c.key) for c in quests},
        advance_die={(c.id, d): Advance(c.key, lab[d], d) for c in quests for d in codes},
        remove={c.id: Remove(c.key) for c in quests},
        extra={c.id: Extra(c.key) for c in quests},
        target={(o, c.id): Target(o, c.key) for o in range(MAX_SEATS) for c in quests},
        pattern=tuple(pattern(c.match_order, codes) for c in cards),
    )
    _CACHE[id(D)] = (D, t)
    return t
