"""The three kinds of decision: draw the turn's segment, draw a bonus segment, or pass.

Actions are small int subclasses, one shared instance per code: equality and hashing run
in C, which matters because the engine checks every applied action against the legal list
and bots do so millions of times, and ``cove.core.serial`` stores them as ``{"i": class,
"v": code}`` and reads them back through ``of(code)`` as the same shared instance. The
code also tells a draw from a bonus along the same edge, and one island from the other::

    pass                      0
    draw along edge e         (island + 1) * ISLAND_SPAN + e
    bonus along edge e        (island + 1) * ISLAND_SPAN + BONUS_OFFSET + e

``str(a)`` is the text form (``draw i1-j2``, ``bonus i1-j2``, ``pass``); ``to_json()`` is
``{"kind": "draw", "ends": "i1-j2"}``. A plain int is never an action: ``apply`` requires
the exact type.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from cove.core.errors import IllegalAction, RecordError
from cove.core.options import Options
from cove.core.state import State

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState

ISLAND_SPAN = 4096
BONUS_OFFSET = 2048  # more edges than any island has

M = TypeVar("M", bound="Move")

_BY_CODE: dict[int, Move] = {}


class Move(int):
    """One decision; ``int(a)`` is its code (see the module docstring)."""

    KIND: ClassVar[str] = ""
    edge: int
    ends: str

    def __new__(cls: type[M], code: int, edge: int = -1, ends: str = "") -> M:
        self = super().__new__(cls, code)
        self.edge = edge
        self.ends = ends
        return self

    @classmethod
    def make(cls: type[M], code: int, edge: int = -1, ends: str = "") -> M:
        """The shared instance for ``code`` (made and registered on first use; a data file
        loaded again, as tests do, reuses the first one)."""
        have = _BY_CODE.get(code)
        if isinstance(have, cls) and have.edge == edge and have.ends == ends:
            return have
        move = cls(code, edge, ends)
        _BY_CODE.setdefault(code, move)
        return move

    @classmethod
    def of(cls: type[M], code: int) -> M:
        """The shared instance with this code (how a stored state reads an action back)."""
        move = _BY_CODE.get(code)
        if not isinstance(move, cls):
            raise RecordError(f"no {cls.__name__} action has code {code!r}")
        return move

    def __str__(self) -> str:
        return f"{self.KIND} {self.ends}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (_move_of, (int(self),))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "ends": self.ends}


class Draw(Move):
    """Draw the turn's segment along edge ``edge`` (its ends named like ``i1-j2``)."""

    KIND = "draw"


class Bonus(Move):
    """Draw a bonus segment (earned by a kind's last sight) anywhere on the island."""

    KIND = "bonus"


class Pass(Move):
    """No free segment matches the cards (or no free segment is left), or the rest of a
    bonus chain is declined: draw nothing."""

    KIND = "pass"

    def __str__(self) -> str:
        return "pass"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "pass"}


def _move_of(code: int) -> Move:
    return _BY_CODE[code]


PASS = Pass.make(0)

Action = Draw | Bonus | Pass
MOVE_TYPES = (Draw, Bonus, Pass)


def draw_code(island: int, edge: int) -> int:
    return (island + 1) * ISLAND_SPAN + edge


def bonus_code(island: int, edge: int) -> int:
    return (island + 1) * ISLAND_SPAN + BONUS_OFFSET + edge


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action of the island, in a fixed order: a draw along each edge, a bonus
    segment along each edge, then pass (size 2 x edges + 1; see SPEC.md)."""
    # data.py makes each island's actions from this module, so it is read here, when the
    # action space of a configuration is first made
    from cove.games.trails_of_tucana.data import TABLES
    from cove.games.trails_of_tucana.options import TucanaOptions

    assert isinstance(options, TucanaOptions)
    isl = TABLES.islands[options.map]
    return [*isl.draws, *isl.bonuses, PASS]


def legal_indices(state: TucanaState, player: int, legal: tuple[Hashable, ...]) -> list[int]:
    """``TucanaState._legal_indices``: the legal actions' indices (draws, then bonuses,
    then pass) from the island's own index of the actions, without looking the action
    space up by the options (``legal_mask`` is made from these)."""
    index = state.isl.action_index
    try:
        return [index[a] for a in legal]
    except KeyError:
        return State._legal_indices(state, player, legal)  # names the action in its error


def match_action(state: State, seat: int, action: Any, legal: tuple[Hashable, ...]) -> Hashable:
    """``TucanaState._match_action``: the core's matching, then the same text with the
    segment's ends the other way round: ``draw i3-j2`` finds ``draw j2-i3`` (R3.3); the
    move keeps its canonical text in the history and the record.

    First a short cut for the common case of search: ``action`` is the legal list's own
    element (moves are shared instances with unique codes, so ``index`` compares ints in
    C; the core's loop would return the same element after a str() each)."""
    if type(action) in MOVE_TYPES:
        try:
            found = legal[legal.index(action)]
        except ValueError:
            found = None
        if found is action:
            return action
    try:
        return State._match_action(state, seat, action, legal)
    except IllegalAction as first:
        flipped = flip_ends(action) if isinstance(action, str) else None
        if flipped is None:
            raise
        try:
            return State._match_action(state, seat, flipped, legal)
        except IllegalAction:
            raise first from None


def flip_ends(text: str) -> str | None:
    """``text`` with the ends of its last word swapped (``draw i3-j2`` -> ``draw j2-i3``),
    or None when its last word does not name two ends."""
    words = text.split()
    if not words or words[-1].count("-") != 1:
        return None
    a, b = words[-1].split("-")
    return " ".join([*words[:-1], f"{b}-{a}"])
