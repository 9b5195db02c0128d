"""The data file and the options: a malformed file is refused naming the file, the entry
and the field (counts, icons, tasks, effects, colours); a designer's edit plays without
code; bad option values are refused and the options are listed."""

from __future__ import annotations

from pathlib import Path

import pytest

import cove
from cove.games.high_water import GAME
from cove.games.high_water.data import DEFAULT_PATH, load
from tests.games.high_water.helpers import new

TEXT = DEFAULT_PATH.read_text(encoding="utf-8")


def bad(tmp_path: Path, old: str, new_text: str) -> Path:
    assert old in TEXT, old
    p = tmp_path / "hw.toml"
    p.write_text(TEXT.replace(old, new_text, 1), encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("old", "new_text", "message"),
    [
        ('cost = ["r 4+", "any"]', 'cost = ["r 7+", "any"]',
         "crew 'Gunner': field 'cost': icon 'r 7\\+' needs pips from 1 to 6"),
        ('cost = ["bl", "bl"]', 'cost = ["purple", "bl"]',
         "crew 'Navigator': field 'cost': icon 'purple' names unknown colour"),
        ('tasks = ["pay 3g"]', 'tasks = ["pay 3 doubloons"]',
         "quest 'Pay the Harbourmaster': field 'tasks\\[1\\]'"),
        ('tasks = ["did used_blue", "pay 1g"]', 'tasks = ["did used_purple", "pay 1g"]',
         "quest 'Scout the Reef': field 'tasks\\[1\\]': unknown flag 'used_purple'"),
        ('tasks = ["did used_blue", "pay 1g"]', 'tasks = ["did used_blue", "did used_blue"]',
         "quest 'Scout the Reef': field 'tasks\\[2\\]': 'did used_blue' appears twice"),
        ('influence = 8\n', 'influence = "eight"\n',
         "quests\\[19\\].influence: must be int, got text"),
        ('type = "passive"\ncost = ["y", "any"]', 'type = "pasive"\ncost = ["y", "any"]',
         "crew\\[0\\].type: value 'pasive' is not one of passive, active"),
        ('effect = { kind = "cycle_market" }', 'effect = { kind = "teleport" }',
         "crew\\[10\\].effect.kind: value 'teleport' is not one of"),
        ('pay = { gold = 2 }', 'pay = { gold = 2, dice = 1 }',
         "crew\\[11\\].pay: unknown field 'dice'; fields: gold, rum"),
        ('name = "Distiller"\ncopies = 2\ntype = "passive"',
         'name = "Distiller"\ncopies = 2\ntype = "passive"\npay = { gold = 1 }',
         "crew 'Distiller': field 'pay': a passive card has no activation cost"),
        ('name = "Cook"\ncopies = 2\ntype = "active"',
         'name = "Cook"\ncopies = 3\ntype = "active"',
         "\\[\\[crew\\]\\]: the file has 25 crew cards but \\[counts\\] crew = 24"),
        ('id = "g"\nname = "green"\ncount = 8', 'id = "g"\nname = "green"\ncount = 7',
         "\\[\\[colours\\]\\]: the colour counts add up to 39 dice but \\[counts\\] dice = 40"),
        ('name = "Fence"', 'name = "Cook"',
         "crew #8: field 'name' 'Cook' must be non-empty and unique"),
        ('gold = 2\nrum = 1', 'gold = -2\nrum = 1', "setup.gold: must be at least 0"),
        ('fill = "#f2c500"', 'fill = "yellow"',
         "colour 'y': field 'fill' must be a colour like \"#f2c500\", got 'yellow'"),
        ('fill = "#2e9a4a"\n', '', "colours\\[4\\].fill: missing"),
        ('ansi = "38;5;130"', 'ansi = "brown"',
         "colour 'br': field 'ansi' must be a terminal colour code"),
        ('if = "won_trick"', 'if = "won_it"',
         "crew 'Lookout': field 'effect.if': unknown flag 'won_it'; flags: won_trick"),
        ('if = "won_trick"', 'iff = "won_trick"', "crew\\[2\\].effect: unknown field 'iff'"),
        ('pay = { rum = 1 }\n', '', "crew 'Fence': missing field 'pay'"),
        ('type = "passive"\ncost = ["y", "any"]', 'type = "passive"\npay = {}\ncost = ["y", "any"]',
         "crew 'Purser': field 'pay': a passive card has no activation cost"),
        ('effect = { kind = "remove_marker" }', 'effect = { kind = "reroll" }',
         "crew \"Ship's Carpenter\": field 'effect.kind' 'reroll' is not one of gain, sabotage, "
         "remove_marker"),
        ('by_face = [1, 1, 1, 2, 2, 2]', 'by_face = [1, 1, 2, 2, 2]',
         "colour 'y': field 'action.by_face' must list 6 amounts"),
    ],
)
def test_malformed_data_names_file_card_and_field(tmp_path: Path, old: str, new_text: str,
                                                  message: str) -> None:
    path = bad(tmp_path, old, new_text)
    with pytest.raises(cove.DataError, match="hw.toml: " + message):
        load(path)
    with pytest.raises(cove.DataError, match=message):
        GAME.new(2, data_file=str(path))


def test_not_toml_at_all(tmp_path: Path) -> None:
    p = tmp_path / "hw.toml"
    p.write_text("[[crew]\nname=", encoding="utf-8")
    with pytest.raises(cove.DataError, match=r"hw\.toml: not valid TOML"):
        load(p)


def test_a_designer_can_edit_a_card_without_code(tmp_path: Path) -> None:
    path = bad(tmp_path, 'effect = { kind = "gain", gold = 1 }',
               'effect = { kind = "gain", gold = 3 }')
    s = GAME.new(2, data_file=str(path))
    purser = next(c for c in s.data.cards if c.name == "Purser")  # type: ignore[attr-defined]
    assert purser.effect.gold == 3 and purser.text == "gain 3 gold"


def test_options_are_validated_and_listed() -> None:
    with pytest.raises(cove.OptionError, match="unknown option 'gaol'"):
        GAME.new(2, gaol=10)
    with pytest.raises(cove.OptionError, match="goal=0"):
        GAME.new(2, goal=0)
    with pytest.raises(cove.OptionError, match="one of: all, first"):
        GAME.new(2, tie_scope="some")
    names = [o["name"] for o in GAME.describe()["options"]]
    assert names == ["goal", "max_rounds", "carry_cap", "max_quests", "tie_rereveals",
                     "tie_scope", "idle_dice_actions", "actives_need_effect", "data_file"]
    assert new(2, goal="15").options.goal == 15
