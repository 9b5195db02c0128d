"""Trails of Tucana: a flip-and-write game of trails between villages and sights.

Every turn two terrain cards are revealed and every player at once draws one trail
segment between two adjacent spaces of those terrains on their own island.
"""

from __future__ import annotations

from cove.core import Game, Options
from cove.games.trails_of_tucana import web_board
from cove.games.trails_of_tucana.actions import universe
from cove.games.trails_of_tucana.data import KINDS, TABLES, TURNS_PER_ROUND
from cove.games.trails_of_tucana.help import HELP
from cove.games.trails_of_tucana.heuristic import heuristic
from cove.games.trails_of_tucana.observation import OBSERVER
from cove.games.trails_of_tucana.options import TucanaOptions
from cove.games.trails_of_tucana.render import render
from cove.games.trails_of_tucana.state import TIEBREAK, TucanaState
from cove.games.trails_of_tucana.view import end_reason, score_parts


def max_actions(players: int, options: Options) -> int:
    """Every turn each player makes one draw-step decision (draw or pass); on top of that
    each bonus-step decision either uses a bonus segment or declines the rest, and a player
    earns at most one bonus segment per sight kind in a game (the kind's last sight is
    linked once). So a game takes at most players x (13 turns x rounds + 5) actions."""
    assert isinstance(options, TucanaOptions)
    rounds = TABLES.islands[options.map].rounds
    return players * (TURNS_PER_ROUND * rounds + KINDS)


BOT_DEFAULTS = {
    "mcts": "search=paired,width=5,rollout=greedy,others=random,depth=6,versus=none,"
            "steps=5000",
    "hard": "width=12,scale=2.4",
}
"""The default ``mcts`` of this game (``cove.bots.defaults``;
benchmarks/results/2026-12-bots.md, "Trails of Tucana, the paired search"): a near-
solitaire race in which ``greedy`` is strong and a tree search's noise is the size of the
differences between moves, so the five moves the one-step lookahead rates best are
compared in the same sampled futures, each followed by about three turns of greedy play
(the others at random) and the heuristic; the move with the best mean own estimate is
played. Median about 0.2 s a move.

``hard`` races the twelve best moves instead of five, at 2.4 times the budget (about as
many worlds a move as the default): it won 62.0% [54.9, 68.5] of 192 games against the
default ``mcts``, scoring 78.2 to 72.7 (benchmarks/results/2026-12-bots.md, "Trails of
Tucana's ``hard``"); the eight best at twice the budget had won 53.4% of 192, four times
the budget over the five best 52.1% of 48. Median about 0.4 CPU s a move."""


GAME = Game(
    id="trails-of-tucana",
    name="Trails of Tucana",
    state_cls=TucanaState,
    min_players=1,
    max_players=8,
    version="9",
    summary="Flip-and-write: everyone draws trail segments on their own island at once, "
    "linking sights and village pairs (Isla Petit or Isla Grande).",
    chance=True,
    hidden_information=True,
    simultaneous=True,
    options_cls=TucanaOptions,
    heuristic=heuristic,
    render=render,
    max_actions=max_actions,
    actions=universe,
    observer=OBSERVER,
    board=web_board.draw,
    tiebreak=TIEBREAK,
    score_parts=score_parts,
    end_reason=end_reason,
    move_help=HELP,
    bot_defaults=BOT_DEFAULTS,
)


__all__ = ["GAME"]
