"""The state of the event and monster modules that changes rarely, as immutable values.

:class:`Modules` is the rules in force, the event deck and the monsters' cells (one value a
clone shares); :class:`Activation` is the monster activation in progress
(``TidesState.activation``), replaced at each of its steps; a :class:`Trigger` is one
monster some player has activated this hand, waiting its turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final

from cove.core import pickle_records
from cove.games.tricky_tides.round_rules import BASE_RULES, Rules


@dataclass(frozen=True, slots=True)
class Modules:
    """Module state that changes rarely; immutable, so a clone shares it (a frozen
    dataclass, so a stored state holds it field by field)."""

    rules: Rules = BASE_RULES       # the rules in force (the face-up event's)
    event: int = -1                 # the face-up event (index into DATA.events), -1: none
    event_deck: tuple[int, ...] = ()    # the face-down event deck, top first (hidden order)
    events_known: int = 0           # how many cards at its bottom are known (put back)
    monster_cells: tuple[int, ...] = ()     # each monster's cell, by suit; () without them
    orders_under: tuple[int, ...] = ()  # orders put under the order deck, drawn last, in order

    def _replace(self, **changes: Any) -> Modules:
        return replace(self, **changes)


NO_MODULES: Final = Modules()


@dataclass(frozen=True, slots=True)
class Trigger:
    """A monster activated this hand, and the player who activated it (R14.2)."""

    monster: int
    player: int


NOT_CHOSEN, MOVE_FIRST, ABILITY_FIRST = -1, 0, 1
"""``Activation.first``: whether the monster moves or uses its ability first (R14.4)."""


@dataclass(frozen=True, slots=True)
class Activation:
    """One monster activation in progress, plus the ones still to come this hand."""

    queue: tuple[Trigger, ...]   # the activations still to resolve, in order
    monster: int
    player: int
    first: int = NOT_CHOSEN      # NOT_CHOSEN, MOVE_FIRST or ABILITY_FIRST
    moved: bool = False
    used: bool = False           # the ability has been used
    ships_left: tuple[int, ...] | None = None
    """The shark (shark=holds): the seats it still takes a good from, in turn (None: not
    listed yet)."""
    whale_goods: tuple[int, ...] | None = None
    """The whale: the goods types it has drawn and not yet spouted (None: not drawn yet)."""

    def _replace(self, **changes: Any) -> Activation:
        return replace(self, **changes)


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
