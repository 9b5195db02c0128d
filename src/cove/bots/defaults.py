"""A game's own defaults for bot parameters.

A game may declare, in its ``GAME`` (``bot_defaults``), a table from a bot's name
to a parameter text in spec form, e.g. ``{"mcts": "search=paired,width=8"}``: the search
that suits the game (a near-solitaire race is searched differently from a trick-taking
game). A bot built from a spec (``make_bot``: every command, the arena, the
web tables) takes these values for the parameters its spec does not name; a spec that
names a parameter always wins, so ``mcts:search=tree`` still gives the tree search. The
table is read through the registry's module of the game, so a game outside the registry
(a test's toy game) has none.

A key may also be a level (``cove.bots.LEVELS``): ``{"hard": "rollout=heuristic"}`` is
what this game's ``hard`` changes. A level's bot takes, from lowest to highest: the bot's
own defaults, the game's entry for the bot, the level's spec (``hard`` = ``mcts:scale=4``),
then the game's entry for the level, so a game's ``hard`` is its own ``mcts`` at four times
the budget with the changes the game declares for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cove.bots.spec import BotSpecError, Param, parse_params
from cove.core.game import Game


def declared(game: Game) -> Mapping[str, str]:
    """``game``'s ``bot_defaults``, checked (empty when it declares none)."""
    table = game.bot_defaults
    if not table:
        return {}
    from cove.bots import BOTS, LEVELS  # the package imports this module

    if not isinstance(table, Mapping):
        raise BotSpecError(f"{game.id}: bot_defaults must map bot names to parameter texts, "
                           f"not {type(table).__name__}")
    takers = [n for n, cls in BOTS.items() if cls.GAME_DEFAULTS]
    takers += [level for level, spec in LEVELS.items() if spec.partition(":")[0] in takers]
    for key in table:
        if key not in takers:
            raise BotSpecError(f"{game.id}: bot_defaults has an entry {key!r}; only these bots "
                               f"and levels take a game's defaults: {', '.join(takers)}")
    return table


def game_defaults(game: Game, bot: str, params: Sequence[Param]) -> dict[str, Any]:
    """``game``'s declared parameters for ``bot`` (a bot's or a level's name), parsed and
    checked against ``params``."""
    text = declared(game).get(bot)
    if not text:
        return {}
    try:
        return parse_params(bot, params, text)
    except BotSpecError as e:
        raise BotSpecError(f"{game.id}: bot_defaults[{bot!r}] is not valid: {e}") from None


def tuned(game: Game, bot: str, level: str | None, params: Sequence[Param],
          named: frozenset[str]) -> dict[str, Any]:
    """The parameters a spec-built ``bot`` takes from ``game``: the game's entry for the bot,
    except what its spec ``named``, then (for a bot built as ``level``) the game's entry for
    the level, which wins over the level's own spec."""
    out = {k: v for k, v in game_defaults(game, bot, params).items() if k not in named}
    if level is not None:
        out.update(game_defaults(game, level, params))
    return out
