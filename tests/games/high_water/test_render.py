"""The terminal screen: it fits the width it is given, and its legend explains the dice and
the cost icons in the data file's words."""

from __future__ import annotations

from cove.games.high_water import GAME
from cove.games.high_water.data import DATA
from cove.testing.screens import screen_problems

GID = "high-water"


def test_no_line_wider_than_80_columns() -> None:
    assert screen_problems(GID, 80, games=2, every=11) == []


def test_a_screen_fits_100_by_40() -> None:
    assert screen_problems(GID, 100, 40, games=2, every=11) == []


def test_legend_explains_the_dice_and_the_cost_icons() -> None:
    assert GAME.render is not None
    for width in (80, 100):
        text = GAME.render(GAME.new(3, seed=2).view(0), False, width=width)
        flat = " ".join(text.split())
        for colour in ("y yellow:", "br brown:", "r red:", "bl blue:", "g green:"):
            assert colour in flat
        assert "Dice: y6 = a yellow 6" in flat and "4+ face 4 or more" in flat
        for c in DATA.colours:  # each die's action, in the data file's words
            assert f"{c.id} {c.name}: {c.text}" in flat
        assert "did won_trick" not in flat and "[r" not in text   # no identifiers, no [r6]
        assert max(len(ln) for ln in text.splitlines()) <= width
