"""A game's own defaults for bot parameters.

A game module may declare, beside its ``GAME``, a table ``BOT_DEFAULTS`` from a bot's name
to a parameter text in spec form, e.g. ``{"mcts": "search=paired,width=8"}``: the search
that suits the game (Trails of Tucana, a near-solitaire race, is searched differently from
a trick-taking game). A bot built from a spec (``make_bot``: every command, the arena, the
web tables) takes these values for the parameters its spec does not name; a spec that
names a parameter always wins, so ``mcts:search=tree`` still gives the tree search. The
table is read through the registry's module of the game, so a game outside the registry
(a test's toy game) has none.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from cove.bots.spec import BotSpecError, Param, parse_params
from cove.core.game import Game
from cove.core.registry import REGISTRY


def declared(game: Game) -> Mapping[str, str]:
    """The ``BOT_DEFAULTS`` table of ``game``'s module (empty when it declares none)."""
    module = REGISTRY.get(game.id)
    if module is None:
        return {}
    table = getattr(importlib.import_module(module), "BOT_DEFAULTS", None)
    if table is None:
        return {}
    if not isinstance(table, Mapping):
        raise BotSpecError(f"{game.id}: BOT_DEFAULTS must map bot names to parameter texts, "
                           f"not {type(table).__name__}")
    return table


def game_defaults(game: Game, bot: str, params: Sequence[Param]) -> dict[str, Any]:
    """``game``'s declared parameters for ``bot``, parsed and checked against ``params``."""
    text = declared(game).get(bot)
    if not text:
        return {}
    try:
        return parse_params(bot, params, text)
    except BotSpecError as e:
        raise BotSpecError(f"{game.id}: BOT_DEFAULTS[{bot!r}] is not valid: {e}") from None
