"""A game's observation declared as named blocks, the way OpenSpiel's ``Observer`` lists
its pieces: each :class:`Block` has a name, a size, an encoder and the SPEC.md text of
what it holds. The core does the rest, once for every game:

- the sizes and offsets of one player count and options (:meth:`Observer.layout`), so no
  game sums its own constants;
- the observation in sparse form (``State.observation_sparse``): every block's encoder
  writes its ones and values at indices of its own block (:class:`Out`), which the core
  shifts to the block's place;
- the SPEC.md table (:meth:`Observer.spec_table`), which a test compares with the file;
- one cache, for blocks that declare their ``inputs``: the state attributes the encoder
  reads. Such a block's output is kept with a copy of those attributes, per observer (or
  once for all when the block is the same for every seat), and reused while the state's
  attributes compare equal to the copy. A block can therefore never go stale, whatever
  changed the state (a move, a clone, a state made from JSON or changed by hand), and no
  rule has to tell the observation what it changed.

What a block declares as its inputs must be everything its encoder reads besides the
observer's seat, the player count and the options; the conformance tests check this by
comparing the kept observation with one made from nothing at every step of seeded games
(:meth:`Observer.fresh`). An input is compared with ``==`` and copied when kept: lists,
dicts, sets, bytearrays and arrays are copied (nested ones too), anything else is kept as it is
and must not change in place (ints, strings, bytes, tuples, frozen records).
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from cove.core.state import SparseObservation, index_run

if TYPE_CHECKING:
    from cove.core.options import Options


class Out:
    """Where a block's encoder writes: ``one(i)`` for a 1.0 at index ``i`` of the block,
    ``value(i, x)`` for any other float (0.0 allowed), ``run(i, xs)`` for consecutive
    values from ``i``. Indices count from the block's start; the core adds its offset."""

    __slots__ = ("at", "base", "ones", "values")

    def __init__(self) -> None:
        self.base = 0
        self.ones: array[int] = array("q")
        self.at: array[int] = array("q")
        self.values: array[float] = array("d")

    def one(self, i: int) -> None:
        self.ones.append(self.base + i)

    def value(self, i: int, x: float) -> None:
        self.at.append(self.base + i)
        self.values.append(x)

    def run(self, i: int, xs: Sequence[float]) -> None:
        self.at.extend(index_run(self.base + i, len(xs)))
        self.values.extend(xs)


Encoder = Callable[[Any, int, Out], None]
"""``encode(state, player, out)``: the block's part of ``player``'s observation."""


@dataclass(frozen=True)
class Block:
    """One named part of the observation.

    ``size + per_seat * players`` floats, or ``sized(players, options)`` when the size
    depends on the options (then ``floats`` says how, for SPEC.md). ``content`` is the
    SPEC.md text of what the floats hold. ``inputs``: the state attributes the encoder
    reads, for the core to keep its output while they are unchanged (None: made every
    call, for a block of the moment such as whose turn it is). ``same_for_all``: the block
    does not depend on the observer (absolute, public), so one kept output serves all."""

    name: str
    encode: Encoder
    content: str
    size: int = 0
    per_seat: int = 0
    sized: Callable[[int, Options], int] | None = None
    floats: str = ""
    inputs: tuple[str, ...] | None = None
    same_for_all: bool = False

    def size_for(self, players: int, options: Options) -> int:
        if self.sized is not None:
            return self.sized(players, options)
        return self.size + self.per_seat * players

    def floats_text(self) -> str:
        """The size as SPEC.md writes it: ``216``, ``36 n``, ``8 n + 5``."""
        if self.floats:
            return self.floats
        if not self.per_seat:
            return str(self.size)
        seats = "n" if self.per_seat == 1 else f"{self.per_seat} n"
        return f"{seats} + {self.size}" if self.size else seats


@dataclass(frozen=True)
class Layout:
    """The blocks' offsets and sizes for one player count and options."""

    players: int
    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    size: int

    def where(self, observer: Observer, name: str) -> tuple[int, int]:
        """``(offset, size)`` of the block called ``name``."""
        k = observer.index(name)
        return self.offsets[k], self.sizes[k]


class _Kept:
    """One block's kept output: the copy of its inputs and, per observer (one entry for
    all when the block is the same for every seat), its ones, at and values."""

    __slots__ = ("inputs", "outputs")

    def __init__(self, inputs: tuple[Any, ...], seats: int) -> None:
        self.inputs = inputs
        self.outputs: list[tuple[array[int], array[int], array[float]] | None] = (
            [None] * seats)


class Observed:
    """What one state keeps between observations (``State._observed``): its layout and
    each cached block's kept output. Belongs to one state: a clone, a pickle and a copy
    from JSON start without it."""

    __slots__ = ("kept", "layout")

    def __init__(self, layout: Layout, blocks: int) -> None:
        self.layout = layout
        self.kept: list[_Kept | None] = [None] * blocks


