"""The terminal screen: map, cards, deck, round, score boxes, bonus cards, other players;
every line fits the width it is given."""

from __future__ import annotations

import re

from cove.core import Rng
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.render import render
from cove.testing.screens import screen_problems, turn_screens
from tests.games.trails_of_tucana.helpers import link, new, play_out, play_turns, reveal

ANSI = re.compile(r"\x1b\[[0-9;]*m")
GID = "trails-of-tucana"


def test_render_shows_the_whole_public_state() -> None:
    s = new(3, seed=4, setup_card=1)
    link(s, 0, "i1", "j2")
    link(s, 0, "j2", "k3")
    reveal(s, "desert", "any")
    plain = render(s.view(0), False)
    assert "\x1b[" not in plain
    assert "Isla Petit" in plain and "round 1/2, turn 1/13" in plain and "deck: 25" in plain
    assert "Revealed terrain cards: DESERT + ANY" in plain
    assert "Your island (P1)" in plain
    lines = plain.splitlines()
    row_a = next(line for line in lines if line.startswith(" 1 "))  # the top row
    assert "M(C)────M" not in row_a  # i1-k1 not drawn
    assert "M(C)" in row_a  # village 1 has letter C
    assert any("\\" in line and line.startswith(" ") for line in lines)  # i1-j2 drawn
    assert "DOB*" in plain  # the obelisk at k3 is linked
    assert "Sight boxes: I=-  II=-" in plain and "obelisk [1] 2" in plain
    assert "Blue bonus cards left: A-A: 3  B-B: 4" in plain
    assert " P2: score   0" in plain and "*P1: score   1" in plain
    colored = render(s.view(0), True)
    assert "\x1b[" in colored
    assert ANSI.sub("", colored) == plain  # colour adds nothing a plain terminal misses


def test_render_pending_bonus_and_round_two_and_end() -> None:
    s = new(1, seed=2)
    link(s, 0, "i1", "j2")
    link(s, 0, "j2", "k3")
    link(s, 0, "j10", "k9")
    reveal(s, "desert", "desert")
    s.apply(0, "draw j8-k9")
    text = render(s.view(0), False)
    assert "You have 1 bonus segment to draw" in text
    assert "Your segments this turn: draw j8-k9" in text
    assert "Connected this turn: obelisk at j8" in text  # the log line waits for the chain
    assert "Solo (unofficial rule): reach 70 points to win" in text
    play_turns(s, Rng(1), 14)
    assert "round 2/2" in render(s.view(0), False)
    play_out(s, Rng(2))
    end = render(s.view(0), False)
    assert "game over" in end and "Final scores:" in end
    assert s.winners() == () and "winner(s): none" in end  # a solo game short of its target


def test_render_grande_spectator_and_red_cards() -> None:
    s = new(8, seed=3, map="grande", special_bonus=True)
    text = render(s.view(None), False)
    assert "Isla Grande" in text and "Island of P1 (spectator)" in text
    assert "Red bonus cards:" in text and "III=-" in text
    assert sum(1 for line in text.splitlines() if re.match(r" [ *]P\d: score", line)) == 8
    width = max(len(line) for line in text.splitlines()[:40] if line.startswith((" 1 ", "13 ")))
    assert width <= 90


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


def test_at_80_columns_the_rows_are_consecutive_and_diagonals_sit_beside_their_space(
) -> None:
    """Below 100 columns Isla Petit's ten rows sit on ten lines under one ruler; a trail
    to the row below is drawn beside its upper space ('\\' after it, '/' before it) and a
    trail within a row is '──' between them."""
    s = new(3, seed=4, setup_card=1)
    link(s, 0, "i1", "j2")      # down and right from i1
    link(s, 0, "k3", "j4")      # down and left from k3
    link(s, 0, "d4", "f4")      # within row 4
    lines = render(s.view(0), False, width=80).splitlines()
    rows = [i for i, ln in enumerate(lines) if re.match(r"[ 1]\d ", ln)]
    assert [lines[i][:2] for i in rows] == [f"{r:>2}" for r in range(1, 11)]
    assert rows == list(range(rows[0], rows[0] + 10))             # no line between rows
    assert lines[rows[0] - 1].split()[:3] == ["a", "b", "c"]     # one ruler for all
    col = {c: 4 + 4 * (ord(c) - ord("a")) for c in "abcdefghijklmnopqr"}
    assert lines[rows[0]][col["i"] - 1: col["i"] + 4] == "M(C)\\"
    assert lines[rows[2]][col["k"] - 2] == "/"
    assert lines[rows[3]][col["d"] + 4: col["d"] + 6] == "──"
    flat = " ".join(" ".join(lines).split())
    assert "\\ after a space or / before it: a trail to the row below" in flat
    wide = render(s.view(0), False, width=100).splitlines()
    assert sum(1 for ln in wide if re.match(r"[ 1]\d ", ln)) == 10 and len(wide) > len(lines)


def test_the_whole_island_fits_80_by_24_beside_up_to_six_lines_of_moves() -> None:
    """Six lines of moves and notes (some forty segments) leave room for the whole island
    (an "any" card can offer ninety: then the moves take the screen)."""
    from cove.tui.layout import compact_moves

    seen = 0
    for _, _, turn, lines in turn_screens(new(2, seed=6), 6, every=6,
                                          others=["P2: draw a1-b2"] * 3):
        if len(compact_moves(turn.moves, 80)) + len(turn.notes) <= 6:
            text = "\n".join(lines)
            assert all(re.search(rf"^{r:>2} ", text, re.M) for r in range(1, 11)), text
            seen += 1
    assert seen > 5
