"""Actions: every action is one small int (a frozen value) with a stable text form.

Why ints rather than dataclasses: the engine checks ``action in legal_actions`` on every
``apply`` and bots compare and hash actions millions of times. An ``int`` subclass keeps
those comparisons in C, is immutable and hashable, and ``str(action)`` still gives the
text form that the CLI, records and the web use. All action values are created once here
(``ACT[code]``), so a legal action list is a tuple of shared objects.

Codes (the base game's kinds, then from ``NEXT_FREE`` on those of the modules and of
set-up options):

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
stay docked (event)   67          ``stay docked``
pick up two types     68..77      ``pick up sugar and silk``
deliver paying tax    78..81      ``deliver and pay 1 sugar``
monster order         82..89      ``shark: move first`` / ``shark: ability first``
move a monster        90..137     ``move the shark to b2``
shark takes a good    138..153    ``shark takes coffee from p2``
shark eats a type     154..157    ``shark eats the coffee``
octopus moves goods   158..205    ``octopus moves silk to b3``
octopus grabs a good  206..221    ``octopus grabs silk from p2``
sea dragon swaps      222..233    ``sea dragon swaps orders with b3``
whale spouts          234..241    ``whale spouts ne``
first leader (set-up) 242..245    ``first leader p2``
====================  ==========  =======================

Codes 67..241 belong to the event and monster modules; 242..245 to the set-up option
``first_leader=ask``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from cove.core.errors import RecordError
from cove.games.tricky_tides.data import DATA, GOLD, GOODS_TYPES, NAV_CARDS, NONGOLD, VALUES
from cove.games.tricky_tides.geometry import CELL_NAMES, CELLS, HEADINGS

if TYPE_CHECKING:
    from cove.core.options import Options


def plural(name: str) -> str:
    return name + ("es" if name.endswith("s") else "s")


SUIT_PLURALS = tuple(plural(s) for s in DATA.suits)
# "1 octopus", "5 octopuses": the suit name is singular for the value 1
CARD_TEXT = tuple(
    f"{c % VALUES + 1} {DATA.suits[c // VALUES] if c % VALUES == 0 else SUIT_PLURALS[c // VALUES]}"
    for c in range(NAV_CARDS))

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
SEATS = 4
PAIRS = tuple((a, b) for a in range(GOODS_TYPES) for b in range(a + 1, GOODS_TYPES))
PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}
NG = len(NONGOLD)
SUITS = DATA.suits

STAY = NEXT_FREE                     # 67
PICK2 = STAY + 1                     # 68
TAX_DELIVER = PICK2 + len(PAIRS)     # 78
M_ORDER = TAX_DELIVER + NG           # 82: suit * 2 + (0 move first, 1 ability first)
M_MOVE = M_ORDER + 2 * len(SUITS)    # 90: suit * CELLS + cell
SHARK_TAKE = M_MOVE + len(SUITS) * CELLS   # 138: seat * NG + non-gold index
SHARK_EAT = SHARK_TAKE + SEATS * NG        # 154: non-gold index
OCTO_MOVE = SHARK_EAT + NG                 # 158: non-gold index * CELLS + cell
OCTO_GRAB = OCTO_MOVE + NG * CELLS         # 206: seat * NG + non-gold index
DRAGON_SWAP = OCTO_GRAB + SEATS * NG       # 222: cell
WHALE_SPOUT = DRAGON_SWAP + CELLS          # 234: heading
FIRST_LEADER = WHALE_SPOUT + len(HEADINGS)  # 242: seat (option first_leader=ask)
END = FIRST_LEADER + SEATS                  # 246
_G = DATA.goods
TEXT += (
    ["stay docked"]
    + [f"pick up {_G[a]} and {_G[b]}" for a, b in PAIRS]
    + [f"deliver and pay 1 {_G[t]}" for t in NONGOLD]
    + [f"{m}: {w} first" for m in SUITS for w in ("move", "ability")]
    + [f"move the {m} to {c}" for m in SUITS for c in CELL_NAMES]
    + [f"shark takes {_G[t]} from p{q + 1}" for q in range(SEATS) for t in NONGOLD]
    + [f"shark eats the {_G[t]}" for t in NONGOLD]
    + [f"octopus moves {_G[t]} to {c}" for t in NONGOLD for c in CELL_NAMES]
    + [f"octopus grabs {_G[t]} from p{q + 1}" for q in range(SEATS) for t in NONGOLD]
    + [f"sea dragon swaps orders with {c}" for c in CELL_NAMES]
    + [f"whale spouts {h}" for h in HEADINGS]
    + [f"first leader p{q + 1}" for q in range(SEATS)]
)
assert len(TEXT) == END and GOLD not in NONGOLD




def _json_forms() -> list[dict[str, Any]]:
    """The JSON form of every code, ``{"kind": ..., <parameters>}`` (names, not codes)."""
    g, cells, heads = DATA.goods, CELL_NAMES, HEADINGS
    out: list[dict[str, Any]] = []
    out += [{"kind": "play", "suit": DATA.suits[c // VALUES], "value": c % VALUES + 1}
            for c in range(NAV_CARDS)]
    out += [{"kind": "sail", "heading": h} for h in heads]
    out += [{"kind": "drop_anchor"}, {"kind": "stop_at_sea"}, {"kind": "sail_on"}]
    out += [{"kind": "pick_up", "goods": [x]} for x in g]
    out += [{"kind": "deliver"}, {"kind": "pass"}]
    out += [{"kind": "overboard", "goods": x} for x in g]
    out += [{"kind": "start", "cell": c} for c in cells]
    out += [{"kind": "stay_docked"}]
    out += [{"kind": "pick_up", "goods": [g[a], g[b]]} for a, b in PAIRS]
    out += [{"kind": "deliver", "tax": g[t]} for t in NONGOLD]
    out += [{"kind": "monster_order", "monster": m, "first": w}
            for m in SUITS for w in ("move", "ability")]
    out += [{"kind": "move_monster", "monster": m, "cell": c} for m in SUITS for c in cells]
    out += [{"kind": "shark_takes", "goods": g[t], "player": q}
            for q in range(SEATS) for t in NONGOLD]
    out += [{"kind": "shark_eats", "goods": g[t]} for t in NONGOLD]
    out += [{"kind": "octopus_moves", "goods": g[t], "cell": c}
            for t in NONGOLD for c in cells]
    out += [{"kind": "octopus_grabs", "goods": g[t], "player": q}
            for q in range(SEATS) for t in NONGOLD]
    out += [{"kind": "dragon_swaps", "cell": c} for c in cells]
    out += [{"kind": "whale_spouts", "heading": h} for h in heads]
    out += [{"kind": "first_leader", "player": q} for q in range(SEATS)]
    return out


JSON = _json_forms()
assert len(JSON) == END


class Act(int):
    """One action. ``int(a)`` is its code, ``str(a)`` its text form, ``a.to_json()`` its
    JSON form. ``Act.of(code)`` is the shared instance (how a stored state reads one back),
    so actions compare and hash as the small ints they are."""

    __slots__ = ()

    def __str__(self) -> str:
        return TEXT[self]

    def __repr__(self) -> str:
        return f"Act({TEXT[self]!r})"

    def to_json(self) -> dict[str, Any]:
        return dict(JSON[self])

    @classmethod
    def of(cls, code: int) -> Act:
        if not 0 <= code < END:
            raise RecordError(f"tricky-tides has no action with code {code}")
        return ACT[code]


ACT: tuple[Act, ...] = tuple(Act(i) for i in range(END))


def universe(players: int, options: Options) -> Sequence[Hashable]:
    """The action universe of every configuration: every action code 0..245 in order, so
    index i is the action ``ACT[i]`` (the same at every player count and option)."""
    return ACT
