"""The levels players pick (``easy``, ``medium``, ``hard``) as each game declares them."""

from __future__ import annotations

import pytest

import cove
from cove.bots import MctsBot, make_bot


def _hard_and_medium(game_id: str) -> tuple[MctsBot, MctsBot]:
    """The two levels' bots after each has played a legal move in ``game_id`` (a bot takes
    its game's declared parameters on its first move there)."""
    s = cove.load(game_id).new(2, seed=5, log=False)
    hard, medium = make_bot("hard", 1), make_bot("medium", 1)
    p = s.to_move()[0]
    assert isinstance(hard, MctsBot) and isinstance(medium, MctsBot)
    for bot in (hard, medium):
        assert bot.act(s, p) in s.legal_actions(p)
    return hard, medium


@pytest.mark.parametrize("game_id", ["tricky-tides", "the-tide"])
def test_hard_is_four_times_mcts_with_heuristic_rollouts(game_id: str) -> None:
    hard, medium = _hard_and_medium(game_id)
    assert (hard.iterations, hard.steps) == (4 * medium.iterations, 4 * medium.steps)
    assert (hard.rollout, hard.others, hard.search) == ("heuristic", "same", "tree")
    assert (medium.rollout, medium.search) == ("random", "tree")


def test_hard_in_high_water_is_the_default_budget_with_heuristic_rollouts() -> None:
    hard, medium = _hard_and_medium("high-water")
    assert (hard.iterations, hard.steps, hard.rollout) == (medium.iterations, medium.steps,
                                                           "heuristic")
    assert medium.rollout == "random"


def test_hard_in_tiny_epic_pirates_is_its_mcts_at_four_times_the_budget() -> None:
    hard, medium = _hard_and_medium("tiny-epic-pirates")
    assert (hard.iterations, hard.steps) == (4 * medium.iterations, 4 * medium.steps)
    assert (hard.rollout, hard.search) == (medium.rollout, medium.search)


def test_hard_in_trails_of_tucana_races_twelve_moves_at_matched_worlds() -> None:
    hard, medium = _hard_and_medium("trails-of-tucana")
    assert (hard.iterations, hard.steps) == (round(2.4 * medium.iterations),
                                             round(2.4 * medium.steps))
    assert (hard.width, medium.width) == (12, 5)
    assert (hard.search, hard.rollout, hard.depth) == ("paired", "greedy", medium.depth)
    assert (medium.search, medium.rollout) == ("paired", "greedy")
