"""The terminal screen fits the width it is given (issue 17, Screens)."""

from __future__ import annotations

from cove.core.rng import Rng
from cove.games.trails_of_tucana import GAME
from cove.testing.screens import screen_problems

GID = "trails-of-tucana"


def test_no_line_wider_than_80_columns() -> None:
    assert screen_problems(GID, 80, games=2, every=11) == []


def test_a_screen_fits_100_by_40() -> None:
    assert screen_problems(GID, 100, 40, games=2, every=11) == []


def test_isla_grande_fits_80_columns_with_a_key_naming_the_axes() -> None:
    assert GAME.render is not None
    s = GAME.new(2, seed=3, map="grande")
    rng = Rng(3)
    while not s.is_over:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    for width in (80, 100):
        text = GAME.render(s.view(0), False, width=width)
        lines = text.splitlines()
        assert max(len(ln) for ln in lines) <= width
        flat = " ".join(text.split())
        assert "Key: columns a-u, rows 1-13;" in flat and "Players (* = you):" in flat
        starts = [ln.split()[:3] for ln in lines]
        assert ["a", "c", "e"] in starts and ["b", "d", "f"] in starts   # column rulers
        assert "Final scores: P1 " in flat and "[" not in flat.split("Final scores:")[1]
