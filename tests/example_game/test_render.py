"""The Toy's terminal screen."""

from __future__ import annotations

from cove.example_game import GAME
from cove.testing.screens import screen_problems
from tests.example_game.helpers import new, with_hands


def test_the_screen_shows_the_scores_and_only_your_hand() -> None:
    s = with_hands(new(2, seed=1, bidding=False), [[3, 9], [4, 5]])
    mine = GAME.render(s.view(0))  # type: ignore[misc]
    assert "Your hand: 3 9" in mine and "P1 (you): 0 points" in mine
    assert "Your hand" not in GAME.render(s.view(None))  # type: ignore[misc]


def test_the_screen_fits_80_columns() -> None:
    assert screen_problems(GAME, width=80, height=24) == []
