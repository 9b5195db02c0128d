"""What the terminal reads of a game beyond the contract, all from its declaration
(``Game.move_help``, ``Game.tiebreak``, ``Game.score_parts``, ``Game.end_reason``).
A game that declines one gets generic text."""

from __future__ import annotations

from typing import Any

from cove.core.game import Game
from cove.core.state import State

SAFETY_NOTE = "a safety limit, so the game stopped before its own end"


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


def end_reason(game: Game, state: State) -> str:
    """Why the finished ``state`` ended, in plain words when the game says them (else its
    ``stats()["end"]``), marked when a safety cut-off stopped it; "" when not told."""
    why = game.end_reason(state.view(None)) if game.end_reason is not None else ""
    end = state.stats().get("end")
    if not why and isinstance(end, str):
        why = end
    if why and end in game.safety_ends:   # said once, where the reason already says it
        why += ", so the game stopped before its own end" if "safety" in why else (
            f": {SAFETY_NOTE}")
    return why
