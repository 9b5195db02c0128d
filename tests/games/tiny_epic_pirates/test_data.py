"""The ruleset data file and the options: the component counts (R1.1), the ``ruleset``
option (R1.2), malformed files naming the file, the entry and the problem (R1.3), the
presentation fields, and option values out of bounds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import cove
from cove.games.tiny_epic_pirates import GAME, data

RULESET = data.ruleset("design")


def test_r1_1_component_counts() -> None:
    assert len(RULESET.maps) == 16 and len(RULESET.search) == 20 and len(RULESET.merchants) == 11
    assert len(RULESET.crew) == 24 and len(RULESET.captains) == 4 and len(RULESET.legend) == 7
    assert len(RULESET.treasure_cost) == 3 and len(RULESET.booty) == 4
    assert sorted(RULESET.merchants) == [2, 2, 2, 4, 4, 4, 6, 6, 6, 8, 8]
    assert [lv.name for lv in RULESET.legend] == ["Sea Dog", "Pirate", "Corsair", "Swash Buckler",
                                            "Buccaneer", "Legend", "Dread Pirate"]
    assert RULESET.gold_cap == 13 and RULESET.ship_capacity == 3


def test_r1_2_ruleset_option(tmp_path: Path) -> None:
    with pytest.raises(cove.OptionError, match="unknown ruleset 'published'; available: design"):
        GAME.new(2, ruleset="published")
    assert GAME.new(2, ruleset="design").options.to_dict()["ruleset"] == "design"
    copy = tmp_path / "mine.toml"
    shutil.copy(Path(data.HERE) / "design.toml", copy)
    assert data.load(copy).crew == RULESET.crew


def test_r1_3_malformed_data_names_file_entry_problem(tmp_path: Path) -> None:
    text = (Path(data.HERE) / "design.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('kind = "storm"', 'kind = "whirlpool"', 1))
    with pytest.raises(cove.DataError,
                       match=r"bad\.toml: map\[14\]\.kind: value 'whirlpool' is not one of"):
        data.load(bad)
    bad.write_text(text.replace("count = 3\nlegend_players = 0", "count = 2\nlegend_players = 0"))
    with pytest.raises(cove.DataError, match="merchant: expected 11 merchant cards, found 10"):
        data.load(bad)
    bad.write_text(text.replace("a_dice = [5, 6]", "a_dice = [5, 9]"))
    with pytest.raises(cove.DataError, match=r"captain\[0\]\.a_dice\[1\]: must be at most 6"):
        data.load(bad)
    bad.write_text(text + "\n[[crew]]\nname = 'Extra'\ntrigger = 'trade'\ndice = []\nbonus = []\n")
    with pytest.raises(cove.DataError, match="crew: expected 24 crew cards, found 25"):
        data.load(bad)
    bad.write_text("not toml [")
    with pytest.raises(cove.DataError, match=r"bad\.toml: not valid TOML"):
        data.load(bad)


def test_r1_3_entries_that_refer_to_each_other_are_checked(tmp_path: Path) -> None:
    text = (Path(data.HERE) / "design.toml").read_text()
    bad = tmp_path / "bad.toml"
    cases = [
        ("merchant_capacity = 1", "merchant_capacity = 2",
         r"general\.merchant_capacity: must be at most 1"),
        ("start_gold = 1", "start_gold = 14", r"general\.start_gold: must be at most gold_cap"),
        ("cost = 12", "cost = 14", r"treasure\[2\]\.cost: must be at most gold_cap"),
        ('booty = "rum"', 'booty = "tea"', r"map\[5\]\.booty: booty 'tea' is not one of"),
        ('kind = "settlement"\nplunder = 1', 'kind = "settlement"',
         r"map\[8\]\.plunder: a settlement needs 1 or 2"),
        ('kind = "storm"', 'kind = "storm"\nplunder = 1',
         r"map\[14\]\.plunder: only a settlement has one"),
        ('name = "Hidden Cove"\nkind = "cove"',
         'name = "Hidden Cove"\nkind = "cove"\nbooty = "rum"',
         r"map\[3\]\.booty: only a market names a booty type"),
        ("dice = 3 ", "dice = 3\nsails = 2 ", r"general: unknown field 'sails'"),
        ('bonus = ["trade"]', 'bonus = ["hide out"]',
         r"crew\[0\]\.bonus\[0\]: value 'hide out' is not one of"),
    ]
    for old, new, error in cases:
        assert old in text, old
        bad.write_text(text.replace(old, new, 1))
        with pytest.raises(cove.DataError, match=r"bad\.toml: " + error):
            data.load(bad)


def test_booty_colours_and_labels_are_checked(tmp_path: Path) -> None:
    assert RULESET.booty_colour == ("#7cbf5a", "#8b3a1a", "#2b1a0e", "#8a8a8a")
    assert RULESET.booty_short == ("Su", "Ru", "Co", "Gp")
    text = (Path(data.HERE) / "design.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('colour = "#7cbf5a"', 'colour = "green"', 1))
    with pytest.raises(cove.DataError,
                       match=r"bad\.toml: booty\[0\]\.colour: must be #rrggbb, got 'green'"):
        data.load(bad)
    bad.write_text(text.replace('short = "Gp"', 'short = "Powder"', 1))
    with pytest.raises(cove.DataError,
                       match=r"booty\[3\]\.short: must be 1-3 letters, got 'Powder'"):
        data.load(bad)
    bad.write_text(text.replace('short = "Ru"\n', "", 1))
    with pytest.raises(cove.DataError, match=r"booty\[1\]\.short: missing"):
        data.load(bad)


def test_options_refuse_bad_values() -> None:
    for bad in ({"max_rounds": 2}, {"hideout_extort": "sometimes"}, {"colour": "red"}):
        try:
            GAME.new(2, **bad)
        except cove.OptionError:
            pass
        else:
            raise AssertionError(f"expected OptionError for {bad}")
    assert GAME.options(2).to_dict()["ruleset"] == data.DEFAULT
