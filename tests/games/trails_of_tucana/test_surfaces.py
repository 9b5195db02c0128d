"""Trails of Tucana through the shared surfaces, beyond the harness: its bots' levels and
their paired search, and PettingZoo's parallel checks at every player count."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

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


# -- the research environments: every turn simultaneous -----------------------------------
def _quiet(fn: Any, *args: Any, **kwargs: Any) -> None:
    with warnings.catch_warnings():
        # dict observations ({"observation", "action_mask"}) make PettingZoo warn that an
        # observation "is not a NumPy array": that is the documented masked-action form
        warnings.simplefilter("ignore")
        fn(*args, **kwargs)


@pytest.mark.parametrize("players", range(1, 9))
def test_parallel_trails_of_tucana(players: int) -> None:
    pytest.importorskip("pettingzoo", reason="pettingzoo is not installed: pip install -e '.[rl]'")
    from pettingzoo.test import parallel_api_test, parallel_seed_test

    from cove.rl import parallel_env

    _quiet(parallel_api_test, parallel_env(GAME, players), num_cycles=1000)
    _quiet(parallel_seed_test,
           lambda: parallel_env(GAME, players, on_illegal="random"))
