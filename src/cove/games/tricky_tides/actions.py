"""Actions: every action is one small int (a frozen value) with a stable text form.

Why ints rather than dataclasses: the engine checks ``action in legal_actions`` on every
``apply`` and bots compare and hash actions millions of times. An ``int`` subclass keeps
those comparisons in C, is immutable and hashable, and ``str(action)`` still gives the
text form that the CLI, records and the web use. All action values are created once here
(``ACT[code]``), so a legal action list is a tuple of shared objects.

Codes (issue 3 may append new kinds from ``NEXT_FREE`` on):

====================  ==========  =======================
kind                  codes       text
====================  ==========  =======================
play a card           0..31       ``play 5 sharks``
sail a heading        32..39      ``sail ne``
drop the anchor       40          ``drop anchor``
stop on open sea      41          ``stop at sea``
sail on to the island 42          ``sail on``
pick up a goods type  43..47      ``pick up sugar``
deliver the order     48          ``deliver``
do nothing            49          ``pass``
throw goods overboard 50..54      ``overboard silk``
place ship at start   55..66      ``start b2``
====================  ==========  =======================
"""

from __future__ import annotations

from cove.games.tricky_tides.data import DATA, GOODS_TYPES, NAV_CARDS, VALUES
from cove.games.tricky_tides.geometry import CELL_NAMES, CELLS, HEADINGS


def plural(name: str) -> str:
    return name + ("es" if name.endswith("s") else "s")


SUIT_PLURALS = tuple(plural(s) for s in DATA.suits)
CARD_TEXT = tuple(f"{c % VALUES + 1} {SUIT_PLURALS[c // VALUES]}" for c in range(NAV_CARDS))

PLAY = 0
SAIL = PLAY + NAV_CARDS            # 32
ANCHOR = SAIL + 8                  # 40
STOP = ANCHOR + 1                  # 41
ONWARD = STOP + 1                  # 42
PICK = ONWARD + 1                  # 43
DELIVER = PICK + GOODS_TYPES       # 48
PASS = DELIVER + 1                 # 49
DROP = PASS + 1                    # 50
START = DROP + GOODS_TYPES         # 55
NEXT_FREE = START + CELLS          # 67

TEXT: list[str] = (
    [f"play {t}" for t in CARD_TEXT]
    + [f"sail {h}" for h in HEADINGS]
    + ["drop anchor", "stop at sea", "sail on"]
    + [f"pick up {g}" for g in DATA.goods]
    + ["deliver", "pass"]
    + [f"overboard {g}" for g in DATA.goods]
    + [f"start {c}" for c in CELL_NAMES]
)
assert len(TEXT) == NEXT_FREE


class Act(int):
    """One action. ``int(a)`` is its code, ``str(a)`` its text form."""

    __slots__ = ()

    def __str__(self) -> str:
        return TEXT[self]

    def __repr__(self) -> str:
        return f"Act({TEXT[self]!r})"


ACT: tuple[Act, ...] = tuple(Act(i) for i in range(NEXT_FREE))
