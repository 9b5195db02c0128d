"""The parts of the table page drawn on the server: the board, the scores and the end.

Each is a small HTML fragment made from what one seat may see (its view, its legal moves),
so nothing hidden can reach a page through them.
"""

from __future__ import annotations

import importlib
import json
import logging
from html import escape
from typing import Any

from cove.core.game import Game
from cove.core.state import State

log = logging.getLogger(__name__)

TIEBREAKS: dict[str, str] = {
    "high-water": "more completed quests, then more gold and rum",
    "the-tide": "the most tiles held (rubbish and shells)",
    "tiny-epic-pirates": "most treasures buried, then legend level, gold and booty",
    "trails-of-tucana": "the most bonus points (blue and red cards)",
    "tricky-tides": "the most order cards, then the most goods in the hold",
}
"""Each game's tie-break among tied top scores, in words (from its RULES.md)."""

SEAT_LISTS = ("seats", "sheets", "pirates")
"""View keys that hold one dict per seat in the games' views."""


SCORE_KEYS: dict[str, list[str]] = {
    "high-water": ["influence", "gold", "rum", "completed"],
    "the-tide": ["points", "shells", "tiles"],
    "tiny-epic-pirates": ["treasures", "legend", "gold", "booty"],
    "trails-of-tucana": ["score", "sight_sum", "pair_points", "bonus_points"],
    "tricky-tides": ["public_score", "order_gold", "orders", "hold_total"],
}
"""The per-seat fields of each game's view that make up or decide its score (a list
counts its items); a game not listed shows every number its view keeps per seat."""

HIDDEN_KEYS = frozenset({"seat", "player", "colour", "color"})
"""Per-seat numbers that are labels, not counts: left out of the scores table."""


def seat_name(seat: int) -> str:
    return f"P{seat + 1}"


def _boards() -> Any:
    """The board drawings (`cove.web.boards`), or None when they are not installed."""
    try:
        return importlib.import_module("cove.web.boards")
    except ImportError:
        return None


def board(game: Game, view: dict[str, Any], legal: list[dict[str, Any]],
          seat: int | None) -> tuple[str, bool]:
    """The board as HTML and whether it is a drawing (False: the terminal text instead).

    A game without a drawing, or a drawing that fails, falls back to the game's terminal
    rendering in ``<pre>``: the legal-move list still lets the seat play.
    """
    boards = _boards()
    if boards is not None:
        unavailable = getattr(boards, "BoardUnavailable", ImportError)
        try:
            return str(boards.draw(game.id, view, legal, seat)), True
        except unavailable:
            pass
        except Exception:  # a bug in one drawing must not take the table down
            log.exception("drawing the %s board failed; showing its text instead", game.id)
    if game.render is not None:
        text = game.render(view, color=False, width=100)
    else:
        text = json.dumps(view, indent=1)
    return f'<pre class="board-text">{escape(text)}</pre>', False


def seat_rows(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The view's per-seat dicts (seats, sheets or pirates), when it has them."""
    n = view.get("players")
    for key in SEAT_LISTS:
        rows = view.get(key)
        if (isinstance(rows, list) and len(rows) == n
                and all(isinstance(r, dict) for r in rows)):
            return rows
    return None


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def scores(view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
           final: list[float] | None) -> str:
    """A table: a column per seat, the final score (once over) and every number the view
    keeps per seat (points, shells, gold, influence, ...): the breakdown the view has."""
    n = len(seats)
    rows: list[tuple[str, list[str]]] = []
    if final is not None:
        rows.append(("final score", [_fmt(x) for x in final]))
    per = seat_rows(view)
    if per is not None:
        keys = SCORE_KEYS.get(str(view.get("game")))
        if keys is None:  # a game not listed: every number kept per seat
            keys = [k for k, v in per[0].items() if _number(v) and k not in HIDDEN_KEYS]
        for k in keys:
            vals = [len(v) if isinstance(v, list) else v for v in (r.get(k) for r in per)]
            if all(_number(v) for v in vals):
                rows.append((k.replace("_", " "), [_fmt(v) for v in vals]))  # type: ignore[arg-type]
    if not rows:
        return '<p class="muted">No scores are shown during this game.</p>'
    head = "".join(f'<th scope="col">{escape(seat_label(i, seats[i], you))}</th>'
                   for i in range(n))
    body = "".join(f'<tr><th scope="row">{escape(name)}</th>'
                   + "".join(f"<td>{escape(v)}</td>" for v in vals) + "</tr>"
                   for name, vals in rows)
    return (f'<table class="scores"><thead><tr><th></th>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def seat_label(i: int, seat: dict[str, Any], you: int | None) -> str:
    if i == you:
        return f"{seat_name(i)} (you)"
    if seat.get("kind") == "bot":
        return f"{seat_name(i)} (bot)"
    return seat_name(i)


def end(state: State, view: dict[str, Any], you: int | None) -> str:
    """The end screen: the winner(s), the scores and, when it decided, the tie-break."""
    if not state.is_over:
        return ""
    final = state.scores()
    winners = list(state.winners())
    names = " and ".join(seat_name(p) + (" (you)" if p == you else "") for p in winners)
    best = max(final)
    tied = [p for p in range(state.n) if final[p] == best]
    lines = []
    if you is not None and you in winners:
        head = "You win!" if len(winners) == 1 else "You share the win!"
    else:
        head = f"{names} wins" if len(winners) == 1 else f"{names} share the win"
    lines.append(f"<h2>Game over: {escape(head)}</h2>")
    lines.append(f"<p>{escape(names)} with {_fmt(best)} "
                 f"{'point' if best == 1 else 'points'}.</p>")
    if len(tied) > 1:
        rule = TIEBREAKS.get(state.game.id, "the game's tie-break")
        keys = "; ".join(f"{seat_name(p)} {', '.join(_fmt(k) for k in state.tiebreak(p))}"
                         for p in tied)
        tied_names = ", ".join(seat_name(p) for p in tied)
        if len(winners) < len(tied):
            lines.append(f'<p class="tiebreak">{escape(tied_names)} tied on {_fmt(best)}; '
                         f"the tie-break ({escape(rule)}) decided: {escape(keys)}.</p>")
        else:
            lines.append(f'<p class="tiebreak">{escape(tied_names)} tied on {_fmt(best)} and '
                         f"the tie-break ({escape(rule)}) did not separate them"
                         + (f": {escape(keys)}" if keys else "") + ".</p>")
    why = view.get("end_reason") or view.get("game_end")
    if isinstance(why, str) and why:
        lines.append(f"<p>The game ended: {escape(why)}.</p>")
    return "".join(lines)
