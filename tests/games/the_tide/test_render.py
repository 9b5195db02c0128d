"""The terminal drawing: beach grid with friends, piles (top / height), holdings, turn; the
screen fits the width it is given, and its legends explain the marks."""

from __future__ import annotations

from cove.games.the_tide import GAME
from cove.games.the_tide.data import DATA
from cove.games.the_tide.render import render
from cove.games.the_tide.rules import finish
from cove.testing.screens import screen_problems

from .helpers import fill, position

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


def test_render_draws_beach_piles_holdings_and_turn() -> None:
    s = position(fill({"c3": "S1", "d4": ".2"}), held={0: "BBP", 1: "SW"}, points=[3, 1])
    text = render(s.view(0), False)
    assert "P1's turn; P1 to decide (move, collect or pass)" in text
    assert " S1 " in text and " .2 " in text  # shell with P1's friend; P2 on an empty square
    assert " C/6 " in text  # pile a: top cigarette, 6 high
    assert "pile a (bottom->top)" not in text
    lines = [ln for ln in text.splitlines() if ln.strip().startswith((">P1", "P2"))]
    assert lines[0].split()[1:8] == ["2", "1", "0", "0", "0", "3", "3"]
    assert lines[1].split()[1:8] == ["0", "0", "0", "1", "1", "1", "2"]
    assert "\x1b[" not in text and "\x1b[" in render(s.view(0), True)


def test_render_all_piles_and_game_over() -> None:
    s = GAME.new(2, seed=3, pile_visibility="all")
    assert "pile a (bottom->top)" in render(s.view(None), False)
    s = position(fill(), points=[2, 1])
    finish(s, "test end")
    text = render(s.view(None), False)
    assert "game over: test end" in text and "winner: P1" in text


def test_render_warns_of_the_stall_guard_and_a_column_end() -> None:
    s = position(fill({"c3": ".1", "f6": ".2", "a1": ".3"}), players=3)
    assert "stall guard" not in render(s.view(0), False)
    s.apply(0, "pass")
    s.apply(1, "pass")
    text = render(s.view(0), False)
    assert "nothing could be collected for 2 turns in a row; at 6 the game ends" in text
    i = position(fill({"c3": "B1", "f6": "W2"}), players=3, stall_counts="idle")
    i.apply(0, "pass")
    i.apply(1, "pass")
    text = render(i.view(0), False)
    assert "no tile collected for 2 turns in a row; at 6 the game ends on points" in text
    rows = fill({"f1": "..", "f2": "..", "f3": "..", "f4": "..", "f5": "..", "f6": "B1",
                 "a1": "S2"})
    e = position(rows, held={0: "PCW"}, column_end="after_check",
                 piles=["SSBBPC", "SSBBPW", "SSBBPC", "SSBBPW", "SSBBPC", ""])
    e.apply(0, "collect bottle at f6")
    assert "the game ends after this check" in render(e.view(0), False)


def test_the_legend_and_the_table_name_the_tiles_as_the_data_file_does() -> None:
    text = " ".join(render(GAME.new(2, seed=2).view(0), False, width=100).split())
    for t in range(1, 6):
        assert f"{DATA.letters[t]} {DATA.long_names[t]}" in text
    assert "bottle bag cig melon shells points tiles friends" in text
