"""What the terminal reads of a game beyond the contract, all from its declaration
(``Game.move_help``, ``Game.tiebreak``, ``Game.score_parts``) and its folder's RULES.md.
A game that declines one gets generic text."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from cove.core.game import Game


def rules_path(game: Game) -> Path | None:
    """The game's RULES.md, or None."""
    mod = sys.modules.get(game.state_cls.__module__)
    file = getattr(mod, "__file__", None)
    if not file:
        return None
    path = Path(file).parent / "RULES.md"
    return path if path.is_file() else None


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
