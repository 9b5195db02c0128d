"""The state of the event and monster modules that changes rarely, as immutable values.

:class:`Modules` is the rules in force, the event deck and the monsters' cells (one value a
clone shares); :class:`Activation` is the monster activation in progress
(``TidesState.mact``), replaced at each of its steps.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cove.core.serial import pickle_by_fields
from cove.games.tricky_tides.round_rules import BASE_RULES, Rules


@dataclass(frozen=True, slots=True)
class Modules:
    """Module state that changes rarely; immutable, so a clone shares it (a frozen
    dataclass, so a stored state holds it field by field)."""

    rules: Rules = BASE_RULES       # the rules in force (the face-up event's)
    event: int = -1                 # the face-up event (index into DATA.events), -1: none
    edeck: tuple[int, ...] = ()     # the face-down event deck, top first (hidden order)
    eknown: int = 0                 # how many cards at its bottom are known (put back)
    mpos: tuple[int, ...] = ()      # each monster's cell, by suit; () without monsters
    obottom: tuple[int, ...] = ()   # orders put under the order deck, drawn last, in order

    def _replace(self, **changes: Any) -> Modules:
        return replace(self, **changes)


NO_MODULES = Modules()


@dataclass(frozen=True, slots=True)
class Activation:
    """One monster activation in progress, plus the ones still to come this hand."""

    queue: tuple[tuple[int, int], ...]   # (monster, player) still to resolve, in order
    monster: int
    player: int
    first: int                # -1 not chosen, 0 move first, 1 ability first
    moved: bool
    used: bool                # the ability has been used
    data: tuple[int, ...] | None = None   # ability working data (None: not started)

    def _replace(self, **changes: Any) -> Activation:
        return replace(self, **changes)


pickle_by_fields(Modules, Activation)  # compiled frozen dataclasses: by their fields
