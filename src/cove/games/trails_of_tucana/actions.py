"""The three kinds of decision: draw the turn's segment, draw a bonus segment, or pass.

Each kind is a frozen dataclass (``Draw``, ``Bonus``, ``Pass``) whose ``str()`` is the
text form (``draw i1-j2``, ``bonus i1-j2``, ``pass``) and whose fields give the JSON form
(``{"kind": "draw", "ends": "i1-j2"}``). The game plays them in the core's int-coded fast
form (:class:`cove.core.actions.CodedAction`): every action is one shared
``TucanaAction``, a small int whose equality and hashing run in C, which matters because
the engine checks every applied action against the legal list and bots do so millions of
times. ``TABLE`` numbers the declared values, so the code, the text and the JSON form
come from one place; ``cove.core.serial`` stores an action as ``{"i": class, "v": code}``
and reads it back through ``of(code)`` as the same shared instance. A plain int is never
an action: ``apply`` requires the exact type.

One table serves both islands. A draw or a bonus is named by its segment's two ends, the
higher one first, and a segment named alike on both islands is the same action::

    pass                            0
    draw along segment s            DRAW + s    (s: every segment of both islands, once,
    bonus along segment s           BONUS + s    Isla Petit's first, in edge order)

Each island's own actions, per edge, are its :class:`IslandActions` (``ISLAND_ACTIONS``).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

from cove.core import (
    ActionTable,
    CodedAction,
    IllegalAction,
    Options,
    State,
    mypyc_attr,
    pickle_records,
)
from cove.games.trails_of_tucana.data import TABLES
from cove.games.trails_of_tucana.options import TucanaOptions

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the turn's segment between the spaces ``ends`` (``i1-j2``, the higher first)."""

    ends: str

    def __str__(self) -> str:
        return f"draw {self.ends}"


@dataclass(frozen=True, slots=True)
class Bonus:
    """Draw a bonus segment (earned by a kind's last sight) anywhere on the island."""

    ends: str

    def __str__(self) -> str:
        return f"bonus {self.ends}"


@dataclass(frozen=True, slots=True)
class Pass:
    """No free segment matches the cards (or no free segment is left), or the rest of a
    bonus chain is declined: draw nothing."""

    def __str__(self) -> str:
        return "pass"


@mypyc_attr(native_class=False)  # an int: a Python class in the compiled build too
class TucanaAction(CodedAction):
    """One decision, as its code in ``TABLE`` (see the module docstring)."""

    __slots__ = ()


def _segments() -> tuple[str, ...]:
    """Every segment of both islands, each name once: Isla Petit's in edge order, then
    those only Isla Grande has."""
    names: dict[str, None] = {}
    for island in TABLES.islands.values():
        names.update(dict.fromkeys(island.ends))
    return tuple(names)


SEGMENTS: Final = _segments()
TABLE: Final = ActionTable(TucanaAction, [Pass(), *(Draw(s) for s in SEGMENTS),
                                   *(Bonus(s) for s in SEGMENTS)])
ACTIONS: Final = TABLE.actions
"""Every action, by code."""
PASS: Final = ACTIONS[TABLE.code(Pass())]
DRAW: Final = TABLE.start(Draw)
BONUS: Final = TABLE.start(Bonus)
"""The first bonus code: an action other than ``PASS`` is a bonus from this code on, a
draw below it."""

Action = TucanaAction


@dataclass(frozen=True, slots=True)
class IslandActions:
    """One island's actions: a draw and a bonus along each of its edges, and per code the
    edge and the action-space index."""

    draws: tuple[TucanaAction, ...]  # per edge
    bonuses: tuple[TucanaAction, ...]  # per edge
    edge: tuple[int, ...]  # per code: the edge of a draw or bonus; -1 when not on the island
    index: tuple[int, ...]  # per code: the index in the action space; -1 when not in it

    @property
    def universe(self) -> list[Hashable]:
        """The action space: the draws, the bonuses, then pass (size 2 x edges + 1)."""
        return [*self.draws, *self.bonuses, PASS]


def _island_actions(key: str) -> IslandActions:
    """The actions of island ``key``, found in ``TABLE`` by its edges' names."""
    island = TABLES.islands[key]
    code = {s: i for i, s in enumerate(SEGMENTS)}
    draws = tuple(ACTIONS[DRAW + code[s]] for s in island.ends)
    bonuses = tuple(ACTIONS[BONUS + code[s]] for s in island.ends)
    edge = [-1] * len(ACTIONS)
    index = [-1] * len(ACTIONS)
    for e, (d, b) in enumerate(zip(draws, bonuses, strict=True)):
        edge[d] = edge[b] = e
    for i, a in enumerate((*draws, *bonuses, PASS)):
        index[a] = i
    return IslandActions(
        draws=draws,
        bonuses=bonuses,
        edge=tuple(edge),
        index=tuple(index),
    )


ISLAND_ACTIONS: Final = {key: _island_actions(key) for key in TABLES.islands}
"""Each island's actions, by the ``map`` option's value."""


def universe(players: int, options: Options) -> list[Hashable]:
    """Every action of the island, in a fixed order: a draw along each edge, a bonus
    segment along each edge, then pass (size 2 x edges + 1; see SPEC.md)."""
    assert isinstance(options, TucanaOptions)
    return ISLAND_ACTIONS[options.map].universe


def legal_indices(state: TucanaState, player: int, legal: tuple[Hashable, ...]) -> list[int]:
    """``TucanaState._legal_indices``: the legal actions' indices (draws, then bonuses,
    then pass) from the island's own index of the actions, without looking the action
    space up by the options (``legal_mask`` is made from these)."""
    index = state.island_actions.index
    try:
        return [index[a] for a in cast("tuple[TucanaAction, ...]", legal)]
    except (IndexError, TypeError):
        return State._legal_indices(state, player, legal)  # names the action in its error


def match_action(state: State, seat: int, action: Any, legal: tuple[Hashable, ...]) -> Hashable:
    """``TucanaState._match_action``: the core's matching, then the same text with the
    segment's ends the other way round: ``draw i3-j2`` finds ``draw j2-i3`` (R3.3); the
    move keeps its canonical text in the history and the record.

    First a short cut for the common case of search: ``action`` is the legal list's own
    element (moves are shared instances with unique codes, so ``index`` compares ints in
    C; the core's loop would return the same element after a str() each)."""
    if type(action) is TucanaAction:
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


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
