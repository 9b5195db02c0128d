"""The Toy through the shared surfaces, beyond the harness: the terminal's move help and
end summary come from its declaration."""

from __future__ import annotations

from cove.example_game import GAME
from cove.tui.hooks import move_help
from cove.tui.summary import final_summary
from tests.example_game.helpers import new, play_out


def test_the_move_help_says_what_each_legal_move_does() -> None:
    s = new(2, seed=1)
    for p in s.to_move():
        for action in s.legal_actions(p):
            assert move_help(GAME, str(action)), str(action)


def test_the_end_summary_shows_the_score_parts_and_the_winner() -> None:
    s = play_out(new(3, seed=2))
    lines = final_summary(GAME, s, [0])
    assert sum("cards played" in line and "bid" in line for line in lines) == 3
    assert lines[-1].startswith(("Winner: ", "Shared win: "))
