"""The data file and the options: the counts the rulebook states (R1), the event cards as
data (R12.6), malformed files refused naming the file, the entry and the problem, and bad
option values refused with the valid ones."""

from __future__ import annotations

from pathlib import Path

import pytest

import cove
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides import data as tdata
from cove.games.tricky_tides.data import DATA
from cove.games.tricky_tides.options import COLOURS, TidesOptions
from tests.games.tricky_tides.helpers import all_islands, at_sail, card, mask, new, texts


def test_r1_1_component_counts() -> None:
    assert sum(DATA.cubes) == 78
    assert len(DATA.headings) == 32
    assert len(DATA.islands) == 12
    assert len(DATA.orders) == 36
    assert len(DATA.sightings) == 4


def test_r1_2_four_suits_of_eight() -> None:
    assert DATA.suits == ("octopus", "sea dragon", "shark", "whale")
    assert all(len(h) >= 1 for h in DATA.headings)
    assert card("shark", 8) == 23 and card("octopus", 1) == 0


def test_r1_3_octopus_5_headings() -> None:
    names = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
    assert [names[h] for h in DATA.headings[card("octopus", 5)]] == ["ne", "e", "se", "sw", "nw"]
    # DESIGN profile: 6/6/5/5/5/4/4/3 headings by value, each heading 19 times overall
    assert [len(DATA.headings[card("whale", v)]) for v in range(1, 9)] == [6, 6, 5, 5, 5, 4, 4, 3]
    counts = [sum(h in hs for hs in DATA.headings) for h in range(8)]
    assert counts == [19] * 8


def test_r1_3_flat_navigation_profile() -> None:
    """The notes' alternative profile (option nav_deck=flat): every card 5 headings, each
    heading 20 times in the deck and 5 per suit, 5 of Octopus as sourced, no two alike."""
    flat = DATA.headings_flat
    assert len(flat) == 32 and all(len(h) == 5 for h in flat)
    assert len(set(flat)) == 32
    assert [sum(h in hs for hs in flat) for h in range(8)] == [20] * 8
    for s in range(4):
        assert [sum(h in hs for hs in flat[s * 8:s * 8 + 8]) for h in range(8)] == [5] * 8
    assert flat[card("octopus", 5)] == DATA.headings[card("octopus", 5)] == (1, 2, 3, 5, 7)
    # play: the 8 of Octopus is E W NW by default, NE E SE S W in the flat deck
    for deck, want in (("falling", ["sail e", "sail w", "sail nw"]),
                       ("flat", ["sail ne", "sail e", "sail se", "sail s", "sail w"])):
        s = new(4, 1, nav_deck=deck)
        all_islands(s)
        s.hands[0] |= mask(card("octopus", 8))
        at_sail(s, 0, card("octopus", 8), "b2")
        assert texts(s, 0) == [*want, "drop anchor"]
        heads = [c["headings"] for c in s.view(0)["hand"] if c["card"] == "8 octopuses"]
        assert heads == [[w.split()[1] for w in want]]
        assert s.view(0)["seats"][0]["played"]["headings"] == heads[0]
    with pytest.raises(cove.OptionError):
        GAME.new(4, 1, nav_deck="steep")


def test_r1_4_islands() -> None:
    ships = [i for i in DATA.islands if i.colour >= 0]
    monsters = [i for i in DATA.islands if i.monster >= 0]
    assert len(ships) == 8 and len(monsters) == 4
    assert sorted(i.colour for i in ships) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert sorted(i.monster for i in monsters) == [0, 1, 2, 3]   # monster icons in the data
    assert sum(i.goods for i in DATA.islands) == 46


def test_r1_5_orders() -> None:
    for m in range(4):
        mine = [o for o in DATA.orders if o.monster == m]
        assert len(mine) == 9 and sum(o.gold for o in mine) == 40
    assert all(sum(o.need) >= 1 for o in DATA.orders)


