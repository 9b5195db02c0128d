"""The data file and the options: counts asserted on load, the tables made from it;
malformed copies give a DataError naming the file, the entry and the problem; bad option
values an OptionError naming the option."""

from __future__ import annotations

from pathlib import Path

import pytest

import cove
from cove.core import DataChecker
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.data import (
    DATA_FILE,
    KINDS,
    TABLES,
    check_adjacency,
    load_tables,
)

TEXT = DATA_FILE.read_text(encoding="utf-8")


def broken(tmp_path: Path, old: str, new: str) -> Path:
    assert old in TEXT, old
    p = tmp_path / "trails_of_tucana.toml"
    p.write_text(TEXT.replace(old, new, 1), encoding="utf-8")
    return p


def test_shipped_file_loads() -> None:
    t = load_tables()
    assert set(t.islands) == {"petit", "grande"}
    assert t.islands["petit"].size == 73 and t.islands["grande"].size == 104
    assert TABLES.solo_discards == 3


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"4:D 6:D 8:Mv1 10:M 12:F"', '"4:D 8:Mv1 10:M 12:F"',
         "trails_of_tucana.toml: maps.petit.rows: expected 73 hexes, found 72"),
        ('"4:D 6:D 8:Mv1 10:M 12:F"', '"4:D 6:X 8:Mv1 10:M 12:F"',
         "maps.petit.rows[0] cell '6:X': terrain 'X' is not one of D, F, M, W"),
        ('"4:D 6:D 8:Mv1 10:M 12:F"', '"4:D 7:D 8:Mv1 10:M 12:F"',
         "maps.petit.rows[0] cell '7:D': row + doubled column must be even"),
        ('"4:D 6:D 8:Mv1 10:M 12:F"', '"4:D 6:D 8:M 10:M 12:F"',
         "maps.petit.rows: expected 10 villages; missing ['1']"),
        ('"4:D 6:D 8:Mv1 10:M 12:F"', '"4:D 6:D 8:Mv1 10:M 12:D"',
         "maps.petit.rows: expected 24 desert spaces, found 25"),
        ("10:DOb 12:M 14:D", "10:DBk 12:M 14:D",
         "maps.petit.rows: expected 2 of sight 'obelisk', found 1"),
        ("10:DOb 12:M 14:D", "10:DXy 12:M 14:D",
         "maps.petit space k3: sight 'Xy' is not one of Ob, Bk, Tc, Ye, Sm"),
        ("desert = 8", "desert = 9", "deck.desert: expected 8 cards, found 9"),
        ('"CEBAEDCDAB"', '"CEBAEDCDAA"', "setup.cards[0]: letter A appears 3 times, not twice"),
        ("A = [3, 2]", "A = [3]", "blue.A: needs at least 2 items, has 1"),
        ("A = [3, 2]", "A = [3, 0]", "blue.A[1]: must be at least 1"),
        ('name = "Isla Petit"', "name = 3", "maps.petit.name: must be str, got an integer"),
        ('name = "Isla Petit"', 'name = "Isla Petit"\nsize = 9',
         "maps.petit: unknown field 'size'"),
        ("A = 14, B = 13", "A = 14, F = 13", "maps.petit.pair_values: missing 'B'"),
        ("target = { petit = 70, grande = 120 }", "target = { petit = 70 }",
         "solo.target: missing 'grande'"),
        ('"sea monster" = 6', "", "red: expected 5 red cards, found 4"),
        ("book = [2, 2], toucan", "book = [2], toucan",
         "maps.petit.sight_values.book: needs 2 positive whole numbers"),
        ("rounds = 3", "rounds = 2", "maps.grande.rounds: expected 3 rounds, found 2"),
        ('"14:WSm",', '"14:WSm 40:D",', "maps.grande.rows: expected 104 hexes, found 105"),
        ('terrain_codes = ["D", "F", "M", "W"]', 'terrain_codes = ["D", "F", "M", "Wa"]',
         "terrain_codes: code 'Wa' must be one upper-case letter"),
        ("[deck]", "[deck", "trails_of_tucana.toml: not valid TOML"),
    ],
)
def test_malformed_data_names_file_entry_problem(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    with pytest.raises(cove.DataError) as err:
        load_tables(broken(tmp_path, old, new))
    assert message in str(err.value)


def test_asymmetric_adjacency_is_rejected() -> None:
    chk = DataChecker("trails_of_tucana.toml")
    labels = ("a1", "c1", "b2")
    check_adjacency(chk, "maps.test", labels, ((1, 2), (0, 2), (0, 1)))
    with pytest.raises(cove.DataError, match=r"trails_of_tucana.toml: maps.test space a1: "
                       r"is next to b2 but b2 is not next to it \(asymmetric\)"):
        check_adjacency(chk, "maps.test", labels, ((1, 2), (0, 2), (1,)))


def test_missing_file() -> None:
    with pytest.raises(cove.DataError, match="cannot read data file"):
        load_tables("/nonexistent/trails_of_tucana.toml")


def test_sight_points_table_matches_the_sight_values() -> None:
    for isl in TABLES.islands.values():
        for m in range(0, len(isl.sight_points), 7):
            kc = [(m & isl.kind_mask[k]).bit_count() for k in range(KINDS)]
            want = sum(sum(isl.sight_values[k][: kc[k]]) for k in range(KINDS))
            assert isl.sight_points[m] == want


def test_bad_options() -> None:
    with pytest.raises(cove.OptionError, match=r"unknown option 'maps'; valid options: "):
        GAME.new(2, maps="grande")
    with pytest.raises(cove.OptionError, match="map='huge' is not valid; allowed: one of: "
                       "petit, grande"):
        GAME.new(2, map="huge")
    with pytest.raises(cove.OptionError, match="from 0 to 13"):
        GAME.new(2, setup_card=14)
    with pytest.raises(cove.OptionError, match="true or false"):
        GAME.new(2, symmetry="sometimes")
    with pytest.raises(cove.OptionError, match="from 0 to 5"):
        GAME.new(1, solo_discards=6)
    s = GAME.new(2, map="grande", special_bonus="yes", counter_clockwise="on")
    assert s.options.to_dict()["map"] == "grande"
