"""The Tide: clean the beach of rubbish before the tide brings more (2-6 players)."""

from __future__ import annotations

from cove.core import Game, Options
from cove.games.the_tide import web_board
from cove.games.the_tide.actions import action_key, universe
from cove.games.the_tide.data import DATA
from cove.games.the_tide.help import HELP
from cove.games.the_tide.heuristic import heuristic
from cove.games.the_tide.observation import OBSERVER
from cove.games.the_tide.options import TideOptions
from cove.games.the_tide.render import render
from cove.games.the_tide.state import TIEBREAK, TideState
from cove.games.the_tide.view import end_reason, score_parts


def max_actions(players: int, options: Options) -> int:
    """A safe upper bound on the actions of one game (R7.5 turn limit).

    Setup: one placement per player. Each turn, at most ``turn_limit`` of them (R7.5): up to
    3 placements of the owner's friends (R1.4), one act, then the check: at most one shirking
    decision per friend on the beach (3 per player), and rewards, each of which uses up at
    least 3 held tiles (the smallest collection or necklace), so at most 72 // 3 per check,
    each asking at most double_returned + 1 decisions (4 returns and the reward choice)."""
    assert isinstance(options, TideOptions)
    turn_limit = options.turn_limit
    per_reward = max(DATA.double_returned + 1, DATA.recycling_returned,
                     DATA.collection_returned)
    rewards = sum(DATA.counts) // min(DATA.necklace_shells, *(t for t in DATA.thresholds if t))
    per_turn = DATA.max_on_beach + 1 + DATA.max_on_beach * players + rewards * per_reward
    return players + turn_limit * per_turn


BOT_DEFAULTS = {"hard": "rollout=heuristic"}
"""What this game's ``hard`` level changes (``cove.bots.defaults``;
benchmarks/results/2026-12-bots.md, "The ``hard`` level per game"): four times the
default search with heuristic-guided rollouts, which won 83.3% [75.7, 88.9] of 120 games
against the default ``mcts`` (2 players, seats rotated); four times the random rollouts
alone did not beat it."""


GAME = Game(
    id="the-tide",
    name="The Tide",
    state_cls=TideState,
    min_players=2,
    max_players=6,
    version="6",
    summary="Move friends on a 6x6 beach, collect rubbish groups and shells; every collection "
            "brings the tide, then a check scores recycling and collections. 10 points wins.",
    chance=True,
    hidden_information=True,
    simultaneous=False,
    options_cls=TideOptions,
    heuristic=heuristic,
    render=render,
    max_actions=max_actions,
    actions=universe,
    action_key=action_key,
    observer=OBSERVER,
    safety_ends=("stall guard", "turn limit"),
    board=web_board.draw,
    tiebreak=TIEBREAK,
    score_parts=score_parts,
    end_reason=end_reason,
    move_help=HELP,
    bot_defaults=BOT_DEFAULTS,
)


__all__ = ["GAME"]
