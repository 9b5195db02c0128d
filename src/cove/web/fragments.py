"""The parts of the table page drawn on the server: the board, the scores and the end.

Each is a small HTML fragment made from what one seat may see (its view, its legal moves),
so nothing hidden can reach a page through them.
"""

from __future__ import annotations

import json
import logging
from html import escape
from typing import Any

from cove.core.game import Game
from cove.core.state import State
from cove.core.text import end_reason, seat_name

log = logging.getLogger(__name__)

def board(game: Game, view: dict[str, Any], legal: list[dict[str, Any]],
          seat: int | None) -> tuple[str, bool]:
    """The board as HTML and whether it is a drawing (False: the terminal text instead).

    A game that declines a web board, or a drawing that fails, falls back to the game's
    terminal rendering in ``<pre>``: the legal-move list still lets the seat play.
    """
    if game.board is not None:
        try:
            return str(game.board(view, legal, seat)), True
        except Exception:  # a bug in one drawing must not take the table down
            log.exception("drawing the %s board failed; showing its text instead", game.id)
    if game.render is not None:
        text = game.render(view, color=False, width=100)
    else:
        text = json.dumps(view, indent=1)
    return f'<pre class="board-text">{escape(text)}</pre>', False


def last_move(state: State, seat: int | None) -> str:
    """The move that made this position, as ``seat`` (None: a spectator) may know it:
    "P2: play 5 whales", "P2 moved in secret" for a commitment not yet revealed to it, or
    "" at the start."""
    if not state.decisions:
        return ""
    mover, action = state.history_for(seat)[-1]
    if action is None:
        return f"{seat_name(mover)} moved in secret"
    return f"{seat_name(mover)}: {action}"


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def scores(game: Game, view: dict[str, Any], seats: list[dict[str, Any]], you: int | None,
           final: list[float] | None) -> str:
    """A table: a column per seat, each part of the score the view shows (the game's
    ``score_parts``) and, once over, the final score the parts add up to."""
    n = len(seats)
    rows: list[tuple[str, list[str]]] = []
    if game.score_parts is not None:
        parts = [list(game.score_parts(view, p)) for p in range(n)]
        names = list(dict.fromkeys(name for seat in parts for name, _ in seat))
        for name in names:
            rows.append((name, [_fmt(dict(seat).get(name, 0)) for seat in parts]))
    if final is not None:
        rows.append(("final score", [_fmt(x) for x in final]))
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
        return f"{named(i, [seat], 0)} (you)"
    if seat.get("kind") == "bot":
        return f"{seat_name(i)} (bot)"
    return named(i, [seat], 0)


def named(i: int, seats: list[dict[str, Any]] | None, at: int | None = None) -> str:
    """Seat ``i`` as players know it: "Ada (P1)" when a named player took it, else "P1"
    (``seats[at]`` is its entry, default ``seats[i]``)."""
    entry = seats[i if at is None else at] if seats else {}
    name = entry.get("name")
    return f"{name} ({seat_name(i)})" if isinstance(name, str) else seat_name(i)


def end(state: State, view: dict[str, Any], you: int | None,
        seats: list[dict[str, Any]] | None = None) -> str:
    """The end screen: the winner(s), every seat's score, why the game ended and, when it
    decided, the tie-break; ``seats`` (the API's seat entries) give the players' names."""
    if not state.is_over:
        return ""
    final = state.scores()
    winners = list(state.winners())

    def who(p: int) -> str:
        return named(p, seats)

    names = " and ".join(who(p) + (" (you)" if p == you else "") for p in winners)
    best = max(final)
    tied = [p for p in range(state.n) if final[p] == best]
    lines = []
    if not winners:
        head = "no player wins"
    elif you is not None and you in winners:
        head = "You win!" if len(winners) == 1 else "You share the win!"
    else:
        head = f"{names} wins" if len(winners) == 1 else f"{names} share the win"
    lines.append(f"<h2>Game over: {escape(head)}</h2>")
    points = ", ".join(f"{who(p)}{' (you)' if p == you else ''} {_fmt(final[p])}"
                       for p in range(len(final)))
    lines.append(f'<p class="end-scores">Final scores: {escape(points)}.</p>')
    lines.append(f'<p class="end-why">{escape(end_reason(state, view))}</p>')
    if len(tied) > 1 and winners:
        rule = ", then ".join(state.game.tiebreak) or "the game's tie-break"
        keys = "; ".join(f"{who(p)} {', '.join(_fmt(k) for k in state.tiebreak(p))}"
                         for p in tied)
        tied_names = ", ".join(who(p) for p in tied)
        if len(winners) < len(tied):
            lines.append(f'<p class="tiebreak">{escape(tied_names)} tied on {_fmt(best)}; '
                         f"the tie-break ({escape(rule)}) decided: {escape(keys)}.</p>")
        else:
            lines.append(f'<p class="tiebreak">{escape(tied_names)} tied on {_fmt(best)} and '
                         f"the tie-break ({escape(rule)}) did not separate them"
                         + (f": {escape(keys)}" if keys else "") + ".</p>")
    return "".join(lines)
