"""The terminal screen: it draws every part of the view, fits the width it is given (80
and 100 columns, 40 lines at 100), names the sea's columns and rows, and colour takes no
width."""

from __future__ import annotations

import re

import pytest

from cove.core import Rng
from cove.games.tiny_epic_pirates import GAME, data
from cove.testing.screens import ANSI, screen_problems, turn_screens
from tests.games.tiny_epic_pirates.helpers import new, play_random

GID = "tiny-epic-pirates"


def test_render_draws_everything() -> None:
    s = new(3, 7)
    play_random(s, 7, limit=400)
    out = GAME.render(s.view(0), False)  # type: ignore[misc]
    assert [ln[:4] for ln in out.splitlines() if ln[3:4] == "|" and ln[1] in "1234"] == [
        " 1 |", " 2 |", " 3 |", " 4 |"]                   # the sea's four rows, labelled
    for word in ("Market:", "Crew line:", "wheel:", "deckhands:", "booty:", "crew:", "P3",
                 "legend", "gold", "treasures", "sure-fire"):
        assert word in out
    assert "\x1b[" in GAME.render(s.view(None), True)  # type: ignore[misc]


def test_no_line_wider_than_80_columns() -> None:
    assert screen_problems(GID, 80, games=2, every=17) == []


def test_a_screen_fits_100_by_40() -> None:
    assert screen_problems(GID, 100, 40, games=2, every=17) == []


def test_sea_axes_say_the_letter_is_the_column() -> None:
    assert GAME.render is not None
    for width in (80, 100):
        lines = GAME.render(new(2, 3).view(0), False, width=width).splitlines()
        if width == 100:   # below 100 columns each card's first line names its column
            assert lines[1].split() == ["column", "a", "column", "b", "column", "c",
                                        "column", "d"]
        assert [ln[:4] for ln in lines if ln[3:4] == "|" and ln[1] in "1234"] == [
            " 1 |", " 2 |", " 3 |", " 4 |"]
        flat = " ".join(" ".join(lines).split())
        assert "Columns a-d, rows 1-4: c2 = column c, row 2" in flat
        assert "wheel: C captain, d deckhand" in flat and "? not searched yet" in flat
        assert "at None" not in flat and "P1 (you) not on the sea:" in flat  # not placed yet
        assert max(len(ln) for ln in lines) <= width


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_whole_sea_and_your_mat_fit_80_by_24(players: int) -> None:
    """At 80x24 the play screen shows all four rows and sixteen cards of the sea, and the
    first line of your mat, at every sampled decision."""
    seen = 0
    for _, p, _, lines in turn_screens(GAME.new(players, 11), 11, every=5,
                                       others=["P2: sail east to b2"] * 3):
        assert len(lines) <= 23 and max(map(len, lines)) <= 80
        text = "\n".join(lines)
        assert [ln[:4] for ln in lines if re.match(r" \d \|", ln)] == [
            " 1 |", " 2 |", " 3 |", " 4 |"], text
        for row in "1234":
            for col in "abcd":
                assert f"|{col}{row} " in text, (col + row, text)
        assert f"P{p + 1} (you)" in text, text
        seen += 1
        if seen == 40:
            break
    assert seen > 10


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


def test_limits_shown_are_the_rulesets() -> None:
    """A pirate's gold, treasures and booty are shown out of the loaded ruleset's gold cap,
    treasure count and ship capacity."""
    assert GAME.render is not None
    ruleset = data.presented()
    s = new(2, 3)
    flat = " ".join(GAME.render(s.view(0), False, width=100).split())
    assert f"gold {ruleset.start_gold}/{ruleset.gold_cap}," in flat
    assert f"treasures 0/{data.TREASURES} (next {ruleset.treasure_cost[0]} gold" in flat
    assert f"/{ruleset.ship_capacity})," in flat or f"booty: 0/{ruleset.ship_capacity}," in flat
