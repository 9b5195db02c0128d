"""Toy: the smallest complete Cove game, written as the tutorial for adding one.

Rules (RULES.md numbers them). A deck holds the cards 1..12, shuffled. Each player is dealt
two hidden cards. The game opens with a simultaneous, secret *bid*: everyone bids 0 or 1 at
once; a bid of 1 costs a point and draws a card. Then players take turns playing a card
from their hand: it scores its value and they draw a replacement. After ``plays`` cards in
all, the highest total wins; a tie goes to the highest card played.

This folder has the shape of every game (CONTRIBUTING.md): read the files in this order:
``data.py`` (the data file's schema), ``actions.py``, ``options.py``, ``rules.py`` (one rule
per kind of decision), ``state.py``, ``view.py``, then the surfaces (``render.py``,
``web_board.py``, ``help.py``, ``heuristic.py``, ``observation.py``) and this declaration.
``cove new-game NAME`` copies it, with its tests, into a new game. It is not registered;
tests register it as ``toy``.
"""

from __future__ import annotations

from cove.core import Game
from cove.example_game import web_board
from cove.example_game.actions import universe
from cove.example_game.data import DATA
from cove.example_game.help import HELP
from cove.example_game.heuristic import heuristic
from cove.example_game.observation import OBSERVER
from cove.example_game.options import ToyOptions
from cove.example_game.render import render
from cove.example_game.state import TIEBREAK, ToyState
from cove.example_game.view import score_parts

GAME = Game(
    id="toy",
    name="Toy",
    state_cls=ToyState,
    min_players=2,
    max_players=4,
    version="4",
    summary="A tutorial game: a secret bid, then play cards for points.",
    chance=True,
    hidden_information=True,
    simultaneous=True,
    options_cls=ToyOptions,
    heuristic=heuristic,
    render=render,
    max_actions=lambda players, options: players + DATA.cards,
    actions=universe,
    observer=OBSERVER,
    board=web_board.draw,
    score_parts=score_parts,
    tiebreak=TIEBREAK,
    move_help=HELP,
    declines={"bot_defaults": "the default search and levels suit a game this small"},
)

__all__ = ["GAME"]
