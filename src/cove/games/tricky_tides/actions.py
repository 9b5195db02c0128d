"""Actions in the int-coded form (:class:`cove.core.actions.CodedAction`): every action is
one small int whose text and JSON form come from the frozen value it was declared as.

Why ints rather than the dataclasses themselves: the engine checks ``action in
legal_actions`` on every ``apply`` and bots compare and hash actions millions of times. An
``int`` subclass keeps those comparisons in C, is immutable and hashable, and ``str(action)``
still gives the text form that the CLI, records and the web use. :data:`TABLE` numbers the
values below in the order declared, and every action is created once there (``ACT[code]``),
so a legal action list is a tuple of shared objects.

Codes (the base game's kinds, then those of the modules and of set-up options); each kind
is one run of codes from ``TABLE.start(kind)``, and the rules compute a code as that start
plus an index:

=============================  ==========  ===================================
kind                           codes       text
=============================  ==========  ===================================
:class:`Play` a card           0..31       ``play 5 sharks``: suit * 8 + value - 1
:class:`Sail` a heading        32..39      ``sail ne``
:class:`DropAnchor`            40          ``drop anchor``
:class:`StopAtSea`             41          ``stop at sea``
:class:`SailOn` to the island  42          ``sail on``
:class:`PickUp` a goods type   43..47      ``pick up sugar``
:class:`Deliver` the order     48          ``deliver``
:class:`Pass`                  49          ``pass``
:class:`Overboard`             50..54      ``overboard silk``
:class:`Start` (placement)     55..66      ``start b2``
:class:`StayDocked` (event)    67          ``stay docked``
:class:`PickUpPair` (event)    68..77      ``pick up sugar and silk``
:class:`DeliverAndPay` (event) 78..81      ``deliver and pay 1 sugar``
:class:`MonsterOrder`          82..89      ``shark: move first``: suit * 2 + (0 move, 1 ability)
:class:`MoveMonster`           90..137     ``move the shark to b2``: suit * 12 + cell
:class:`SharkTakes`            138..153    ``shark takes coffee from p2``: seat * 4 + non-gold
:class:`SharkEats`             154..157    ``shark eats the coffee``
:class:`OctopusMoves`          158..205    ``octopus moves silk to b3``: non-gold * 12 + cell
:class:`OctopusGrabs`          206..221    ``octopus grabs silk from p2``: seat * 4 + non-gold
:class:`DragonSwaps`           222..233    ``sea dragon swaps orders with b3``
:class:`WhaleSpouts`           234..241    ``whale spouts ne``
:class:`FirstLeader` (set-up)  242..245    ``first leader p2``
=============================  ==========  ===================================

Codes 67..241 belong to the event and monster modules; 242..245 to the set-up option
``first_leader=ask``. The JSON form is derived from each value's fields, except for the
two kinds that share another's JSON kind (:class:`PickUpPair` is a ``pick_up`` of two
types, :class:`DeliverAndPay` a ``deliver`` with a ``tax``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from cove.core import ActionTable, CodedAction, mypyc_attr, pickle_by_fields
from cove.games.tricky_tides.constants import SEATS
from cove.games.tricky_tides.data import DATA, GOLD, GOODS_TYPES, NAV_CARDS, NONGOLD, VALUES
from cove.games.tricky_tides.geometry import CELL_NAMES, HEADINGS

if TYPE_CHECKING:
    from cove.core import Options


def plural(name: str) -> str:
    return name + ("es" if name.endswith("s") else "s")


def card_text(suit: str, value: int) -> str:
    """``1 octopus``, ``5 octopuses``: the suit name is singular for the value 1."""
    return f"{value} {suit if value == 1 else plural(suit)}"


SUITS: Final = DATA.suits
SUIT_PLURALS: Final = tuple(plural(s) for s in SUITS)
CARD_TEXT: Final = tuple(card_text(SUITS[c // VALUES], c % VALUES + 1) for c in range(NAV_CARDS))
"""The text of each card code."""
PAIRS: Final = tuple((a, b) for a in range(GOODS_TYPES) for b in range(a + 1, GOODS_TYPES))
PAIR_INDEX: Final = {pair: i for i, pair in enumerate(PAIRS)}
NONGOLD_TYPES: Final = len(NONGOLD)
"""How many non-gold goods types there are (the actions that name one count in them)."""
_GOODS: Final = DATA.goods
assert GOLD not in NONGOLD


# -- the action values, one frozen dataclass per kind ---------------------------------------------
@dataclass(frozen=True, slots=True)
class Play:
    """R3: play a card of your hand to the hand."""

    suit: str
    value: int

    def __str__(self) -> str:
        return f"play {card_text(self.suit, self.value)}"


@dataclass(frozen=True, slots=True)
class Sail:
    """R5: sail one card in a heading the played card allows."""

    heading: str

    def __str__(self) -> str:
        return f"sail {self.heading}"


@dataclass(frozen=True, slots=True)
class DropAnchor:
    """R5.4: spend the anchor and stay docked."""

    def __str__(self) -> str:
        return "drop anchor"


@dataclass(frozen=True, slots=True)
class StopAtSea:
    """R5.6: stop on the open-sea card the ship has entered."""

    def __str__(self) -> str:
        return "stop at sea"


@dataclass(frozen=True, slots=True)
class SailOn:
    """R5.6: keep going across open sea towards the next island."""

    def __str__(self) -> str:
        return "sail on"


@dataclass(frozen=True, slots=True)
class PickUp:
    """R6.1: take all goods of one type from the island."""

    goods: tuple[str, ...]

    def __str__(self) -> str:
        return f"pick up {self.goods[0]}"


@dataclass(frozen=True, slots=True)
class Deliver:
    """R6.3: deliver the island's order."""

    def __str__(self) -> str:
        return "deliver"


