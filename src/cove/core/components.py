"""Table components that several games share: a face-down deck, a bag drawn blind, dice,
and square and hex grids.

Each knows what the players can see of it, how to copy itself cheaply (a clone copies
lists, never deep-copies) and how to resample what is hidden for a player's view
(``redeterminize``), so a game does not write those three things again for each pile.

Conventions, the same in every Cove game:

- a deck's top card is the **last** item of its list (``pop()`` draws it); cards put
  under the deck face up are the first items, and their order is public;
- a grid square or hex is an int, named by its column's letter and then its row's number
  counted from 1 (``b3`` = column b, row 3), as every board and move text writes it.

The classes hold plain ints and lists in ``__slots__``, so ``cove.core.serial`` stores
them with the state (``to_json``, pickling, fingerprints) without any code here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from cove.core.rng import NATIVE, Rng

Direction = tuple[int, int]
"""A step on a grid as ``(rows, columns)``: ``(-1, 0)`` is one row up (north)."""

NORTH, EAST, SOUTH, WEST = (-1, 0), (0, 1), (1, 0), (0, -1)
ORTHOGONAL: tuple[Direction, ...] = (NORTH, EAST, SOUTH, WEST)
DIAGONAL: tuple[Direction, ...] = ((-1, 1), (1, 1), (1, -1), (-1, -1))
"""North-east, south-east, south-west, north-west."""

COLUMN_LETTERS: Final = "abcdefghijklmnopqrstuvwxyz"


def square_name(column: int, row: int) -> str:
    """``(2, 0)`` -> ``"c1"``: the column's letter, then the row's number from 1."""
    if not 0 <= column < len(COLUMN_LETTERS):
        raise ValueError(f"column {column} has no letter (0-{len(COLUMN_LETTERS) - 1})")
    return f"{COLUMN_LETTERS[column]}{row + 1}"


# -- deck -----------------------------------------------------------------------------------
class Deck:
    """A face-down pile of cards (ints). ``cards[-1]`` is the top.

    ``known`` counts the cards at the bottom (``cards[:known]``) that every player has seen
    go there, in an order everyone knows: cards put under the deck face up, or a deck left
    in a public order. The rest is in an order nobody knows, which :meth:`resample`
    reshuffles for a view. Drawing into the known part shrinks it."""

    __slots__ = ("cards", "known")

    def __init__(self, cards: Iterable[int] = (), known: int = 0) -> None:
        self.cards: list[int] = list(cards)
        if not 0 <= known <= len(self.cards):
            raise ValueError(f"known={known} but the deck holds {len(self.cards)} cards")
        self.known = known

    def __len__(self) -> int:
        return len(self.cards)

    def __bool__(self) -> bool:
        return bool(self.cards)

    def __iter__(self) -> Iterator[int]:
        """From the bottom to the top."""
        return iter(self.cards)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Deck) and self.cards == other.cards
                and self.known == other.known)

    def __repr__(self) -> str:
        return f"Deck({self.cards!r}, known={self.known})"

    def draw(self) -> int:
        """Take the top card (IndexError when empty)."""
        cards = self.cards
        card = cards.pop()
        if self.known > len(cards):
            self.known = len(cards)
        return card

    def draw_many(self, n: int) -> list[int]:
        """The top ``n`` cards (fewer if the deck runs out), in the order drawn."""
        return [self.draw() for _ in range(min(n, len(self.cards)))]

    def top(self) -> int | None:
        return self.cards[-1] if self.cards else None

    def put_bottom(self, card: int) -> None:
        """Put a card under the deck face up: it joins the known bottom part."""
        self.cards.insert(0, card)
        self.known += 1

    def put_top(self, card: int) -> None:
        """Put a card on top face down (its place is then hidden like the rest)."""
        self.cards.append(card)

    def shuffle(self, rng: Rng) -> None:
        """Shuffle the whole deck: nothing in it is known any more."""
        rng.shuffle(self.cards)
        self.known = 0

    def resample(self, rng: Rng) -> None:
        """Reshuffle the unknown part for a view. The part is sorted first, so the sample
        depends on what the viewer knows (which cards), never on their real order."""
        k = self.known
        hidden = sorted(self.cards[k:])
        rng.shuffle(hidden)
        self.cards[k:] = hidden

    def check(self) -> None:
        """AssertionError if the deck's counters disagree with its cards (a state read
        back from a document is checked with the rest of the state)."""
        assert 0 <= self.known <= len(self.cards), (
            f"deck: known={self.known} but it holds {len(self.cards)} cards")

    def copy(self) -> Deck:
        d = Deck() if NATIVE else Deck.__new__(Deck)  # (as in Rng.copy)
        d.cards = self.cards[:]
        d.known = self.known
        return d


# -- bag ------------------------------------------------------------------------------------
class Bag:
    """Counts of each kind of piece (cubes, tokens) drawn blind: what is in it is public
    (its counts), which piece comes next is chance, so there is nothing to resample."""

    __slots__ = ("counts", "total")

    def __init__(self, counts: Iterable[int] = ()) -> None:
        self.counts: list[int] = list(counts)
        if any(c < 0 for c in self.counts):
            raise ValueError(f"a bag cannot hold a negative count: {self.counts}")
        self.total = sum(self.counts)

    def __len__(self) -> int:
        return self.total

    def __bool__(self) -> bool:
        return self.total > 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bag) and self.counts == other.counts

    def __repr__(self) -> str:
        return f"Bag({self.counts!r})"

    def draw(self, rng: Rng) -> int:
        """One piece at random (each piece equally likely); its kind. One ``below`` call."""
        if self.total <= 0:
            raise IndexError("draw from an empty bag")
        x = rng.below(self.total)
        counts = self.counts
        kind = 0
        while x >= counts[kind]:
            x -= counts[kind]
            kind += 1
        counts[kind] -= 1
        self.total -= 1
        return kind

    def add(self, kind: int, n: int = 1) -> None:
        self.counts[kind] += n
        self.total += n

    def take(self, kind: int, n: int = 1) -> None:
        """Take ``n`` pieces of a known kind (ValueError if the bag holds fewer)."""
        if self.counts[kind] < n:
            raise ValueError(f"the bag holds {self.counts[kind]} of kind {kind}, not {n}")
        self.counts[kind] -= n
        self.total -= n

    def check(self) -> None:
        assert min(self.counts, default=0) >= 0, f"bag: negative count in {self.counts}"
        assert self.total == sum(self.counts), (
            f"bag: total {self.total} but it holds {sum(self.counts)}")

    def copy(self) -> Bag:
        b = Bag() if NATIVE else Bag.__new__(Bag)  # (as in Rng.copy)
        b.counts = self.counts[:]
        b.total = self.total
        return b


# -- dice -----------------------------------------------------------------------------------
class Die:
    """A die with the given faces (``Die(range(1, 7))`` is a d6; a custom die lists its
    faces, repeats included). Rolling is one ``below`` call on the state's own Rng."""

    __slots__ = ("faces",)

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces: tuple[int, ...] = tuple(faces)
        if not self.faces:
            raise ValueError("a die needs at least one face")

    def roll(self, rng: Rng) -> int:
        return self.faces[rng.below(len(self.faces))]

    def roll_many(self, rng: Rng, n: int) -> list[int]:
        return [self.roll(rng) for _ in range(n)]


