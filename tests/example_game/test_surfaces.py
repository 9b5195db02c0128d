"""The Toy through the shared surfaces, beyond the harness: the terminal's help and the
end screen's tie-break come from its declaration."""

from __future__ import annotations

from cove.example_game import GAME
from cove.tui.hooks import move_help
from cove.web import fragments
from tests.example_game.helpers import new, play_out


def test_the_move_help_says_what_each_legal_move_does() -> None:
    s = new(2, seed=1)
    for p in s.to_move():
        for action in s.legal_actions(p):
            assert move_help(GAME, str(action)), str(action)


def test_the_end_screen_names_the_winner_and_the_final_scores() -> None:
    s = play_out(new(3, seed=2))
    html = fragments.end(s, s.view(0), 0)
    assert "Game over" in html and all(f"P{w + 1}" in html for w in s.winners())