@dataclass(frozen=True, slots=True)
class Pass:
    """R6.4: neither pick up nor deliver."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Overboard:
    """R7.1: throw one good over the side (over the hold limit)."""

    goods: str

    def __str__(self) -> str:
        return f"overboard {self.goods}"


@dataclass(frozen=True, slots=True)
class Start:
    """R2.8: place your ship on an island of your colour."""

    cell: str

    def __str__(self) -> str:
        return f"start {self.cell}"


@dataclass(frozen=True, slots=True)
class StayDocked:
    """R13.3 Calm Seas: stay docked without spending the anchor."""

    def __str__(self) -> str:
        return "stay docked"


@dataclass(frozen=True, slots=True)
class PickUpPair:
    """R13.10 Smugglers: take all goods of two types (JSON: a ``pick_up`` of both)."""

    goods: tuple[str, str]

    def __str__(self) -> str:
        return f"pick up {self.goods[0]} and {self.goods[1]}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "pick_up", "goods": list(self.goods)}


@dataclass(frozen=True, slots=True)
class DeliverAndPay:
    """R13.11 Harbor Tax: deliver, paying one more non-gold good (JSON: a ``deliver`` with
    its ``tax``)."""

    tax: str

    def __str__(self) -> str:
        return f"deliver and pay 1 {self.tax}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "deliver", "tax": self.tax}


@dataclass(frozen=True, slots=True)
class MonsterOrder:
    """R14.4: whether the activated monster moves or uses its ability first."""

    monster: str
    first: str

    def __str__(self) -> str:
        return f"{self.monster}: {self.first} first"


@dataclass(frozen=True, slots=True)
class MoveMonster:
    """R14.5: move the activated monster to an island."""

    monster: str
    cell: str

    def __str__(self) -> str:
        return f"move the {self.monster} to {self.cell}"


@dataclass(frozen=True, slots=True)
class SharkTakes:
    """R15.1 (shark=holds): a ship on the shark's island returns a good to the bag."""

    goods: str
    player: int

    def __str__(self) -> str:
        return f"shark takes {self.goods} from p{self.player + 1}"


@dataclass(frozen=True, slots=True)
class SharkEats:
    """R15.1 (shark=island): all goods of one type on the shark's island go to the bag."""

    goods: str

    def __str__(self) -> str:
        return f"shark eats the {self.goods}"


@dataclass(frozen=True, slots=True)
class OctopusMoves:
    """R15.2 (octopus=move): move one type's goods to an adjacent island."""

    goods: str
    cell: str

    def __str__(self) -> str:
        return f"octopus moves {self.goods} to {self.cell}"


@dataclass(frozen=True, slots=True)
class OctopusGrabs:
    """R15.2 (octopus=grab): take a good from a ship onto the octopus's island."""

    goods: str
    player: int

    def __str__(self) -> str:
        return f"octopus grabs {self.goods} from p{self.player + 1}"


@dataclass(frozen=True, slots=True)
class DragonSwaps:
    """R15.3 (sea_dragon=swap): swap orders with an adjacent island."""

    cell: str

    def __str__(self) -> str:
        return f"sea dragon swaps orders with {self.cell}"


@dataclass(frozen=True, slots=True)
class WhaleSpouts:
    """R15.4: the whale's goods land in a line in a heading."""

    heading: str

    def __str__(self) -> str:
        return f"whale spouts {self.heading}"


