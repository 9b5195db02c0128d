"""The terminal screen fits the width it is given (issue 17, Screens)."""

from __future__ import annotations

from cove.games.the_tide import GAME
from cove.testing.screens import screen_problems

GID = "the-tide"


def test_no_line_wider_than_80_columns() -> None:
    assert screen_problems(GID, 80, games=2, every=11) == []


def test_a_screen_fits_100_by_40() -> None:
    assert screen_problems(GID, 100, 40, games=2, every=11) == []


def test_legend_explains_the_turn_and_you_marks_and_the_axes() -> None:
    assert GAME.render is not None
    for width in (80, 100):
        state = GAME.new(3, seed=2)
        p = state.to_move()[0]
        text = GAME.render(state.view(p), False, width=width)
        flat = " ".join(text.split())
        assert f">P{p + 1}* " in text                              # the marks being explained
        assert "> = whose turn it is; * = you" in flat
        assert "Columns a-f, rows 1-6 (c3 = column c, row 3)" in flat
        assert max(len(ln) for ln in text.splitlines()) <= width


def test_the_players_table_comes_before_the_legends() -> None:
    assert GAME.render is not None
    state = GAME.new(2, seed=2)
    lines = GAME.render(state.view(0), False, width=80).splitlines()
    table = next(i for i, ln in enumerate(lines) if ln.split()[:2] == ["bottle", "bag"])
    legend = next(i for i, ln in enumerate(lines) if "Columns a-f" in ln)
    grid_end = max(i for i, ln in enumerate(lines) if ln.strip().startswith("+--"))
    assert grid_end < table < legend and table + 3 < 16   # both players within 16 lines
