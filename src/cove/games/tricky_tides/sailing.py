"""The sailing tables of a map geometry, as one small storable value.

What a ship may do from a cell depends on the geometry in force: which cards are open sea
(fixed at set-up), wrapping (Edge of the World), the stride (Strong Currents), which card
headings count (Doldrums, Fog Bank) and the navigation deck (option ``nav_deck``). The
tables for one geometry are built once per process and shared; a state holds the
:class:`Geometry` in force, an ``int`` whose value is the geometry's key. So a stored
state holds one number for them, ``Geometry.of(key)`` gives the shared tables back, and a
clone copies one reference.
"""

from __future__ import annotations

from typing import Any, Final

from cove.core import RecordError, mypyc_attr
from cove.core.bits import has, set_of
from cove.games.tricky_tides.actions import ACT, ANCHOR, SAIL, Act
from cove.games.tricky_tides.constants import CARD_HEADINGS
from cove.games.tricky_tides.data import DATA, NAV_CARDS
from cove.games.tricky_tides.geometry import (
    BOUNDED,
    CELLS,
    WRAPPED,
    heading_set,
    sea_runs,
    stride_table,
)

Table = tuple[tuple[int, ...], ...]
SailTable = tuple[tuple[Act, ...], ...]
MODES: Final = ("card", "orthogonal", "widened")


def deck_headings(flat: bool) -> Table:
    """The headings per card of the navigation deck in use (option ``nav_deck``)."""
    return DATA.headings_flat if flat else CARD_HEADINGS


def sail_table(step: Table, mode: str = "card", heads: Table = CARD_HEADINGS
               ) -> SailTable:
    """``table[cell * 32 + card]``: the sail actions whose heading stays on the map
    (``mode``: which headings a card allows, see :func:`geometry.heading_set`; ``heads``:
    the navigation deck's headings per card)."""
    return tuple(
        tuple(ACT[SAIL + h] for h in heading_set(heads[k], mode) if step[c][h] >= 0)
        for c in range(CELLS) for k in range(NAV_CARDS)
    )


_SAIL: dict[tuple[bool, int, str, bool], tuple[Table, SailTable, SailTable]] = {}


def sailing_tables(wrap: bool, stride: int, mode: str, flat: bool = False
                   ) -> tuple[Table, SailTable, SailTable]:
    """(step table ships sail by, sail actions per cell and card, the same with ``drop
    anchor`` added where a heading is offered) for a geometry and a navigation deck
    (``flat``: the notes' flat profile)."""
    key = (wrap, stride, mode, flat)
    got = _SAIL.get(key)
    if got is None:
        one = WRAPPED if wrap else BOUNDED
        step = one if stride == 1 else stride_table(wrap, stride)
        sail = sail_table(step, mode, deck_headings(flat))
        anchor = tuple((*acts, ACT[ANCHOR]) if acts else () for acts in sail)
        got = _SAIL[key] = (step, sail, anchor)
    return got


_SEA_BITS: Final = 12          # bits 0..11: open sea per cell
_WRAP: Final = 1 << 12
_FLAT: Final = 1 << 13
_STRIDE_SHIFT: Final = 14      # 2 bits: stride - 1
_MODE_SHIFT: Final = 16        # 2 bits: index into MODES
_LIMIT: Final = 3 << _MODE_SHIFT


@mypyc_attr(native_class=False)  # an int: a Python class in the compiled build too
class Geometry(int):
    """The sailing tables of one geometry; its int value is the geometry's key.

    ``step[cell][heading]``: where a ship sailing one card of its heading lands (-1: off
    the map); ``one``: the single-card step table (open-sea runs follow it); ``runs``:
    :func:`geometry.sea_runs` of ``one``; ``sail_tab[cell * 32 + card]``: the sail
    actions offered; ``anchor_tab``: the same, each with ``drop anchor`` added (none where
    no heading stays on the map: the ship stays docked anyway)."""

    step: Table
    one: Table
    runs: Table
    sail_tab: SailTable
    anchor_tab: SailTable

    @classmethod
    def of(cls, key: int) -> Geometry:
        g = _GEOMETRIES.get(key)
        if g is None:
            if not 0 <= key < _LIMIT or (key >> _MODE_SHIFT) >= len(MODES) \
                    or (key >> _STRIDE_SHIFT & 3) == 3:
                raise RecordError(f"tricky-tides has no map geometry {key}")
            g = _GEOMETRIES[key] = int.__new__(cls, key)
            sea = tuple(has(key, c) for c in range(CELLS))
            wrap = bool(key & _WRAP)
            g.step, g.sail_tab, g.anchor_tab = sailing_tables(
                wrap, (key >> _STRIDE_SHIFT & 3) + 1, MODES[key >> _MODE_SHIFT],
                bool(key & _FLAT))
            g.one = WRAPPED if wrap else BOUNDED
            g.runs = sea_runs(g.one, sea)
        return g

    @classmethod
    def make(cls, sea: tuple[bool, ...], wrap: bool, stride: int, mode: str,
             flat: bool) -> Geometry:
        key = set_of(c for c in range(CELLS) if sea[c])
        key |= (_WRAP if wrap else 0) | (_FLAT if flat else 0)
        key |= (stride - 1) << _STRIDE_SHIFT | MODES.index(mode) << _MODE_SHIFT
        return cls.of(key)

    def __reduce__(self) -> tuple[Any, ...]:
        return (geometry_of, (int(self),))  # by a module function, which pickle can name

    def __repr__(self) -> str:
        return f"Geometry({int(self)})"


_GEOMETRIES: dict[int, Geometry] = {}
assert _SEA_BITS == CELLS


def geometry_of(key: int) -> Geometry:
    """The shared geometry with this key (how a pickled one is read back)."""
    return Geometry.of(key)