def _copy(value: Any) -> Any:
    """A copy of an input that later changes to the state cannot reach: lists, dicts and
    sets are copied, and so is every one nested in them (in any position) or in a tuple."""
    kind = type(value)
    if kind is list:
        if _MUTABLE.isdisjoint(map(type, value)):  # flat: one copy in C
            return value[:]
        return [_copy(v) for v in value]
    if kind is tuple:
        if _MUTABLE.isdisjoint(map(type, value)):
            return value
        return tuple(_copy(v) for v in value)
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is set:
        return set(value)
    if kind is bytearray:
        return bytes(value)  # equal to it, and nothing changes it
    if kind is array:
        return value[:]
    return value


_MUTABLE: Final = frozenset((list, dict, set, tuple, bytearray, array))
"""The containers ``_copy`` looks into (a tuple only to find a mutable one inside)."""


class Observer:
    """A game's observation: its blocks in order (see the module's text)."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        names = [b.name for b in blocks]
        if len(set(names)) != len(names):
            raise ValueError(f"observation blocks named twice: {names}")
        self.blocks = tuple(blocks)
        self._names = {name: k for k, name in enumerate(names)}
        self._layouts: dict[tuple[int, Options], Layout] = {}
        self._plan: tuple[tuple[Encoder, Callable[[Any], Any] | None, bool], ...] = tuple(
            (b.encode, None if b.inputs is None else _getter(b.inputs), b.same_for_all)
            for b in blocks)
        """Per block, what ``sparse`` reads: (encoder, inputs getter, same for all)."""

    def index(self, name: str) -> int:
        try:
            return self._names[name]
        except KeyError:
            raise KeyError(f"no observation block {name!r}; blocks: "
                           f"{', '.join(self._names)}") from None

    def layout(self, players: int, options: Options) -> Layout:
        key = (players, options)
        lay = self._layouts.get(key)
        if lay is None:
            sizes = tuple(b.size_for(players, options) for b in self.blocks)
            offsets = []
            at = 0
            for size in sizes:
                offsets.append(at)
                at += size
            lay = self._layouts[key] = Layout(players, tuple(offsets), sizes, at)
        return lay

    def size(self, players: int, options: Options) -> int:
        return self.layout(players, options).size

    def sparse(self, state: Any, player: int) -> SparseObservation:
        """``player``'s observation as ``(ones, at, values)``, kept blocks reused."""
        seen: Observed | None = state._observed
        if seen is None:
            lay = self.layout(state.n, state.options)
            seen = state._observed = Observed(lay, len(self.blocks))
        kept = seen.kept
        out = Out()
        ones, at, values = out.ones, out.at, out.values
        for k, ((encode, get, shared), base) in enumerate(
                zip(self._plan, seen.layout.offsets, strict=True)):
            if get is None:
                out.base = base
                encode(state, player, out)
            else:
                now = get(state)
                entry = kept[k]
                if entry is None or entry.inputs != now:
                    entry = kept[k] = _Kept(_copy(now), 1 if shared else state.n)
                slot = 0 if shared else player
                part = entry.outputs[slot]
                if part is None:
                    mine = Out()
                    mine.base = base
                    encode(state, player, mine)
                    part = entry.outputs[slot] = (mine.ones, mine.at, mine.values)
                ones += part[0]
                at += part[1]
                values += part[2]
        return ones, at, values

    def fresh(self, state: Any, player: int) -> SparseObservation:
        """The same observation made from nothing (no kept block), each block's indices
        checked to lie inside it: what the tests compare the kept one with."""
        lay = self.layout(state.n, state.options)
        out = Out()
        for k, block in enumerate(self.blocks):
            start = len(out.ones), len(out.at)
            out.base = lay.offsets[k]
            block.encode(state, player, out)
            lo, hi = lay.offsets[k], lay.offsets[k] + lay.sizes[k]
            wrote = list(out.ones[start[0]:]) + list(out.at[start[1]:])
            bad = [i - lo for i in wrote if not lo <= i < hi]
            if bad:
                raise AssertionError(f"observation block {block.name!r} (size "
                                     f"{lay.sizes[k]}) wrote outside itself at {bad[:5]}")
            if len(set(wrote)) != len(wrote):
                raise AssertionError(f"observation block {block.name!r} wrote an index "
                                     "twice")
        return out.ones, out.at, out.values

    def spec_table(self) -> str:
        """The SPEC.md table of the blocks: ``| Part | Floats | Content |``."""
        rows = ["| Part | Floats | Content |", "|---|---|---|"]
        rows += [f"| {b.name} | {b.floats_text()} | {b.content} |" for b in self.blocks]
        return "\n".join(rows)

    def size_text(self) -> str:
        """The total size as SPEC.md writes it, when no block's size needs the options:
        ``425 + 47 n``."""
        if any(b.sized is not None for b in self.blocks):
            raise ValueError("a block's size depends on the options")
        fixed = sum(b.size for b in self.blocks)
        per_seat = sum(b.per_seat for b in self.blocks)
        return f"{fixed} + {per_seat} n" if per_seat else str(fixed)


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The state's values of ``names`` as one tuple (one C call for all of them)."""
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda state: (one(state),)
    return operator.attrgetter(*names)