def test_r1_6_sightings() -> None:
    a = DATA.sightings[0]
    assert a.id == "A" and a.bonus == (3, 0, 1, 2)   # seed example: octopus 3, dragon 0, whale 2
    for m in range(4):   # Latin square: each monster is worth 3/2/1/0 on exactly one card
        assert sorted(sc.bonus[m] for sc in DATA.sightings) == [0, 1, 2, 3]


def test_r1_7_cube_mix() -> None:
    assert dict(zip(DATA.goods, DATA.cubes, strict=True)) == {
        "sugar": 20, "coffee": 20, "silk": 15, "spice": 15, "gold": 8}
    assert DATA.sell == (3, 3, 2, 2, 1)


@pytest.mark.parametrize(("old", "new_text", "needle"), [
    ('count = 8', 'count = 9', "must total 78"),
    ('id = "O36", monster = "whale"', 'id = "O36", monster = "kraken"', "order O36"),
    ('"E SW NW",\n]', '"E SW QQ",\n]', "navigation.whale value 8"),
    ('"N NE SE W NW",\n]', '"N NE SE W QQ",\n]', "navigation_flat.whale value 8"),
    ('id = "D"', 'idx = "D"', "sightings[3]: unknown field 'idx'"),
    ('icon = "ship"\ncolour = 1\n', 'icon = "ship"\n', "island I01: missing field 'colour'"),
    ('icon = "monster"\nmonster = "shark"', 'icon = "monster"\ncolour = 2\nmonster = "shark"',
     "island I09: a monster island has no colour"),
    ('goods = { sugar = 2 } }', 'goods = { rum = 2 } }', "order O01: goods type 'rum' is not one"),
    ('goods = { sugar = 2 } }', 'goods = { sugar = 0 } }', "orders[0].goods.sugar: must be at "
     "least 1"),
    ('\n[navigation_flat]\n', '\n[navigation_steep]\n', "unknown field 'navigation_steep'"),
])
def test_r1_8_malformed_data_file(tmp_path: Path, old: str, new_text: str, needle: str) -> None:
    text = tdata.DATA_FILE.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new_text, 1), encoding="utf-8")
    with pytest.raises(cove.DataError) as err:
        tdata.load(bad)
    assert "bad.toml" in str(err.value) and needle in str(err.value)


def test_r1_8_data_file_drops_an_island(tmp_path: Path) -> None:
    text = tdata.DATA_FILE.read_text(encoding="utf-8")
    start = text.index("[[islands]]\nid = \"I12\"")
    bad = tmp_path / "bad.toml"
    bad.write_text(text[:start] + text[text.index("[[sightings]]"):], encoding="utf-8")
    with pytest.raises(cove.DataError, match="expected 12 island cards, found 11"):
        tdata.load(bad)


# ----------------------------------------------------------------------------- R12.6 events
@pytest.mark.parametrize(("old", "new_text", "needle"), [
    ('changes = { hold_limit = 5 }', 'changes = { hold_limit = 0 }',
     "events[7].changes.hold_limit: must be at least 1"),
    ('changes = { hold_limit = 5 }', 'changes = { hold_limit = 5.0 }',
     "events[7].changes.hold_limit: must be int, got a float"),
    ('changes = { stride = 2 }', 'changes = { tide = 2 }',
     "events[3].changes: unknown field 'tide'; fields: monster_trigger, wrap"),
    ('changes = { headings = "orthogonal" }', 'changes = { headings = "diagonal" }',
     "events[4].changes.headings: value 'diagonal' is not one of card, orthogonal, widened"),
    ('key = "storm"', 'key = "smugglers"', "events: event keys must be unique"),
    ('key = "doldrums"', 'key = "Doldrums"', "event E05: key must be lower-case"),
])
def test_r12_6_events_are_data(tmp_path: Path, old: str, new_text: str, needle: str) -> None:
    assert [e.id for e in DATA.events] == [f"E{i:02d}" for i in range(1, 13)]
    text = tdata.DATA_FILE.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new_text, 1), encoding="utf-8")
    with pytest.raises(cove.DataError) as err:
        tdata.load(bad)
    assert "bad.toml" in str(err.value) and needle in str(err.value)


