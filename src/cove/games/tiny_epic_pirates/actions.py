"""Actions: one small frozen value per decision; ``str(a)`` is its stable text form.

Every action is an :class:`Act` whose ``kind`` says which decision it answers and whose
``a``/``b``/``c`` say how; the text is built once when the legal list is made. The text is
part of equality: the same numbers can mean a different thing in another state (``a`` is a
position in the crew line, a target index, a sail direction), so an action kept from an
earlier state whose text no longer matches is not legal now, and the record never stores
a text the move did not have.

The action space (SPEC.md "Action space") numbers the keys ``(kind, a, b, c)``: two
actions legal at the same moment never share one, so the key is injective at any moment
while the universe stays small (see :func:`universe`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from cove.core.options import Options
from cove.games.tiny_epic_pirates import data as D

# Action kinds.
(
    A_NAVY_SETUP, A_COVE, A_SIDE, A_WHEEL, A_PAY, A_ASSIGN, A_SAIL, A_TOKEN, A_STOP,
    A_JOSTLE, A_DO, A_SKIP, A_KEEP, A_REFRESH, A_MUTINY, A_TAKE, A_DONE, A_SUREFIRE,
    A_REROLL, A_FIRE, A_DIST, A_BONUS, A_PORT, A_NAVY, A_LOSE, A_MOVE,
) = range(26)

KIND_NAMES = (
    "navy_setup", "cove", "side", "wheel", "pay", "assign", "sail", "token", "stop",
    "jostle", "do", "skip", "keep", "refresh", "mutiny", "take", "done", "surefire",
    "reroll", "fire", "dist", "bonus", "port", "navy", "lose", "move",
)

Key = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Act:
    kind: int
    a: int = 0
    b: int = 0
    c: int = 0
    text: str = ""

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "sail", "a": 0, "b": 0, "c": 0, "text": "sail north to b2"}``."""
        return {"kind": KIND_NAMES[self.kind], "a": self.a, "b": self.b, "c": self.c,
                "text": self.text}


def action_key(act: Any) -> Key:
    """The action-space key of a legal action: its numbers without the text."""
    assert isinstance(act, Act)
    return (act.kind, act.a, act.b, act.c)


MAX_DICE = 3        # the Legend Track's largest dice count (data.py checks 1..3)
MAX_TARGETS = 5     # 2 Merchants and 3 other Pirate Ships on one card


def _ways(b: int, c: int) -> list[Key]:
    """Keys of order/bonus ``b`` carried out by ``c`` (-2 the Order, -1 the Captain, else a
    crew card): the second number is a trade count or an attack target."""
    kind = A_DO if c == -2 else A_BONUS
    if b == D.TRADE:
        return [(kind, b, n, c) for n in (1, 2, 3)]
    if b == D.ATTACK:
        return [(kind, b, i, c) for i in range(MAX_TARGETS)]
    return [(kind, b, 0, c)]


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action key a configuration can offer, in a fixed order (SPEC.md)."""
    name = getattr(options, "ruleset", D.DEFAULT)
    R = D.ruleset(name)
    out: list[Key] = []
    out += [(A_NAVY_SETUP, c, 0, 0) for c in (0, 3, 12, 15)]
    out += [(A_COVE, i, 0, 0) for i in range(16)]
    out += [(A_SIDE, s, 0, 0) for s in (0, 1)]
    out += [(A_WHEEL, d, 0, 0) for d in range(6)]
    out += [(A_PAY, j, 0, 0) for j in range(4)]
    out += [(A_ASSIGN, j, 0, 0) for j in range(4)]
    out += [(A_SAIL, d, 0, 0) for d in range(4)]
    sail = sorted({amt for kind, amt in R.search if kind == D.S_SAIL})
    out += [(A_TOKEN, amt, 0, 0) for amt in sail]
    out += [(A_STOP, 0, 0, 0)]
    out += [(A_JOSTLE, j, 0, 0) for j in (0, 1, 2, 10, 11, 12, 13, 14, 15)]
    for o in range(len(D.ORDERS)):
        out += _ways(o, -2)
    out += [(A_SKIP, 0, 0, 0)]
    out += [(A_KEEP, t, 0, 0) for t in range(-1, D.BOOTY_TYPES)]
    out += [(A_REFRESH, 0, 0, 0), (A_MUTINY, 0, 0, 0)]
    out += [(A_TAKE, i, j, 0) for i in range(3) for j in range(-1, 4)]
    out += [(A_DONE, 0, 0, 0)]
    out += [(A_SUREFIRE, i, g, 0) for i in range(MAX_DICE) for g in range(1, 7)]
    out += [(A_REROLL, m, 0, 0) for m in range(1, 1 << MAX_DICE)]
    out += [(A_FIRE, 0, 0, 0)]
    out += _ways(D.BURY, -1) + _ways(D.ATTACK, -1) + _ways(D.PLUNDER, -1)
    for cid, crew in enumerate(R.crew):
        for b in sorted(set(crew.bonus) - {D.REROLL}):
            out += _ways(b, cid)
    out += [(A_PORT, i, 0, 0) for i in (0, 1)]
    out += [(A_NAVY, d, 0, 0) for d in range(4)]
    out += [(A_LOSE, t, 0, 0) for t in range(D.BOOTY_TYPES)]
    out += [(A_MOVE, src, j, 0) for src in (0, 1, 2, 3, 10, 11, 12, 13, 14, 15)
            for j in range(3) if j != src]
    return list(out)
