"""What a game's package may tell the terminal beyond the contract: its ``explain``
module's move explanations, tie-break names and skipped-step reasons, and its RULES.md.

Both are optional: a game without them gets generic text. They are found next to the
game's state class (``<package>/explain.py``, ``<package>/RULES.md``), so a game added by a
plug-in is served the same way.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from cove.core.game import Game


def _package(game: Game) -> str:
    return game.state_cls.__module__.rpartition(".")[0]


def explain_module(game: Game) -> ModuleType | None:
    """The game's ``explain`` module, or None when it has none."""
    name = _package(game) + ".explain"
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _attr(game: Game, name: str, default: Any) -> Any:
    mod = explain_module(game)
    return getattr(mod, name, default) if mod is not None else default


def rules_path(game: Game) -> Path | None:
    """The game's RULES.md, or None."""
    mod = sys.modules.get(game.state_cls.__module__)
    file = getattr(mod, "__file__", None)
    if not file:
        return None
    path = Path(file).parent / "RULES.md"
    return path if path.is_file() else None


def move_help(game: Game, text: str) -> str:
    """What the move ``text`` does, from the game's ``MOVES`` table; "" if unknown."""
    moves: tuple[tuple[str, str], ...] = _attr(game, "MOVES", ())
    for pattern, template in moves:
        m = re.fullmatch(pattern, text)
        if m is None:
            continue
        out = m.expand(template)
        if "{die}" in out:
            dice: dict[str, str] = _attr(game, "DICE", {})
            out = out.replace("{die}", dice.get(m.group(1), "its colour's action"))
        return out
    return ""


def tiebreak_names(game: Game) -> tuple[str, ...]:
    """What the game's ``tiebreak()`` compares, in order (empty when not told)."""
    names: tuple[str, ...] = _attr(game, "TIEBREAK", ())
    return names


def skip_reason(game: Game, step: int) -> str:
    """Why a numbered step offered nothing ("no purchase possible"); "" when not told."""
    reasons: dict[int, str] = _attr(game, "SKIPPED", {})
    return reasons.get(step, "")


def score_breakdown(game: Game, view: dict[str, Any], p: int) -> list[tuple[str, float]]:
    """Seat ``p``'s score in named parts from a game-over view; [] when the game does not
    say."""
    parts = _attr(game, "score_breakdown", None)
    if parts is None:
        return []
    out: list[tuple[str, float]] = parts(view, p)
    return out
