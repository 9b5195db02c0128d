"""Bots written against the contract only, and the bot-spec parser.

A spec is ``name`` or ``name:key=value,key=value``, e.g. ``mcts:iterations=2000,c=0.7``.
"""

from __future__ import annotations

from cove.bots.base import Bot
from cove.bots.greedy import GreedyBot
from cove.bots.mcts import MctsBot
from cove.bots.random_bot import RandomBot
from cove.bots.spec import BotSpecError, Param, params_text, parse_params, split_specs

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MctsBot}

DEFAULT_PLAY_BOT = "mcts:time=1"
"""Opponents of ``cove play``: the default MCTS budget, capped at about a second a move."""


LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "mcts",
    "hard": "mcts:scale=4",
}
"""Strength presets for players (``cove play --bots hard``): a level is a name for a spec.
``easy`` looks one move ahead; ``medium`` searches at the default budget; ``hard``
searches four times as much (``scale=4`` multiplies both budgets, a game's own default
budget included). A game may declare its own parameters for a level
(``Game.bot_defaults["hard"]``, ``cove.bots.defaults``): more budget alone does not make every
game's search stronger, so each game says what its ``hard`` changes. Budgets count
iterations and forward-model calls, not seconds, so a level plays the same on every
machine (benchmarks/results/2026-12-bots.md has their measured strength)."""


def describe_bots() -> str:
    """Every bot with its parameters, one per line (for errors and help)."""
    return "\n".join(
        [f"  {name}: {cls.summary}" + "".join(f"\n      {p.describe()}" for p in cls.PARAMS)
         for name, cls in BOTS.items()]
        + [f"  {level}: the {level} level, {spec} (and the game's own {level} parameters, "
           "if it declares any)" for level, spec in LEVELS.items()]
    )


def bot_names() -> str:
    """The bots and levels a spec may start with, and where their parameters are listed
    (one short line: for errors)."""
    return (f"bots: {', '.join(BOTS)}; levels: {', '.join(LEVELS)} "
            "(`cove bots` lists each bot's parameters)")


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build a bot from its spec, e.g. ``random`` or ``mcts:iterations=500,rollout=heuristic``."""
    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError(f"empty bot spec; {bot_names()}")
    name, _, params = spec.strip().partition(":")
    name = name.strip().lower()
    if name in LEVELS:
        if params.strip():
            raise BotSpecError(f"the level {name!r} takes no parameters (it means "
                               f"{LEVELS[name]!r}); give that spec with your changes instead")
        level: str | None = name
        name, _, params = LEVELS[name].partition(":")
    else:
        level = None
    cls = BOTS.get(name)
    if cls is None:
        raise BotSpecError(f"unknown bot {name!r} in spec {spec!r}; {bot_names()}")
    kwargs = parse_params(name, cls.PARAMS, params)
    bot = cls(seed, **kwargs)
    bot.spec_params = frozenset(kwargs)
    bot.level = level
    return bot


__all__ = [
    "BOTS",
    "DEFAULT_PLAY_BOT",
    "LEVELS",
    "Bot",
    "BotSpecError",
    "GreedyBot",
    "MctsBot",
    "Param",
    "RandomBot",
    "bot_names",
    "describe_bots",
    "make_bot",
    "params_text",
    "split_specs",
]
