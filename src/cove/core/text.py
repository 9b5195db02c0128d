"""Text shared by the surfaces: the games' terminal layout, seat names, and why a game
ended."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cove.core.state import State


def pack(items: list[str], width: int, sep: str = "  ", indent: str = "") -> list[str]:
    """Items joined by ``sep`` into lines of at most ``width``; an item is split (at spaces)
    only when it alone is wider; continuation lines start with ``indent``."""
    out: list[str] = []
    line = ""
    for item in items:
        if not item:
            continue
        room = max(8, width - len(indent))
        for piece in textwrap.wrap(item, room) if len(item) > room else [item]:
            if not line:
                line = indent + piece if out else piece
            elif len(line) + len(sep) + len(piece) <= width:
                line += sep + piece
            else:
                out.append(line)
                line = indent + piece
    if line:
        out.append(line)
    return out


def seat_name(seat: int) -> str:
    """How every screen names a seat: ``P1`` for seat 0 (seats count from 1 for people)."""
    return f"P{seat + 1}"


END_WORDS: dict[str, str] = {
    "goal": "a player reached the goal{goal}",
    "round cap": "the round limit was reached{round}",
    "turn limit": "the turn limit was reached",
    "stall guard": "nobody made progress for too many turns",
    "third treasure": "a pirate buried a third treasure and the round was played out",
    "10 points": "a player reached 10 points",
    "column empty": "a column of the beach and its pile ran out",
}
"""Plain words for the end a game reports in ``state.stats()["end"]`` (the contract the lab
reads too); a key not listed is shown as it is. ``{goal}`` and ``{round}`` take the view's
``goal`` and ``round`` when it has them."""


def end_reason(state: State, view: dict[str, Any] | None = None) -> str:
    """Why the finished game ended, as sentences a player understands, the same on every
    surface: the game's own sentence (``Game.end_reason``, else its view's
    ``end_reason``) or the words for its ``stats()["end"]``, and whether that was a
    safety limit (``Game.safety_ends``) rather than one of the rules' own ends. ``view``:
    the reader's view (default: the spectator's)."""
    if view is None:
        view = state.view(None)
    key = state.stats().get("end")
    said = state.game.end_reason
    own = said(view) if said is not None else view.get("end_reason")
    if isinstance(own, str) and own:
        why = own
    elif isinstance(key, str) and key:
        goal = f" of {view['goal']}" if isinstance(view.get("goal"), int) else ""
        last = f" after round {view['round']}" if isinstance(view.get("round"), int) else ""
        why = END_WORDS.get(key, key).format(goal=goal, round=last)
    else:
        return "The game ended as its rules end it, with no limit cutting it short."
    out = f"The game ended because {why}."
    if key in state.game.safety_ends and "safety" not in why:  # said once
        out += " That is a safety limit against endless games, not one of the rules' own ends."
    return out
