"""Tiny Epic Pirates (Gamelyn Games, 2021): sail a 4x4 sea, plunder, trade, fight and be
the first to bury three treasures. See RULES.md for every rule and its source tag."""

from __future__ import annotations

from cove.core import Game, Options
from cove.games.tiny_epic_pirates import web_board
from cove.games.tiny_epic_pirates.actions import action_key, universe
from cove.games.tiny_epic_pirates.help import HELP
from cove.games.tiny_epic_pirates.heuristic import heuristic
from cove.games.tiny_epic_pirates.observation import OBSERVER
from cove.games.tiny_epic_pirates.options import PiratesOptions
from cove.games.tiny_epic_pirates.render import render
from cove.games.tiny_epic_pirates.state import TIEBREAK, PiratesState
from cove.games.tiny_epic_pirates.view import end_reason, score_parts

# A safe bound on the decisions of one turn (every count below is a ceiling, most far off):
# the wheel 1 + skips paid 4 + Deckhands released 4; sailing 16 moves (Legend 4 + Rigging 4
# + sail tokens 8) + 6 tokens spent + stop 1 + a Jostle per move 16; the Order, the
# Captain's 2 bonuses and 8 crew bonuses plus their "end" choice 12; each of those 10 can be
# a battle (sure-fire spends are capped by the 12 tokens on both sides, rerolls 4, fire 2,
# Jostle, port, cube, new Deckhand) or a Crew Up (4), Plunder (2 full-ship choices), Hide
# Out or Reassign (5 moves): at most 35 each; the Navy at the end 16.
TURN_ACTIONS = 9 + 39 + 12 + 10 * 35 + 16


def max_actions(players: int, options: Options) -> int:
    """Upper bound on calls to apply: the setup choices (navy, a cove and a captain side per
    seat) plus TURN_ACTIONS per turn; the game ends after ``max_rounds`` rounds at most
    (R11.3; a third treasure only ends it sooner). Solo: 2 seats, the solo pirate's turns
    are automatic but counted."""
    assert isinstance(options, PiratesOptions)
    seats = max(players, 2)
    return 1 + 2 * seats + options.max_rounds * seats * TURN_ACTIONS


GAME = Game(
    id="tiny-epic-pirates",
    name="Tiny Epic Pirates",
    state_cls=PiratesState,
    min_players=1,
    max_players=4,
    version="9",  # RULES.md "Versions" says what each one changed
    summary="Pirate sandbox on a 4x4 sea: steer your captain round the wheel of orders, "
    "plunder, trade, fight merchants and rivals, and bury three treasures first. "
    "1 player plays against the solo pirate (its rules partly written for Cove).",
    chance=True,
    hidden_information=True,
    simultaneous=False,
    options_cls=PiratesOptions,
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
    declines={"bot_defaults": "no per-game bot parameters: the default search and levels "
              "serve it (its hard level, mcts:scale=4, won 61.9% of 264 games against mcts; "
              "benchmarks/results/2026-12-bots.md)"},
)