@dataclass(frozen=True, slots=True)
class FirstLeader:
    """R2.4 (first_leader=ask): the table names the first leader."""

    player: int

    def __str__(self) -> str:
        return f"first leader p{self.player + 1}"


@mypyc_attr(native_class=False)  # an int: a Python class in the compiled build too
class Act(CodedAction):
    """One action. ``int(a)`` is its code, ``str(a)`` its text form, ``a.to_json()`` its
    JSON form, ``a.declared()`` the value above it stands for. ``Act.of(code)`` is the
    shared instance (how a stored state reads one back), so actions compare and hash as
    the small ints they are."""

    __slots__ = ()


TABLE: Final = ActionTable(Act, [
    *(Play(SUITS[c // VALUES], c % VALUES + 1) for c in range(NAV_CARDS)),
    *(Sail(h) for h in HEADINGS),
    DropAnchor(), StopAtSea(), SailOn(),
    *(PickUp((g,)) for g in _GOODS),
    Deliver(), Pass(),
    *(Overboard(g) for g in _GOODS),
    *(Start(c) for c in CELL_NAMES),
    StayDocked(),
    *(PickUpPair((_GOODS[a], _GOODS[b])) for a, b in PAIRS),
    *(DeliverAndPay(_GOODS[t]) for t in NONGOLD),
    *(MonsterOrder(m, w) for m in SUITS for w in ("move", "ability")),
    *(MoveMonster(m, c) for m in SUITS for c in CELL_NAMES),
    *(SharkTakes(_GOODS[t], q) for q in range(SEATS) for t in NONGOLD),
    *(SharkEats(_GOODS[t]) for t in NONGOLD),
    *(OctopusMoves(_GOODS[t], c) for t in NONGOLD for c in CELL_NAMES),
    *(OctopusGrabs(_GOODS[t], q) for q in range(SEATS) for t in NONGOLD),
    *(DragonSwaps(c) for c in CELL_NAMES),
    *(WhaleSpouts(h) for h in HEADINGS),
    *(FirstLeader(q) for q in range(SEATS)),
])
pickle_by_fields(*{type(v) for v in TABLE.values})  # compiled: pickled by their fields
ACT: Final = TABLE.actions
"""``ACT[code]``: the shared action with that code."""

PLAY: Final = TABLE.start(Play)                    # 0: card code
SAIL: Final = TABLE.start(Sail)                    # 32: heading
ANCHOR: Final = TABLE.start(DropAnchor)            # 40
STOP: Final = TABLE.start(StopAtSea)               # 41
ONWARD: Final = TABLE.start(SailOn)                # 42
PICK: Final = TABLE.start(PickUp)                  # 43: goods type
DELIVER: Final = TABLE.start(Deliver)              # 48
PASS: Final = TABLE.start(Pass)                    # 49
DROP: Final = TABLE.start(Overboard)               # 50: goods type
START: Final = TABLE.start(Start)                  # 55: cell
STAY: Final = TABLE.start(StayDocked)              # 67
PICK2: Final = TABLE.start(PickUpPair)             # 68: index in PAIRS
TAX_DELIVER: Final = TABLE.start(DeliverAndPay)    # 78: non-gold index
M_ORDER: Final = TABLE.start(MonsterOrder)         # 82: suit * 2 + (0 move first, 1 ability first)
M_MOVE: Final = TABLE.start(MoveMonster)           # 90: suit * CELLS + cell
SHARK_TAKE: Final = TABLE.start(SharkTakes)        # 138: seat * NONGOLD_TYPES + non-gold index
SHARK_EAT: Final = TABLE.start(SharkEats)          # 154: non-gold index
OCTO_MOVE: Final = TABLE.start(OctopusMoves)       # 158: non-gold index * CELLS + cell
OCTO_GRAB: Final = TABLE.start(OctopusGrabs)       # 206: seat * NONGOLD_TYPES + non-gold index
DRAGON_SWAP: Final = TABLE.start(DragonSwaps)      # 222: cell
WHALE_SPOUT: Final = TABLE.start(WhaleSpouts)      # 234: heading
FIRST_LEADER: Final = TABLE.start(FirstLeader)     # 242: seat (option first_leader=ask)
END: Final = len(TABLE)                            # 246


def universe(players: int, options: Options) -> Sequence[Hashable]:
    """The action universe of every configuration: every action code 0..245 in order, so
    index i is the action ``ACT[i]`` (the same at every player count and option)."""
    return ACT
