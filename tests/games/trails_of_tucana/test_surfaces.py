"""Trails of Tucana through the shared surfaces, beyond the harness: its bots' levels and
their paired search."""

from __future__ import annotations

import cove
from cove.bots import MctsBot, make_bot, mcts

GAME = "trails-of-tucana"


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


def test_hard_in_trails_of_tucana_races_twelve_moves_at_matched_worlds() -> None:
    hard, medium = _hard_and_medium(GAME)
    assert (hard.iterations, hard.steps) == (round(2.4 * medium.iterations),
                                             round(2.4 * medium.steps))
    assert (hard.width, medium.width) == (12, 5)
    assert (hard.search, hard.rollout, hard.depth) == ("paired", "greedy", medium.depth)
    assert (medium.search, medium.rollout) == ("paired", "greedy")


def test_trails_of_tucana_declares_a_valid_paired_default() -> None:
    game = cove.load(GAME)
    s = game.new(2, seed=3, log=False)
    bot = make_bot("mcts", 1)
    assert isinstance(bot, MctsBot)
    a = bot.act(s, 0)
    assert a in s.legal_actions(0)
    assert bot.search == "paired" and bot.steps <= mcts.DEFAULT_STEPS
    # a game that declares no search of its own keeps the tree search
    plain = next(g for g in cove.all_games() if "mcts" not in g.bot_defaults)
    other = make_bot("mcts", 1)
    s = plain.new(max(2, plain.min_players), seed=1, log=False)
    other.act(s, s.to_move()[0])
    assert isinstance(other, MctsBot) and other.search == "tree"