def test_r12_6_data_file_drops_an_event(tmp_path: Path) -> None:
    text = tdata.DATA_FILE.read_text(encoding="utf-8")
    start = text.index('[[events]]\nid = "E12"')
    bad = tmp_path / "bad.toml"
    bad.write_text(text[:start], encoding="utf-8")
    with pytest.raises(cove.DataError, match="expected 12 event cards, found 11"):
        tdata.load(bad)


# ----------------------------------------------------------------------------- screen colours
def test_screen_colours_are_data() -> None:
    """The shade of each goods type and the colour of each suit that screens draw are in
    the data file, one per goods type and per suit."""
    assert len(DATA.fills) == len(DATA.goods) and len(DATA.suit_fills) == len(DATA.suits)
    assert all(tdata.FILL.fullmatch(f) for f in (*DATA.fills, *DATA.suit_fills))


@pytest.mark.parametrize(("old", "new_text", "needle"), [
    ('fill = "#6b4226"', 'fill = "brown"', "goods[1].fill: must be a colour like #a1b2c3"),
    ('fill = "#6b4226"\n', "", "goods[1].fill: missing"),
    ('"#52708a", "#2b5fae"]', '"#52708a"]', "suit_fills: expected 4 colours, one per suit"),
    ('"#2b5fae"]', '"#2b5faeff"]', "suit_fills[3] (whale): must be a colour like"),
])
def test_malformed_screen_colours(tmp_path: Path, old: str, new_text: str, needle: str) -> None:
    text = tdata.DATA_FILE.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new_text, 1), encoding="utf-8")
    with pytest.raises(cove.DataError) as err:
        tdata.load(bad)
    assert "bad.toml" in str(err.value) and needle in str(err.value)


# ----------------------------------------------------------------------------- options
def test_unknown_option_and_bad_value() -> None:
    with pytest.raises(cove.OptionError, match="valid options: delivered_goods_to_bag"):
        GAME.new(3, 1, kraken=True)
    with pytest.raises(cove.OptionError, match="subset of: low-tide, edge-of-the-world"):
        GAME.new(3, 1, events=True, event_deck="low-tide,high-tide")
    with pytest.raises(cove.OptionError, match="at least one event"):
        GAME.new(3, 1, events=True, event_deck="")
    with pytest.raises(cove.OptionError, match="one of: holds, island"):
        GAME.new(3, 1, monsters=True, shark="bite")
    with pytest.raises(cove.OptionError, match="one of: winner, lead"):
        GAME.new(3, 1, sail_ties_from="left")
    with pytest.raises(cove.OptionError, match="true or false"):
        GAME.new(3, 1, delivered_goods_to_bag="maybe")


def test_ship_colours_are_the_data_colours_and_check_guards_them() -> None:
    """The core refuses a ship_colours list with too few (none included) or repeated
    entries; the game's own check() guards options built directly the same way."""
    assert COLOURS == ("1", "2", "3", "4")
    with pytest.raises(cove.OptionError, match="gives 2 of the 3 entries"):
        GAME.new(3, 2, ship_colours="2,1")
    with pytest.raises(cove.OptionError, match="lists an entry twice"):
        GAME.new(2, 2, ship_colours="1,1")
    with pytest.raises(cove.OptionError, match="must give 2 different colours"):
        TidesOptions(ship_colours=("3", "3")).check(2)
    with pytest.raises(cove.OptionError, match="must give 3 different colours"):
        TidesOptions(ship_colours=("3", "1")).check(3)
    with pytest.raises(cove.OptionError, match="gives 0 of the 3 entries"):
        GAME.new(3, 2, ship_colours="")
    with pytest.raises(cove.OptionError, match="must give 3 different colours"):
        TidesOptions(ship_colours=()).check(3)
    assert TidesOptions(ship_colours=("4", "2", "1")).seat_colours(2) == ("4", "2")

