"""The Tide's data file and options: the component counts the seed states (R1.1), a
malformed file refused with the file, the entry and the problem (R1.2), and bad option
values (R8.2)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import cove
from cove.games.the_tide import GAME
from cove.games.the_tide.data import DATA, DATA_FILE, load_tide_data
from cove.games.the_tide.state import TideState

from .helpers import SEED_COUNTS, tile_totals


def test_r1_1_component_counts() -> None:
    assert DATA.counts == (0, 12, 20, 16, 12, 12) and sum(DATA.counts) == 72
    assert DATA.thresholds == (0, 0, 5, 4, 3, 3)
    for n in range(2, 7):
        s = GAME.new(n, seed=n)
        assert isinstance(s, TideState)
        assert tile_totals(s) == SEED_COUNTS
        assert all(s.grid) and [len(p) for p in s.piles] == [6] * 6


@pytest.mark.parametrize(
    ("old", "new", "needle"),
    [
        ("count = 20", "count = 19", "tiles[1] (bottle): the seed has 20 bottle tiles"),
        ("collection = 3\n\n[[tiles]]\nname = \"melon\"",
         "collection = 2\n\n[[tiles]]\nname = \"melon\"", "tiles[3] (cigarette)"),
        ("columns = 6", "columns = 7", "board: the beach is 6 x 6"),
        ('letter = "W"', 'letter = "S"', "tiles[4] (melon): letter 'S' is used twice"),
        ('name = "bag"', 'name = "tyre"', "tiles[2].name: value 'tyre' is not one of"),
        ("[scoring]", "[scoringx]", "the file: unknown field 'scoringx'"),
        ("tokens = 4", "tokens = 4\ntokens = 5", "not valid TOML"),
        ('fill = "#f6c1d9"', 'fill = "pink"', "tiles[0] (shell): fill must be a colour #rrggbb"),
        ('ink = "#1f6b2b"', "ink = 3", "tiles[1].ink: must be str"),
        ('ansi = "33"', 'ansi = "yellow"', "tiles[3] (cigarette): ansi must be a terminal colour"),
        ('short = "cig"', 'short = " "', "tiles[3] (cigarette): short must not be empty"),
        ('long_name = "watermelon"\n', "", "tiles[4].long_name: missing"),
        ("recycling_returned = 2", "recycling_returned = 5",
         "scoring.recycling_returned: must be at most 4"),
        ('collection_order = ["cigarette", "melon", "bag", "bottle"]',
         'collection_order = ["cigarette", "melon", "bag", "bag"]',
         "scoring: collection_order must list bottle, bag, cigarette and melon once each"),
        ("rubbish = false", "rubbish = false\ncollection = 3",
         "tiles[0] (shell): shells make no specific collection"),
    ],
)
def test_r1_2_malformed_data_file(tmp_path: Path, old: str, new: str, needle: str) -> None:
    bad = tmp_path / "the_tide.toml"
    text = DATA_FILE.read_text()
    assert old in text
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(cove.DataError) as err:
        load_tide_data(bad)
    assert "the_tide.toml" in str(err.value) and needle in str(err.value)
    shutil.copy(DATA_FILE, bad)
    assert load_tide_data(bad) == DATA


def test_r8_2_bad_options() -> None:
    with pytest.raises(cove.OptionError, match="unknown option 'tides'"):
        GAME.new(2, tides=3)
    for key, value in (("move_dirs", 6), ("connectivity", 5), ("gravity", "soft"),
                       ("pile_visibility", "none"), ("check_timing", "never"),
                       ("stall_rounds", 0), ("collect_under_others", "maybe")):
        with pytest.raises(cove.OptionError, match=key):
            GAME.new(2, **{key: value})
    assert GAME.new(2, move_dirs="8").options.move_dirs == 8  # type: ignore[attr-defined]


def test_every_tile_says_how_it_is_shown() -> None:
    # the screens read these from the data file (R1.1's tile entries), never a copy
    assert DATA.long_names[1:] == ("shell", "bottle", "plastic bag", "cigarette end",
                                   "watermelon")
    assert DATA.shorts[1:] == ("shell", "bottle", "bag", "cig", "melon")
    assert len(set(DATA.fills[1:])) == 5 and len(set(DATA.inks[1:])) == 5
    assert all(code.isdigit() for code in DATA.ansi[1:])