D6: Final = Die(range(1, 7))


# -- grids ----------------------------------------------------------------------------------
class SquareGrid:
    """``columns`` x ``rows`` squares numbered in reading order (``row * columns + column``).

    Tables are built once and returned as tuples, so a game keeps them as module constants
    and its hot loops index plain tuples."""

    __slots__ = ("_index", "columns", "names", "rows", "size")

    def __init__(self, columns: int, rows: int) -> None:
        if columns < 1 or rows < 1:
            raise ValueError(f"a grid needs at least one square, not {columns}x{rows}")
        self.columns = columns
        self.rows = rows
        self.size = columns * rows
        self.names: tuple[str, ...] = tuple(
            square_name(c, r) for r in range(rows) for c in range(columns))
        self._index = {n: i for i, n in enumerate(self.names)}

    def name(self, square: int) -> str:
        return self.names[square]

    def parse(self, text: str) -> int:
        """``"b3"`` -> its square; ValueError saying what is valid otherwise."""
        sq = self._index.get(text.strip().lower())
        if sq is None:
            raise ValueError(f"no square {text!r}: columns a-{COLUMN_LETTERS[self.columns - 1]}"
                             f", rows 1-{self.rows} (e.g. a1)")
        return sq

    def position(self, square: int) -> tuple[int, int]:
        """``(row, column)`` of a square."""
        return divmod(square, self.columns)

    def step(self, square: int, direction: Direction, wrap: bool = False) -> int:
        """The square one step away, or -1 off the edge (``wrap``: back on the far edge)."""
        r, c = divmod(square, self.columns)
        r += direction[0]
        c += direction[1]
        if wrap:
            r %= self.rows
            c %= self.columns
        elif not (0 <= r < self.rows and 0 <= c < self.columns):
            return -1
        return r * self.columns + c

    def steps(self, directions: Sequence[Direction],
              wrap: bool = False) -> tuple[tuple[int, ...], ...]:
        """``table[square][d]``: the square one step in ``directions[d]``, or -1."""
        return tuple(tuple(self.step(s, d, wrap) for d in directions)
                     for s in range(self.size))

    def neighbours(self, directions: Sequence[Direction] = ORTHOGONAL
                   ) -> tuple[tuple[int, ...], ...]:
        """Per square, the squares one step away in ``directions`` (in that order)."""
        return tuple(tuple(t for t in row if t >= 0) for row in self.steps(directions))

    def rays(self, directions: Sequence[Direction], reach: int
             ) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per square, each straight line of up to ``reach`` squares (empty lines left out)."""
        out = []
        for s in range(self.size):
            lines = []
            for d in directions:
                line = []
                t = s
                for _ in range(reach):
                    t = self.step(t, d)
                    if t < 0:
                        break
                    line.append(t)
                if line:
                    lines.append(tuple(line))
            out.append(tuple(lines))
        return tuple(out)

    def distance(self, a: int, b: int, diagonal: bool = False) -> int:
        """Steps from ``a`` to ``b``: orthogonal steps (Manhattan), or king moves when
        ``diagonal`` (Chebyshev)."""
        ar, ac = divmod(a, self.columns)
        br, bc = divmod(b, self.columns)
        dr, dc = abs(ar - br), abs(ac - bc)
        return max(dr, dc) if diagonal else dr + dc


HEX_DIRECTIONS: tuple[Direction, ...] = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))
"""The six neighbours of a hex in doubled coordinates: east, south-east, south-west, west,
north-west, north-east."""


class HexGrid:
    """Hexes in rows, in doubled coordinates: hex ``(row, col)`` has ``row + col`` even and
    its neighbours at ``(row, col +- 2)`` and ``(row +- 1, col +- 1)``. The grid is the given
    spaces (any shape of map), numbered in the order given."""

    __slots__ = ("_by_name", "_index", "coords", "names", "neighbours")

    def __init__(self, coords: Iterable[tuple[int, int]],
                 directions: Sequence[Direction] = HEX_DIRECTIONS) -> None:
        """``directions``: the order each hex's ``neighbours`` are listed in (a game keeps
        the order its rules or numbering were written in)."""
        self.coords: tuple[tuple[int, int], ...] = tuple(coords)
        self._index = {rc: i for i, rc in enumerate(self.coords)}
        if len(self._index) != len(self.coords):
            raise ValueError("a hex is listed twice")
        for r, c in self.coords:
            if (r + c) % 2:
                raise ValueError(f"hex ({r}, {c}): row + doubled column must be even")
        self.names: tuple[str, ...] = tuple(square_name(c, r) for r, c in self.coords)
        self._by_name = {n: i for i, n in enumerate(self.names)}
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(j for dr, dc in directions
                  if (j := self._index.get((r + dr, c + dc), -1)) >= 0)
            for r, c in self.coords)

    def __len__(self) -> int:
        return len(self.coords)

    def at(self, row: int, col: int) -> int:
        """The hex at ``(row, col)``, or -1 if the map has none there."""
        return self._index.get((row, col), -1)

    def name(self, hex_: int) -> str:
        return self.names[hex_]

    def parse(self, text: str) -> int:
        """``"c2"`` -> its hex; ValueError saying what is valid otherwise."""
        h = self._by_name.get(text.strip().lower())
        if h is None:
            raise ValueError(f"no space {text!r} on this map: a column letter and a row number"
                             f", e.g. {self.names[0]}")
        return h

    def distance(self, a: int, b: int) -> int:
        """Hex steps between two hexes (the map's holes do not lengthen it)."""
        (ar, ac), (br, bc) = self.coords[a], self.coords[b]
        dr, dc = abs(ar - br), abs(ac - bc)
        return dr + max(0, (dc - dr) // 2)
