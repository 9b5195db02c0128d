"""Tricky Tides: trick-taking that steers merchant ships round a 3x4 map (with optional
event and monster modules)."""

from __future__ import annotations

from cove.core import Game, Options
from cove.games.tricky_tides import web_board
from cove.games.tricky_tides.actions import universe
from cove.games.tricky_tides.constants import HANDS, ROUNDS
from cove.games.tricky_tides.data import CUBES
from cove.games.tricky_tides.geometry import CELLS
from cove.games.tricky_tides.help import HELP
from cove.games.tricky_tides.heuristic import heuristic
from cove.games.tricky_tides.observation import OBSERVER
from cove.games.tricky_tides.options import TidesOptions
from cove.games.tricky_tides.render import render
from cove.games.tricky_tides.state import TIEBREAK, TidesState
from cove.games.tricky_tides.view import end_reason, score_parts


def max_actions(players: int, options: Options) -> int:
    """A safe upper bound on the actions of a game: the game always ends after 3 rounds
    of 6 hands. Set-up: 1 (first leader, option ask) + 1 placement per ship. Each hand:
    1 card per player; at most 4 monster activations of 1 order choice + 1 move + 1 ability
    step per ship (the shark takes from each ship on its island); per sailor 1 heading, at
    most one stop/sail-on per card crossed (CELLS), 1 pick up / deliver / pass, and at most
    one overboard per cube (CUBES)."""
    n = players
    per_hand = n + 4 * (2 + n) + n * (1 + CELLS + 1 + CUBES)
    return 1 + n + ROUNDS * HANDS * per_hand


BOT_DEFAULTS = {"hard": "rollout=heuristic"}
"""What this game's ``hard`` level changes (``cove.bots.defaults``;
benchmarks/results/2026-12-bots.md, "The ``hard`` level per game"): four times the
default search with heuristic-guided rollouts, which won 66.9% [60.0, 73.2] of 192 games
against the default ``mcts`` (2 players, seats rotated); four times the random rollouts
alone did not beat it."""


GAME = Game(
    id="tricky-tides",
    name="Tricky Tides",
    state_cls=TidesState,
    min_players=2,
    max_players=4,
    version="5",   # see RULES.md "Versions"
    summary="Win tricks to sail first; the card you play steers your ship. Pick up goods, "
    "deliver orders, score gold over 3 rounds. Optional modules: events (a rule change "
    "each round) and monsters (activated by the lowest card of their suit).",
    chance=True,
    hidden_information=True,
    simultaneous=False,
    options_cls=TidesOptions,
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
