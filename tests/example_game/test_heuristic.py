"""The Toy's heuristic, and its bots."""

from __future__ import annotations

from cove.bots import make_bot
from cove.example_game import GAME
from cove.example_game.actions import Play
from tests.example_game.helpers import new, with_hands


def test_the_heuristic_is_the_score_so_far() -> None:
    s = with_hands(new(2, seed=1, bidding=False), [[3, 9], [4, 5]])
    s.apply(0, Play(9))
    assert GAME.heuristic is not None
    assert [GAME.heuristic(s, p) for p in range(2)] == [9.0, 0.0]


def test_greedy_plays_the_highest_card() -> None:
    s = with_hands(new(2, seed=1, bidding=False), [[3, 9], [4, 5]])
    assert make_bot("greedy", 1).act(s, 0) == Play(9)
