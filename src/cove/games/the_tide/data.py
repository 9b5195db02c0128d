"""Loading and checking the_tide.toml: tiles (and how each is shown), board size and scoring
values.

Tile types are small ints in a fixed order so the rules can index lists with them:
0 is an empty square, then shell, bottle, bag, cigarette, melon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cove.core.data import DataChecker, load_data

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
    """Parse and validate a Tide data file; errors name the file, entry and problem."""
    raw = load_data(path)
    chk = DataChecker(path)
    board = _table(chk, raw, "board")
    friends = _table(chk, raw, "friends")
    scoring = _table(chk, raw, "scoring")
    cols = chk.field(board, "columns", int, "board")
    rows = chk.field(board, "rows", int, "board")
    height = chk.field(board, "pile_height", int, "board")
    chk.expect(cols == 6 and rows == 6, "board", f"the beach is 6 x 6, found {cols} x {rows}")
    chk.expect(height == 6, "board", f"piles hold 6 tiles, found pile_height = {height}")
    tokens = chk.field(friends, "tokens", int, "friends")
    chk.expect(tokens == 4, "friends", f"each player has 4 friend tokens, found {tokens}")
    max_on = chk.field(friends, "max_on_beach", int, "friends")
    chk.expect(1 <= max_on < tokens, "friends",
               f"max_on_beach must be 1..{tokens - 1} (one token marks the score), got {max_on}")

    tiles = raw.get("tiles")
    chk.expect(isinstance(tiles, list) and len(tiles) == 5, "tiles",
               "expected 5 [[tiles]] entries (shell, bottle, bag, cigarette, melon)")
    assert isinstance(tiles, list)
    names = [""] * 6
    plurals = [""] * 6
    letters = ["."] * 6
    long_names = [""] * 6
    shorts = [""] * 6
    fills = [""] * 6
    inks = [""] * 6
    ansi = [""] * 6
    counts = [0] * 6
    thresholds = [0] * 6
    for i, t in enumerate(tiles):
        entry = f"tiles[{i}]"
        chk.expect(isinstance(t, dict), entry, "must be a table")
        name = chk.one_of(chk.field(t, "name", str, entry), SEED_COUNTS, entry, "tile name")
        entry = f"tiles[{i}] ({name})"
        code = TYPES.index(name)
        chk.expect(counts[code] == 0, entry, "this tile type is listed twice")
        count = chk.field(t, "count", int, entry)
        chk.expect(count == SEED_COUNTS[name], entry,
                   f"the seed has {SEED_COUNTS[name]} {name} tiles, found count = {count}")
        rubbish = chk.field(t, "rubbish", bool, entry)
        chk.expect(rubbish == (name != "shell"), entry,
                   "only shells are not rubbish" if name == "shell" else "must be rubbish")
        if rubbish:
            thr = chk.field(t, "collection", int, entry)
            chk.expect(thr == SEED_THRESHOLDS[name], entry,
                       f"a specific collection of {name} needs {SEED_THRESHOLDS[name]} tiles, "
                       f"found collection = {thr}")
            thresholds[code] = thr
        letter = chk.field(t, "letter", str, entry)
        chk.expect(len(letter) == 1 and letter.isalpha(), entry,
                   f"letter must be one letter, got {letter!r}")
        chk.expect(letter.upper() not in letters, entry, f"letter {letter!r} is used twice")
        for key, into in (("long_name", long_names), ("short", shorts)):
            text = chk.field(t, key, str, entry)
            chk.expect(bool(text.strip()), entry, f"{key} must not be empty")
            into[code] = text
        for key, into in (("fill", fills), ("ink", inks)):
            colour = chk.field(t, key, str, entry)
            chk.expect(HEX_COLOUR.fullmatch(colour) is not None, entry,
                       f"{key} must be a colour #rrggbb, got {colour[:20]!r}")
            into[code] = colour
        code_text = chk.field(t, "ansi", str, entry)
        chk.expect(SGR_COLOUR.fullmatch(code_text) is not None, entry,
                   f"ansi must be a terminal colour code such as \"32\", got {code_text[:20]!r}")
        ansi[code] = code_text
        names[code] = name
        plurals[code] = chk.field(t, "plural", str, entry)
        letters[code] = letter.upper()
        counts[code] = count
    total = sum(counts)
    chk.expect(total == SEED_TOTAL, "tiles", f"expected {SEED_TOTAL} tiles in all, found {total}")
    chk.expect(total == cols * rows + cols * height, "tiles",
               f"{total} tiles do not fill the {cols}x{rows} beach and {cols} piles of {height}")

    order_names = chk.field(scoring, "collection_order", list, "scoring")
    chk.expect(sorted(order_names) == sorted(SEED_THRESHOLDS), "scoring",
               "collection_order must list bottle, bag, cigarette and melon once each")

    def num(key: str) -> int:
        v: int = chk.field(scoring, key, int, "scoring")
        chk.expect(v >= 0, "scoring", f"{key} must be >= 0, got {v}")
        return v

    win = num("win_points")
    chk.expect(win >= 1, "scoring", "win_points must be at least 1")
    rec_ret = num("recycling_returned")
    dbl_ret = num("double_recycling_returned")
    col_ret = num("collection_returned")
    chk.expect(rec_ret <= 4, "scoring", f"recycling uses 4 tiles; cannot return {rec_ret}")
    chk.expect(dbl_ret <= 8, "scoring", f"double recycling uses 8 tiles; cannot return {dbl_ret}")
    chk.expect(col_ret <= min(SEED_THRESHOLDS.values()), "scoring",
               f"collection_returned = {col_ret} exceeds the smallest collection")
    neck = num("necklace_shells")
    chk.expect(neck >= 1, "scoring", "necklace_shells must be at least 1")
    return TideData(
        columns=cols,
        rows=rows,
        pile_height=height,
        max_on_beach=max_on,
        names=tuple(names),
        plurals=tuple(plurals),
        letters=tuple(letters),
        long_names=tuple(long_names),
        shorts=tuple(shorts),
        fills=tuple(fills),
        inks=tuple(inks),
        ansi=tuple(ansi),
        counts=tuple(counts),
        thresholds=tuple(thresholds),
        collection_order=tuple(TYPES.index(n) for n in order_names),
        win_points=win,
        recycling_points=num("recycling_points"),
        recycling_returned=rec_ret,
        double_points=num("double_recycling_points"),
        double_friend_points=num("double_friend_points"),
        double_returned=dbl_ret,
        collection_points=num("collection_points"),
        collection_returned=col_ret,
        necklace_shells=neck,
    )


def _table(chk: DataChecker, raw: dict[str, Any], key: str) -> dict[str, Any]:
    t = raw.get(key)
    chk.expect(isinstance(t, dict), key, f"missing [{key}] table")
    assert isinstance(t, dict)
    return t


DATA = load_tide_data()
