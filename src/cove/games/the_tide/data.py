"""The Tide's data file (``the_tide.toml``): its schema, read by the core's typed loader
(:func:`cove.core.data.load_typed`), which checks every value's type and bounds, the
allowed tile names and unknown or missing fields; the checks below relate entries to each
other and assert the counts the seed states. Errors name the file, the entry and the
problem.

The rules use the tiles as small ints in a fixed order so they can index lists with them:
0 is an empty square, then shell, bottle, bag, cigarette, melon. :func:`tables` builds
those runtime tables (:class:`TideData`, indexed by tile code) from the loaded file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cove.core import DataChecker, entry, load_typed

DATA_FILE = Path(__file__).with_name("the_tide.toml")

TYPES = ("", "shell", "bottle", "bag", "cigarette", "melon")
"""Index = tile code; 0 is an empty square."""

EMPTY, SHELL, BOTTLE, BAG, CIGARETTE, MELON = range(6)
"""The tile codes, the index of each name in ``TYPES``."""
RUBBISH = (BOTTLE, BAG, CIGARETTE, MELON)
TILE_TYPES = (SHELL, *RUBBISH)

# The component counts the seed states (materials list, printed four times).
SEED_COUNTS = {"shell": 12, "bottle": 20, "bag": 16, "cigarette": 12, "melon": 12}
SEED_THRESHOLDS = {"cigarette": 3, "melon": 3, "bag": 4, "bottle": 5}
SEED_TOTAL = 72
HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
SGR_COLOUR = re.compile(r"[0-9]{1,3}(;[0-9]{1,3})*")


# -- the file's schema ---------------------------------------------------------------------------
@dataclass(frozen=True)
class BoardEntry:
    columns: int = entry(minimum=1, help="beach columns, one pile above each (the seed: 6)")
    rows: int = entry(minimum=1, help="beach rows (the seed: 6)")
    pile_height: int = entry(minimum=1, help="tiles in each pile at the start (the seed: 6)")


@dataclass(frozen=True)
class FriendsEntry:
    tokens: int = entry(minimum=1, help="tokens per player's symbol (the seed: 4)")
    max_on_beach: int = entry(minimum=1, help="friends in play at most (one token marks "
                                              "the score)")


@dataclass(frozen=True)
class ScoringEntry:
    win_points: int = entry(minimum=1, help="reaching this many points wins at once")
    recycling_points: int = entry(minimum=0, help="points for a recycling")
    recycling_returned: int = entry(minimum=0, maximum=4,
                                    help="of a recycling's 4 tiles, how many go back to piles")
    double_recycling_points: int = entry(minimum=0, help="points for a double recycling")
    double_friend_points: int = entry(minimum=0, help="or these points and a new friend")
    double_recycling_returned: int = entry(
        minimum=0, maximum=8, help="of a double recycling's 8 tiles, how many go back")
    collection_points: int = entry(minimum=0, help="points for a specific collection")
    collection_returned: int = entry(minimum=0, help="tiles of a collection that go back")
    necklace_shells: int = entry(minimum=1, help="shells that make a necklace")
    collection_order: tuple[str, ...] = entry(
        choices=SEED_THRESHOLDS, min_items=4, max_items=4,
        help="the order in which specific collections are checked")


@dataclass(frozen=True)
class TileEntry:
    name: str = entry(choices=SEED_COUNTS, help="the tile's name in actions and views")
    plural: str = entry(help="its plural, in actions and the log")
    long_name: str = entry(help="the seed's name, for legends")
    short: str = entry(help="its name in a narrow table column")
    letter: str = entry(help="one letter, on the terminal and in the pile lists")
    fill: str = entry(help="web board: the tile's face, #rrggbb")
    ink: str = entry(help="web board: its outline and text, #rrggbb")
    ansi: str = entry(help="terminal: its colour, an SGR code such as \"32\"")
    count: int = entry(minimum=0, help="tiles of this type in the box")
    rubbish: bool = entry(help="false only for shells")
    collection: int = entry(minimum=0, default=0,
                            help="rubbish: the size of a specific collection")


@dataclass(frozen=True)
class TideFile:
    board: BoardEntry
    friends: FriendsEntry
    scoring: ScoringEntry
    tiles: tuple[TileEntry, ...] = entry(min_items=5, max_items=5,
                                         help="shell, bottle, bag, cigarette, melon")


# -- the runtime tables --------------------------------------------------------------------------
@dataclass(frozen=True)
class TideData:
    columns: int
    rows: int
    pile_height: int
    max_on_beach: int
    names: tuple[str, ...]  # by tile code, "" for empty
    plurals: tuple[str, ...]
    letters: tuple[str, ...]
    long_names: tuple[str, ...]  # the seed's names, for legends
    shorts: tuple[str, ...]  # names in a narrow table column
    fills: tuple[str, ...]  # web board: the tile's face, #rrggbb
    inks: tuple[str, ...]  # web board: its outline and text, #rrggbb
    ansi: tuple[str, ...]  # terminal: its colour, an SGR code
    counts: tuple[int, ...]
    thresholds: tuple[int, ...]  # specific collection size by code, 0 for shell
    collection_order: tuple[int, ...]  # tile codes
    win_points: int
    recycling_points: int
    recycling_returned: int
    double_points: int
    double_friend_points: int
    double_returned: int
    collection_points: int
    collection_returned: int
    necklace_shells: int


def load_tide_data(path: str | Path = DATA_FILE) -> TideData:
    """Read and check a Tide data file; errors name the file, the entry and the problem."""
    data = load_typed(TideFile, path)
    check(data, DataChecker(path))
    return tables(data)


def check(data: TideFile, chk: DataChecker) -> None:
    """What the typed loader cannot see: the counts the seed states, the entries that
    depend on each other, and the shape of the texts the screens use."""
    board, friends, scoring = data.board, data.friends, data.scoring
    cols, rows, height = board.columns, board.rows, board.pile_height
    chk.expect(cols == 6 and rows == 6, "board", f"the beach is 6 x 6, found {cols} x {rows}")
    chk.expect(height == 6, "board", f"piles hold 6 tiles, found pile_height = {height}")
    chk.expect(friends.tokens == 4, "friends",
               f"each player has 4 friend tokens, found {friends.tokens}")
    chk.expect(friends.max_on_beach < friends.tokens, "friends",
               f"max_on_beach must be 1..{friends.tokens - 1} (one token marks the score), "
               f"got {friends.max_on_beach}")
    seen: set[str] = set()
    letters: set[str] = set()
    for i, t in enumerate(data.tiles):
        where = f"tiles[{i}] ({t.name})"
        chk.expect(t.name not in seen, where, "this tile type is listed twice")
        seen.add(t.name)
        chk.expect(t.count == SEED_COUNTS[t.name], where,
                   f"the seed has {SEED_COUNTS[t.name]} {t.name} tiles, found count = {t.count}")
        chk.expect(t.rubbish == (t.name != "shell"), where,
                   "only shells are not rubbish" if t.name == "shell" else "must be rubbish")
        need = SEED_THRESHOLDS.get(t.name, 0)
        chk.expect(t.collection == need, where,
                   f"a specific collection of {t.name} needs {need} tiles, found collection = "
                   f"{t.collection}" if need else "shells make no specific collection")
        chk.expect(len(t.letter) == 1 and t.letter.isalpha(), where,
                   f"letter must be one letter, got {t.letter!r}")
        chk.expect(t.letter.upper() not in letters, where, f"letter {t.letter!r} is used twice")
        letters.add(t.letter.upper())
        for key, text in (("long_name", t.long_name), ("short", t.short)):
            chk.expect(bool(text.strip()), where, f"{key} must not be empty")
        for key, colour in (("fill", t.fill), ("ink", t.ink)):
            chk.expect(HEX_COLOUR.fullmatch(colour) is not None, where,
                       f"{key} must be a colour #rrggbb, got {colour[:20]!r}")
        chk.expect(SGR_COLOUR.fullmatch(t.ansi) is not None, where,
                   f"ansi must be a terminal colour code such as \"32\", got {t.ansi[:20]!r}")
    total = sum(t.count for t in data.tiles)
    chk.expect(total == SEED_TOTAL, "tiles", f"expected {SEED_TOTAL} tiles in all, found {total}")
    chk.expect(total == cols * rows + cols * height, "tiles",
               f"{total} tiles do not fill the {cols}x{rows} beach and {cols} piles of {height}")
    chk.expect(len(set(scoring.collection_order)) == len(SEED_THRESHOLDS), "scoring",
               "collection_order must list bottle, bag, cigarette and melon once each")
    chk.expect(scoring.collection_returned <= min(SEED_THRESHOLDS.values()), "scoring",
               f"collection_returned = {scoring.collection_returned} exceeds the smallest "
               "collection")


def tables(data: TideFile) -> TideData:
    """The rules' tables, indexed by tile code, from a checked file."""
    by_name = {t.name: t for t in data.tiles}
    order = [by_name[TYPES[code]] for code in TILE_TYPES]

    def column(field: str, empty: Any) -> tuple[Any, ...]:
        return (empty, *(getattr(t, field) for t in order))

    s = data.scoring
    return TideData(
        columns=data.board.columns,
        rows=data.board.rows,
        pile_height=data.board.pile_height,
        max_on_beach=data.friends.max_on_beach,
        names=TYPES,
        plurals=column("plural", ""),
        letters=tuple(x.upper() for x in column("letter", ".")),
        long_names=column("long_name", ""),
        shorts=column("short", ""),
        fills=column("fill", ""),
        inks=column("ink", ""),
        ansi=column("ansi", ""),
        counts=column("count", 0),
        thresholds=column("collection", 0),
        collection_order=tuple(TYPES.index(n) for n in s.collection_order),
        win_points=s.win_points,
        recycling_points=s.recycling_points,
        recycling_returned=s.recycling_returned,
        double_points=s.double_recycling_points,
        double_friend_points=s.double_friend_points,
        double_returned=s.double_recycling_returned,
        collection_points=s.collection_points,
        collection_returned=s.collection_returned,
        necklace_shells=s.necklace_shells,
    )


DATA = load_tide_data()
"""The built-in data, loaded once."""
