"""Bots written against the contract only, and the bot-spec parser."""

from __future__ import annotations

from cove.bots.base import Bot
from cove.bots.random_bot import RandomBot
from cove.core.errors import CoveError

BOTS: dict[str, type[Bot]] = {"random": RandomBot}


class BotSpecError(CoveError, ValueError):
    """A bot spec that names no bot or a bad parameter."""


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build a bot from its spec, e.g. ``random``."""
    name, _, params = spec.strip().partition(":")
    cls = BOTS.get(name)
    if cls is None:
        raise BotSpecError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}")
    if params:
        raise BotSpecError(f"bot {name!r} takes no parameters, got {params!r}")
    return cls(seed)


__all__ = ["BOTS", "Bot", "BotSpecError", "RandomBot", "make_bot"]
