"""The terminal screen fits the width it is given (issue 17, Screens)."""

from __future__ import annotations

from cove.core.rng import Rng
from cove.games.tiny_epic_pirates import GAME
from cove.testing.screens import ANSI, screen_problems
from tests.games.tiny_epic_pirates.helpers import new

GID = "tiny-epic-pirates"


def test_no_line_wider_than_80_columns() -> None:
    assert screen_problems(GID, 80, games=2, every=17) == []


def test_a_screen_fits_100_by_40() -> None:
    assert screen_problems(GID, 100, 40, games=2, every=17) == []


def test_sea_axes_say_the_letter_is_the_column() -> None:
    assert GAME.render is not None
    for width in (80, 100):
        lines = GAME.render(new(2, 3).view(0), False, width=width).splitlines()
        assert lines[1].split() == ["column", "a", "column", "b", "column", "c",
                                    "column", "d"]
        assert [ln[:4] for ln in lines if ln[3:4] == "|" and ln[1] in "1234"] == [
            " 1 |", " 2 |", " 3 |", " 4 |"]
        flat = " ".join(" ".join(lines).split())
        assert "Columns a-d, rows 1-4: c2 = column c, row 2" in flat
        assert "wheel: C captain, d deckhand" in flat and "? not searched yet" in flat
        assert "at None" not in flat and "P1 (you) not on the sea:" in flat  # not placed yet
        assert max(len(ln) for ln in lines) <= width


def test_colour_takes_no_width() -> None:
    assert GAME.render is not None
    s = new(3, 5)
    rng = Rng(5)
    for _ in range(40):
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    for width in (80, 100):
        plain = GAME.render(s.view(0), False, width=width)
        assert ANSI.sub("", GAME.render(s.view(0), True, width=width)) == plain
