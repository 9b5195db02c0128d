"""What the terminal reads of a game beyond the contract, all from its declaration
(``Game.move_help``, ``Game.tiebreak``, ``Game.score_parts``).
A game that declines one gets generic text."""

from __future__ import annotations

from typing import Any

from cove.core.game import Game


def move_help(game: Game, text: str) -> str:
    """What the move ``text`` does; "" if the game does not say."""
    return game.move_help.explain(text) if game.move_help is not None else ""


def skip_reason(game: Game, step: int) -> str:
    """Why a numbered step offered nothing ("no purchase possible"); "" when not told."""
    return game.move_help.skip_reason(step) if game.move_help is not None else ""


def score_breakdown(game: Game, view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Seat ``p``'s score in named parts from ``view``; [] when the game does not say."""
    if game.score_parts is None:
        return []
    return list(game.score_parts(view, p))
