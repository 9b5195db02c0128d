"""High Water: dice crates, a water coin, a secret trick, crews and quests (2-5 players)."""

from __future__ import annotations

from cove.core import Game, Options
from cove.games.high_water import web_board
from cove.games.high_water.actions import MAX_PLAYERS, action_key, universe
from cove.games.high_water.data import get
from cove.games.high_water.help import HELP
from cove.games.high_water.heuristic import heuristic
from cove.games.high_water.observation import OBSERVER
from cove.games.high_water.options import HighWaterOptions
from cove.games.high_water.render import render
from cove.games.high_water.state import TIEBREAK, HighWaterState
from cove.games.high_water.view import end_reason, score_parts


def max_actions(players: int, options: Options) -> int:
    """A safe upper bound on the actions (``apply`` calls) of a game: the game ends by round
    ``max_rounds`` at the latest (R29), and every round is finite:
    - trick: each player plays once, then once per re-reveal; a re-reveal needs a card not yet
      revealed in the trick, so at most T - 1 of them (T trick cards), and at most the cap;
    - crate picks: one per player;
    - a segment: at most 5 step moves (next step/stop); per crew card one activation plus its
      follow-up choices (a Navigator marks every die then rolls: dice + 1; a target, a face);
      every die is spent at most once (a use with up to 3 follow-ups, or a pattern/task payment)
      and every purchase costs a die; each task of every quest is advanced once; Step 1 asks
      one target per passive; Step 6 asks 2 and the carry cap returns at most every die;
    - between rounds a short bag takes back at most every die.
    """
    assert isinstance(options, HighWaterOptions)
    data = get(options.data_file)
    dice = data.total_dice
    crew = len(data.crew_deck)
    tasks = sum(len(data.cards[c].tasks) for c in data.quest_deck) + players * len(
        data.cards[data.starting_quest].tasks)
    trick = players * (1 + min(options.tie_rereveals, len(data.trick_cards) - 1))
    segment = (5 + crew * (dice + 3) + 4 * dice + dice + dice + tasks + crew + 2 + dice)
    per_round = trick + players + players * segment + dice
    return options.max_rounds * per_round


BOT_DEFAULTS = {"hard": "rollout=heuristic,scale=1"}
"""What this game's ``hard`` level changes (``cove.bots.defaults``;
benchmarks/results/2026-12-bots.md, "The ``hard`` level per game"): the default budget
with heuristic-guided rollouts, which won 86.7% [79.4, 91.6] of 120 games against the
default ``mcts`` (2 players, seats rotated). Its games run over 100 decisions a player
and a heuristic rollout costs about three random ones, so four times that budget (the
level's ``scale=4``) was not measured."""


GAME = Game(
    id="high-water",
    name="High Water",
    state_cls=HighWaterState,
    min_players=2,
    max_players=MAX_PLAYERS,
    version="6",
    summary=(
        "Draft dice crates by a secret trick whose direction a water coin sets, then spend "
        "dice, gold and rum on crew and quests; first to 20 influence (working title; the "
        "round comes from the designer's fragment; the rest was completed for Cove)"
    ),
    chance=True,
    hidden_information=True,
    simultaneous=True,
    options_cls=HighWaterOptions,
    heuristic=heuristic,
    render=render,
    max_actions=max_actions,
    actions=universe,
    action_key=action_key,
    observer=OBSERVER,
    safety_ends=("round cap",),
    board=web_board.draw,
    tiebreak=TIEBREAK,
    score_parts=score_parts,
    end_reason=end_reason,
    move_help=HELP,
    bot_defaults=BOT_DEFAULTS,
)


__all__ = ["GAME", "HighWaterState"]
