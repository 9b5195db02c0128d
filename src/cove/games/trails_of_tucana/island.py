"""One island's tables as the rules read them: made from the data file by ``data.py``
(``TABLES.islands``), kept in a module of their own so that the compiled build compiles
the class and the rules read its fields as native attributes (``data.py`` stays Python
for its typed loader, docs/BUILD.md)."""

from __future__ import annotations

from dataclasses import dataclass

from cove.core import pickle_records


@dataclass(frozen=True)
class Island:
    """One score-sheet side: geometry, features, score tables and precomputed tables."""

    key: str
    name: str
    rounds: int
    per_kind: int
    coords: tuple[tuple[int, int], ...]  # (row, doubled col) per space
    labels: tuple[str, ...]  # "a8" per space
    terrain: tuple[int, ...]  # 0..3 per space
    village: tuple[int, ...]  # village index 0..9 or -1 per space
    sight: tuple[int, ...]  # sight index or -1 per space
    village_space: tuple[int, ...]  # space of village 0..9 (village number - 1)
    sight_space: tuple[int, ...]  # space of each sight
    sight_kind: tuple[int, ...]  # kind 0..4 of each sight
    kind_mask: tuple[int, ...]  # bitmask over sight indices, per kind
    sight_values: tuple[tuple[int, ...], ...]  # per kind: 1st, 2nd(, 3rd) value
    pair_values: tuple[int, ...]  # per letter A..E
    adj: tuple[tuple[int, ...], ...]  # neighbours per space
    edges: tuple[tuple[int, int], ...]  # (a, b) with a < b
    edge_index: dict[tuple[int, int], int]
    ends: tuple[str, ...]  # per edge: the segment's name, "i1-j2" (the higher end first)
    matching: dict[tuple[int, int], tuple[int, ...]]  # (card, card) -> edges that fit
    space_features: tuple[int, ...]  # per space: its village bit | its sight bit << VILLAGES
    dist: tuple[tuple[int, ...], ...]  # steps between two spaces over the island
    size: int  # number of spaces
    # Scoring tables: the points of every set of joined pairs (a bitmask over the
    # letters) and of a kind's first c sights (per kind, c = 0..per_kind).
    pair_points: tuple[int, ...]
    sight_cum: tuple[tuple[int, ...], ...]
    sight_points: tuple[int, ...]  # points of every set of circled sights (a bitmask)

    def space(self, label: str) -> int:
        """The space named ``label`` (e.g. ``"a8"``)."""
        return self.labels.index(label)

    def edge(self, a: str, b: str) -> int:
        x, y = self.space(a), self.space(b)
        return self.edge_index[(min(x, y), max(x, y))]


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
