"""The terminal screen fits the width it is given (issue 17, Screens)."""

from __future__ import annotations

import re

from cove.games.tricky_tides import GAME
from cove.testing.screens import screen_problems
from tests.games.tricky_tides.helpers import new

GID = "tricky-tides"


def test_no_line_wider_than_80_columns() -> None:
    assert screen_problems(GID, 80, games=2, every=11) == []


def test_a_screen_fits_100_by_40() -> None:
    assert screen_problems(GID, 100, 40, games=2, every=11) == []


def test_map_has_axis_labels_and_a_legend() -> None:
    assert GAME.render is not None
    for width in (80, 100):
        lines = GAME.render(new(3, 5).view(0), False, width=width).splitlines()
        assert ["a", "b", "c"] in [ln.split() for ln in lines]        # column letters
        rows = [ln[:4] for ln in lines if re.match(r" \d \|", ln)]
        assert rows == [" 1 |", " 2 |", " 3 |", " 4 |"]              # row numbers
        flat = " ".join(" ".join(lines).split())
        assert "[n] island's goods number" in flat and "Su=sugar" in flat
        assert "P1-P4 ships" in flat and "north is up" in flat
        assert "(in brackets: the headings a card sails)" in flat
        assert max(len(ln) for ln in lines) <= width
