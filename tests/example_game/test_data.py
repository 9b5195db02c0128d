"""The Toy's data file and options: the counts, a malformed file, bad values."""

from __future__ import annotations

from pathlib import Path

import pytest

from cove.core.errors import DataError, OptionError
from cove.core.options import build_options
from cove.example_game import GAME
from cove.example_game.data import DATA, DATA_FILE, load
from cove.example_game.options import ToyOptions


def test_the_built_in_file_holds_the_rulebook_counts() -> None:
    assert DATA.deck == tuple(range(1, 13)) and DATA.hand == 2 and DATA.bid_cost == 1


def _edited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str) -> Path:
    monkeypatch.setenv("COVE_DATA_DIR", str(tmp_path))
    path = tmp_path / "edited.toml"
    path.write_text(DATA_FILE.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "message"), [
    ("hand = 2", "hand = 9", r"edited.toml: hand: must be at most 3"),
    ("hand = 2", 'hand = "two"', r"edited.toml: hand: must be int, got text"),
    ("cards = 12", "cards = 5", r"edited.toml: cards: must deal 2 to each of 4 players"),
    ("bid_cost = 1", "bid_cost = 1\nbonus = 3", r"unknown field 'bonus'"),
    ("bid_cost = 1", "", r"edited.toml: bid_cost: missing"),
])
def test_a_malformed_file_names_the_entry_and_the_problem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str,
        message: str) -> None:
    with pytest.raises(DataError, match=message):
        load(_edited(tmp_path, monkeypatch, old, new))


def test_a_designer_may_change_a_value(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert load(_edited(tmp_path, monkeypatch, "bid_cost = 1", "bid_cost = 3")).bid_cost == 3


@pytest.mark.parametrize(("raw", "message"), [
    ({"plays": 0}, r"option plays=0 is not valid; allowed: an integer from 1 to 12"),
    ({"bidding": "maybe"}, r"option bidding='maybe' is not valid; allowed: true or false"),
    ({"speed": 3}, r"unknown option 'speed'; valid options: bidding, plays"),
])
def test_bad_options_say_what_is_valid(raw: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        build_options(ToyOptions, raw, 2, "toy")


def test_the_options_schema_lists_every_option_with_its_bounds() -> None:
    props = GAME.options_schema(3)["properties"]
    assert props["plays"] == {"title": "plays", "description": props["plays"]["description"],
                              "default": 12, "type": "integer", "minimum": 1, "maximum": 12}
    assert props["bidding"]["type"] == "boolean" and props["bidding"]["default"] is True
