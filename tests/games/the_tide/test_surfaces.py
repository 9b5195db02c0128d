"""The Tide through the shared surfaces, beyond the harness: its bots' levels."""

from __future__ import annotations

import cove
from cove.bots import MctsBot, make_bot

GAME = "the-tide"


# -- the bots' levels as this game declares them -------------------------------------------
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


def test_hard_is_four_times_mcts_with_heuristic_rollouts() -> None:
    hard, medium = _hard_and_medium(GAME)
    assert (hard.iterations, hard.steps) == (4 * medium.iterations, 4 * medium.steps)
    assert (hard.rollout, hard.others, hard.search) == ("heuristic", "same", "tree")
    assert (medium.rollout, medium.search) == ("random", "tree")
